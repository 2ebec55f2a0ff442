// Maps times and resourceVersions to positions in the log, each with one index probe: the
// bounds every history range starts from. Times are compared as the log records them (UTC ISO
// 8601 with milliseconds), and the log's recorded_at is taken to grow with its position.
import type { DatabaseHandle } from './database';

export class LogPositions {
  private readonly maxPosition;
  private readonly firstAtOrAfter;
  private readonly lastAtOrBefore;
  private readonly rvAt;
  private readonly firstOfWrite;

  constructor(handle: DatabaseHandle) {
    const sqlite = handle.sqlite;
    this.maxPosition = sqlite.prepare('SELECT coalesce(max(position), 0) FROM events').pluck();
    this.firstAtOrAfter = sqlite.prepare('SELECT position FROM events WHERE recorded_at >= ? ORDER BY recorded_at, position LIMIT 1').pluck();
    this.lastAtOrBefore = sqlite.prepare('SELECT position FROM events WHERE recorded_at <= ? ORDER BY recorded_at DESC, position DESC LIMIT 1').pluck();
    this.rvAt = sqlite.prepare('SELECT resource_version FROM events WHERE position = ?').pluck();
    this.firstOfWrite = sqlite.prepare('SELECT min(position) FROM events WHERE resource_version = ?').pluck();
  }

  head(): number {
    return this.maxPosition.get() as number;
  }

  /** The first position recorded at or after `time`; head + 1 when there is none. */
  firstPositionAtOrAfter(time: string): number {
    return (this.firstAtOrAfter.get(time) as number | undefined) ?? this.head() + 1;
  }

  /** The last position recorded at or before `time`; 0 when there is none. */
  lastPositionAtOrBefore(time: string): number {
    return (this.lastAtOrBefore.get(time) as number | undefined) ?? 0;
  }

  /**
   * The first position of the first write whose resourceVersion is >= rv. A write's events
   * share its resourceVersion (the last one's position), so rv may fall inside a write.
   */
  writeStartAtOrAfter(rv: number): number {
    if (rv <= 1) return 1;
    const enclosing = this.rvAt.get(rv - 1) as number | undefined;
    if (enclosing === undefined || enclosing < rv) return rv;
    return this.firstOfWrite.get(enclosing) as number;
  }
}
