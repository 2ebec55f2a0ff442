// Cluster IPs and node ports held by live Services. The table's primary key makes a double
// allocation impossible even if a decider bug tried one.
import type { DatabaseHandle } from '../store/database';
import type { Projection } from './projection';
import type { CommittedWrite } from '../store/ports/committed-write';
import { allocationRowChanges } from './projection-rows';

export class AllocationsProjection implements Projection {
  readonly name = 'allocations';
  readonly presentOnly = true;
  readonly tables = ['allocations'];
  private readonly insert;
  private readonly remove;

  constructor(handle: DatabaseHandle) {
    this.insert = handle.sqlite.prepare('INSERT INTO allocations (kind, value, uid) VALUES (?, ?, ?)');
    this.remove = handle.sqlite.prepare('DELETE FROM allocations WHERE kind = ? AND value = ? AND uid = ?');
  }

  apply(write: CommittedWrite): void {
    const { release, take } = allocationRowChanges(write);
    for (const cell of release) this.remove.run(cell.kind, cell.value, write.streamId);
    for (const cell of take) this.insert.run(cell.kind, cell.value, write.streamId);
  }
}
