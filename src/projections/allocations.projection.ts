// Cluster IPs and node ports held by live Services. The table's primary key makes a double
// allocation impossible even if a decider bug tried one.
import { allocatedValues } from '../domain/allocation/service-allocation';
import type { Service } from '../domain/service.types';
import type { DatabaseHandle } from '../store/database';
import type { CommittedWrite, Projection } from './projection';

function entries(object: Service | null): Set<string> {
  if (!object) return new Set();
  const held = allocatedValues(object);
  return new Set([...held.clusterIPs.map((ip) => `cluster-ip\u0000${ip}`), ...held.nodePorts.map((p) => `node-port\u0000${p}`)]);
}

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
    // What a Service holds follows from its spec alone: a write that leaves the spec (a status
    // or metadata write) and the object's existence alone changes nothing here.
    if (write.before.object && write.after.object && !write.events.some((e) => e.event.type === 'ServiceSpecChanged')) return;
    const before = entries(write.before.object);
    const after = entries(write.after.object);
    for (const e of before) if (!after.has(e)) this.remove.run(...e.split('\u0000'), write.streamId);
    for (const e of after) if (!before.has(e)) this.insert.run(...e.split('\u0000'), write.streamId);
  }
}
