// The PostgreSQL engine's audit join (see audit-actor-store.ts): each delivery in one transaction.
import type { Pool } from 'pg';
import type { AuditedWrite } from '../../domain/mirror/audited-write';
import { actorValues, joinedActor } from '../ports/audit-actor-store';
import type { ActorRow, AuditActorStore, JoinedActor, RecordedObservation } from '../ports/audit-actor-store';
import { inTransaction } from './postgres-database';

const INSERT_ACTOR = `INSERT INTO audit_actors (resource_version, audit_id, "user", groups, user_agent, source_ips, verb, request_received_at, identified_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (resource_version) DO NOTHING`;

export class PgAuditActorStore implements AuditActorStore {
  constructor(private readonly pool: Pool) {}

  receive(writes: readonly AuditedWrite[], now: Date): Promise<{ joined: number; pending: number }> {
    return inTransaction(this.pool, async (client) => {
      let joined = 0;
      let pending = 0;
      for (const write of writes) {
        const { rows } = await client.query<{ resource_version: number }>(
          `SELECT o.resource_version FROM observed_writes o JOIN events e ON e.position = o.resource_version
            WHERE o.source_resource_version = $1 AND e.namespace = $2 AND e.name = $3`,
          [write.sourceResourceVersion, write.namespace, write.name],
        );
        if (rows.length) {
          await client.query(INSERT_ACTOR, actorValues(Number(rows[0].resource_version), write, now));
          joined++;
        } else {
          await client.query(
            'INSERT INTO pending_audit_events (audit_id, namespace, name, source_resource_version, write, received_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (audit_id) DO NOTHING',
            [write.auditID, write.namespace, write.name, write.sourceResourceVersion, JSON.stringify(write), now.toISOString()],
          );
          pending++;
        }
      }
      return { joined, pending };
    });
  }

  recorded(write: RecordedObservation, now: Date): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ audit_id: string; write: string }>(
        'DELETE FROM pending_audit_events WHERE namespace = $1 AND name = $2 AND source_resource_version = $3 RETURNING audit_id, write',
        [write.namespace, write.name, write.sourceResourceVersion],
      );
      for (const row of rows) await client.query(INSERT_ACTOR, actorValues(write.resourceVersion, JSON.parse(row.write) as AuditedWrite, now));
      return rows.length > 0;
    });
  }

  sweep(now: Date): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ audit_id: string; write: string; resource_version: number }>(
        `DELETE FROM pending_audit_events p USING observed_writes o, events e
          WHERE o.source_resource_version = p.source_resource_version AND e.position = o.resource_version AND e.namespace = p.namespace AND e.name = p.name
          RETURNING p.audit_id, p.write, o.resource_version`,
      );
      for (const row of rows) await client.query(INSERT_ACTOR, actorValues(Number(row.resource_version), JSON.parse(row.write) as AuditedWrite, now));
      return rows.length;
    });
  }

  async pendingCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM pending_audit_events');
    return Number(rows[0].n);
  }

  async expire(before: Date): Promise<number> {
    const result = await this.pool.query('DELETE FROM pending_audit_events WHERE received_at < $1', [before.toISOString()]);
    return result.rowCount ?? 0;
  }

  async actors(resourceVersions: readonly number[]): Promise<Map<number, JoinedActor>> {
    const out = new Map<number, JoinedActor>();
    if (!resourceVersions.length) return out;
    const { rows } = await this.pool.query<ActorRow>('SELECT resource_version, audit_id, "user", groups, user_agent, source_ips, identified_at FROM audit_actors WHERE resource_version = ANY($1)', [
      resourceVersions,
    ]);
    for (const row of rows) out.set(Number(row.resource_version), joinedActor(row));
    return out;
  }
}
