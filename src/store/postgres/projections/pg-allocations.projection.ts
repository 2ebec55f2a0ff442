// Cluster IPs and node ports held by live Services (as AllocationsProjection). The primary key
// (kind, value) refuses a second holder from any replica, whatever a decider believed.
import { allocatedValues } from '../../../domain/allocation/service-allocation';
import type { Service } from '../../../domain/service.types';
import type { CommittedWrite } from '../../../projections/projection';
import type { Queryable } from '../postgres-database';
import type { PgProjection } from './pg-projection';

type Kind = 'cluster-ip' | 'node-port';

function entries(object: Service | null): Map<string, [Kind, string]> {
  const out = new Map<string, [Kind, string]>();
  if (!object) return out;
  const held = allocatedValues(object);
  for (const ip of held.clusterIPs) out.set(`cluster-ip\u0000${ip}`, ['cluster-ip', ip]);
  for (const port of held.nodePorts) out.set(`node-port\u0000${port}`, ['node-port', String(port)]);
  return out;
}

export class PgAllocationsProjection implements PgProjection {
  readonly name = 'allocations';
  readonly tables = ['allocations'];

  async apply(client: Queryable, write: CommittedWrite): Promise<void> {
    const before = entries(write.before.object);
    const after = entries(write.after.object);
    // Releases, then takes: the SQLite projection's order.
    for (const [key, [kind, value]] of before) {
      if (!after.has(key)) await client.query('DELETE FROM allocations WHERE kind = $1 AND value = $2 AND uid = $3', [kind, value, write.streamId]);
    }
    for (const [key, [kind, value]] of after) {
      if (!before.has(key)) await client.query('INSERT INTO allocations (kind, value, uid) VALUES ($1, $2, $3)', [kind, value, write.streamId]);
    }
  }
}
