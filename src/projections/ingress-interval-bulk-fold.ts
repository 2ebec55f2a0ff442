// The ingress history projection's bulk fold (a rebuild with its indexes dropped): whole
// intervals inserted once each, through foldIngressIntervals, numbered as the live path numbers
// them (rowids in the order the intervals opened).
import type { DatabaseHandle } from '../store/database';
import { eventIngressChanges } from './ingress-addresses';
import { foldIngressIntervals, type IngressIntervalRow } from './ingress-interval-fold';
import type { BulkFold } from './projection';
import type { CommittedWrite } from '../store/ports/committed-write';

export class IngressIntervalBulkFold implements BulkFold {
  private readonly insert;
  private lastId: number;
  /** The open intervals per Service (uid). */
  private readonly open = new Map<string, IngressIntervalRow[]>();

  constructor(handle: DatabaseHandle) {
    this.insert = handle.sqlite.prepare(
      `INSERT INTO ingress_intervals (id, address, address_type, uid, namespace, name, from_resource_version, from_time, set_by,
         to_resource_version, to_time, cleared_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // A rowid is one past the largest, so an emptied table starts again at 1.
    this.lastId = handle.sqlite.prepare('SELECT coalesce(max(id), 0) FROM ingress_intervals').pluck().get() as number;
  }

  apply(write: CommittedWrite): void {
    const held = this.open.get(write.streamId) ?? [];
    if (!held.length && !write.events.some((e) => eventIngressChanges(e.event))) return;
    const open = foldIngressIntervals(
      write,
      held,
      () => ++this.lastId,
      (row) => this.insert.run(...row),
    );
    if (open.length) this.open.set(write.streamId, open);
    else this.open.delete(write.streamId);
  }

  /** The intervals never cleared, in the order they opened. */
  finish(): void {
    const open = [...this.open.values()].flat().sort((a, b) => a[0] - b[0]);
    for (const row of open) this.insert.run(...row);
    this.open.clear();
  }
}
