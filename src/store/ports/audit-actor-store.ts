// Mirror mode's port for actors from kube-apiserver's audit webhook: an audited write is joined to
// the recorded write with the same object and source resourceVersion, whichever of the two
// arrives first; until its write is recorded it waits (an hour at most). Repeated deliveries of
// one audit event change nothing.
import type { AuditedWrite } from '../../domain/mirror/audited-write';

/** Who made a recorded write, as its audit event told it, and when svctrail learned it. */
export interface JoinedActor {
  user: string;
  groups: string[];
  userAgent: string;
  sourceIPs: string[];
  auditID: string;
  identifiedAt: string;
}

/** A write the reflector recorded, as the join needs it. */
export interface RecordedObservation {
  resourceVersion: number;
  namespace: string;
  name: string;
  sourceResourceVersion: string;
}

export interface AuditActorStore {
  /** Joins each write to its recorded write, or keeps it pending. */
  receive(writes: readonly AuditedWrite[], now: Date): Promise<{ joined: number; pending: number }>;
  /** After a write was recorded: the audit event waiting for it, if any, is joined. */
  recorded(write: RecordedObservation, now: Date): Promise<boolean>;
  /** Joins every pending event whose write is recorded by now (another replica may have recorded it); how many. */
  sweep(now: Date): Promise<number>;
  /** Drops the pending events received before `before`; how many. */
  expire(before: Date): Promise<number>;
  /** How many audit events wait for their write. */
  pendingCount(): Promise<number>;
  /** The joined actor of each write among `resourceVersions`. */
  actors(resourceVersions: readonly number[]): Promise<Map<number, JoinedActor>>;
}

/** DI token of the engine's AuditActorStore. */
export const AUDIT_ACTOR_STORE = Symbol('AUDIT_ACTOR_STORE');

export interface ActorRow {
  resource_version: number;
  audit_id: string;
  user: string;
  groups: string;
  user_agent: string;
  source_ips: string;
  identified_at: string;
}

export function joinedActor(row: ActorRow): JoinedActor {
  return {
    user: row.user,
    groups: JSON.parse(row.groups) as string[],
    userAgent: row.user_agent,
    sourceIPs: JSON.parse(row.source_ips) as string[],
    auditID: row.audit_id,
    identifiedAt: row.identified_at,
  };
}

/** The audit_actors row values of a write joined at `now`, in column order. */
export function actorValues(resourceVersion: number, write: AuditedWrite, now: Date): unknown[] {
  return [resourceVersion, write.auditID, write.user, JSON.stringify(write.groups), write.userAgent, JSON.stringify(write.sourceIPs), write.verb, write.requestReceivedTimestamp, now.toISOString()];
}
