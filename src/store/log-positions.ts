// Maps times and resourceVersions to positions in the log: the bounds every history range starts
// from. The log has no index by time or by resourceVersion (each would cost every write a page of
// WAL); neither is needed, because both grow with position:
// - recorded_at never decreases along the log (the event store clamps a clock that steps back),
//   so a time is found by a binary search of the primary key: ~log2(n) row reads;
// - a write's events are the consecutive positions ending at its resourceVersion, so its first
//   event is found by walking back from that position.
// Times are compared as the log records them (UTC ISO 8601 with milliseconds: text order is time
// order).
import type Database from 'better-sqlite3';

export class LogPositions {
  private readonly maxPosition;
  private readonly minPosition;
  private readonly recordedAt;
  private readonly backwardsFrom: Database.Statement;

  constructor(sqlite: Database.Database) {
    this.maxPosition = sqlite.prepare('SELECT coalesce(max(position), 0) FROM events').pluck();
    this.minPosition = sqlite.prepare('SELECT coalesce(min(position), 1) FROM events').pluck();
    this.recordedAt = sqlite.prepare('SELECT recorded_at FROM events WHERE position = ?').pluck();
    this.backwardsFrom = sqlite.prepare('SELECT position, resource_version AS rv FROM events WHERE position <= ? ORDER BY position DESC');
  }

  head(): number {
    return this.maxPosition.get() as number;
  }

  /** The first position recorded at or after `time`; head + 1 when there is none. */
  firstPositionAtOrAfter(time: string): number {
    return this.lastPositionBefore(time, false) + 1;
  }

  /** The last position recorded at or before `time`; 0 when there is none. */
  lastPositionAtOrBefore(time: string): number {
    return this.lastPositionBefore(time, true);
  }

  /** The first position of the write whose resourceVersion (last position) is `rv`. */
  writeStart(rv: number): number {
    let start = rv;
    for (const row of this.backwardsFrom.iterate(rv - 1) as Iterable<{ position: number; rv: number }>) {
      if (row.rv !== rv) break;
      start = row.position;
    }
    return start;
  }

  /**
   * The first position of the first write whose resourceVersion is >= rv. A write's events
   * share its resourceVersion (the last one's position), so rv may fall inside a write.
   */
  writeStartAtOrAfter(rv: number): number {
    if (rv <= 1) return 1;
    // The write holding position rv - 1: if it ends at or after rv, it starts before rv.
    let start = rv;
    let enclosing: number | undefined;
    for (const row of this.backwardsFrom.iterate(rv - 1) as Iterable<{ position: number; rv: number }>) {
      enclosing ??= row.rv;
      if (enclosing < rv || row.rv !== enclosing) break;
      start = row.position;
    }
    return start;
  }

  /**
   * The greatest position whose recorded_at is < time (or <= time when `inclusive`), 0 when
   * none: the log is ordered by recorded_at, so this is a binary search over its positions
   * (contiguous from the oldest the log holds to its head).
   */
  private lastPositionBefore(time: string, inclusive: boolean): number {
    const before = (position: number) => {
      const at = this.recordedAt.get(position) as string | undefined;
      return at !== undefined && (inclusive ? at <= time : at < time);
    };
    let low = this.minPosition.get() as number;
    let high = this.head();
    if (high === 0 || !before(low)) return 0;
    // Invariant: position `low` qualifies; positions above `high` do not.
    while (low < high) {
      const middle = low + Math.ceil((high - low) / 2);
      if (before(middle)) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
