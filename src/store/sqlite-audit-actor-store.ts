// The embedded engine's audit join (see audit-actor-store.ts). Its writes go through the group
// commit, like every write: durable before the webhook is answered, never inside a request's read
// snapshot.
import type { Statement } from 'better-sqlite3';
import type { AuditedWrite } from '../domain/mirror/audited-write';
import { actorValues, joinedActor } from './ports/audit-actor-store';
import type { ActorRow, AuditActorStore, JoinedActor, RecordedObservation } from './ports/audit-actor-store';
import type { DatabaseHandle } from './database';
import type { GroupCommitter } from './group-commit';

// CROSS JOIN keeps the order: the write by its source resourceVersion first, then its event by
// position (the planner would otherwise walk every event of the name).
const RECORDED_WRITE = `SELECT o.resource_version FROM observed_writes o INDEXED BY observed_writes_source CROSS JOIN events e ON e.position = o.resource_version
  WHERE o.source_resource_version = ? AND e.namespace = ? AND e.name = ?`;

export class SqliteAuditActorStore implements AuditActorStore {
  private readonly s: Record<'recordedWrite' | 'insertActor' | 'insertPending' | 'pendingFor' | 'deletePending' | 'expire' | 'actor' | 'sweep' | 'count', Statement>;

  /** `committer`: absent for a read-only reader (the CLI), which only reads actors. */
  constructor(
    handle: DatabaseHandle,
    private readonly committer?: GroupCommitter,
  ) {
    const sqlite = handle.sqlite;
    this.s = {
      recordedWrite: sqlite.prepare(RECORDED_WRITE).pluck(),
      insertActor: sqlite.prepare(
        `INSERT INTO audit_actors (resource_version, audit_id, user, groups, user_agent, source_ips, verb, request_received_at, identified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (resource_version) DO NOTHING`,
      ),
      insertPending: sqlite.prepare(
        'INSERT INTO pending_audit_events (audit_id, namespace, name, source_resource_version, write, received_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (audit_id) DO NOTHING',
      ),
      pendingFor: sqlite.prepare('SELECT audit_id, write FROM pending_audit_events WHERE namespace = ? AND name = ? AND source_resource_version = ?'),
      deletePending: sqlite.prepare('DELETE FROM pending_audit_events WHERE audit_id = ?'),
      expire: sqlite.prepare('DELETE FROM pending_audit_events WHERE received_at < ?'),
      sweep: sqlite.prepare(
        // Every waiting event (an hour's at most), each looked up by its source resourceVersion.
        `SELECT p.audit_id, p.write, o.resource_version FROM pending_audit_events p
           CROSS JOIN observed_writes o INDEXED BY observed_writes_source ON o.source_resource_version = p.source_resource_version
           CROSS JOIN events e ON e.position = o.resource_version AND e.namespace = p.namespace AND e.name = p.name`,
      ),
      count: sqlite.prepare('SELECT count(*) FROM pending_audit_events').pluck(),
      actor: sqlite.prepare('SELECT resource_version, audit_id, user, groups, user_agent, source_ips, identified_at FROM audit_actors WHERE resource_version = ?'),
    };
  }

  receive(writes: readonly AuditedWrite[], now: Date): Promise<{ joined: number; pending: number }> {
    return this.write(() => {
      let joined = 0;
      let pending = 0;
      for (const write of writes) {
        const rv = this.s.recordedWrite.get(write.sourceResourceVersion, write.namespace, write.name) as number | undefined;
        if (rv !== undefined) {
          this.s.insertActor.run(...actorValues(rv, write, now));
          joined++;
        } else {
          this.s.insertPending.run(write.auditID, write.namespace, write.name, write.sourceResourceVersion, JSON.stringify(write), now.toISOString());
          pending++;
        }
      }
      return { joined, pending };
    });
  }

  recorded(write: RecordedObservation, now: Date): Promise<boolean> {
    return this.write(() => {
      const waiting = this.s.pendingFor.all(write.namespace, write.name, write.sourceResourceVersion) as { audit_id: string; write: string }[];
      for (const row of waiting) {
        this.s.insertActor.run(...actorValues(write.resourceVersion, JSON.parse(row.write) as AuditedWrite, now));
        this.s.deletePending.run(row.audit_id);
      }
      return waiting.length > 0;
    });
  }

  sweep(now: Date): Promise<number> {
    return this.write(() => {
      const found = this.s.sweep.all() as { audit_id: string; write: string; resource_version: number }[];
      for (const row of found) {
        this.s.insertActor.run(...actorValues(row.resource_version, JSON.parse(row.write) as AuditedWrite, now));
        this.s.deletePending.run(row.audit_id);
      }
      return found.length;
    });
  }

  pendingCount(): Promise<number> {
    return Promise.resolve(this.s.count.get() as number);
  }

  expire(before: Date): Promise<number> {
    return this.write(() => this.s.expire.run(before.toISOString()).changes);
  }

  private write<T>(work: () => T): Promise<T> {
    if (!this.committer) return Promise.reject(new Error('the audit actors were opened read-only'));
    return this.committer.run(work);
  }

  actors(resourceVersions: readonly number[]): Promise<Map<number, JoinedActor>> {
    const out = new Map<number, JoinedActor>();
    for (const rv of resourceVersions) {
      const row = this.s.actor.get(rv) as ActorRow | undefined;
      if (row) out.set(rv, joinedActor(row));
    }
    return Promise.resolve(out);
  }
}
