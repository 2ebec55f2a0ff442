// The objects the history API serves, built from store rows. Every item has kind, apiVersion and
// metadata (name, namespace, resourceVersion, creationTimestamp) like any Kubernetes object.
import type { JoinedActor } from '../store/ports/audit-actor-store';
import type { ConflictRow, IntervalRow } from '../store/ports/ingress-history';
import type { RecordedWrite, StoredWrite } from '../store/ports/change-history';
import type { TransitionRow } from '../store/ports/condition-history';
import type { ConditionStatusSummary } from '../domain/condition-summary';
import { HISTORY_API_VERSION } from './history-api';
import { jsonPatchBetween, type JsonPatch } from '../domain/json-patch-diff';

export interface ServiceRef {
  namespace: string;
  name: string;
  uid: string;
}

export interface Actor {
  user: string;
  groups: string[];
  userAgent: string;
  fieldManager: string;
  requestId: string;
}

export interface ItemMeta {
  name: string;
  namespace?: string;
  resourceVersion: string;
  creationTimestamp: string;
}

/** metav1.Time has second precision; the exact time is in the item's own fields. */
export const timestamp = (iso: string) => `${iso.slice(0, 19)}Z`;

/** Who made a write: as recorded, or (mirror mode) as the audit webhook told it, with the request's field manager and id. */
export function actorAsKnown(recorded: Actor, audited?: JoinedActor) {
  if (!audited) return recorded;
  return {
    user: audited.user,
    groups: audited.groups,
    userAgent: audited.userAgent,
    fieldManager: recorded.fieldManager,
    requestId: recorded.requestId,
    sourceIPs: audited.sourceIPs,
    auditID: audited.auditID,
    identifiedAt: audited.identifiedAt,
  };
}

export interface ServiceChange {
  kind: 'ServiceChange';
  apiVersion: string;
  metadata: ItemMeta;
  service: ServiceRef;
  time: string;
  verb: string;
  subresource?: string;
  actor: Actor;
  /** Mirror mode: where the recorded write came from. */
  source?: WriteSource;
  events: { type: string; data: unknown }[];
  /** RFC 6902 patch from the previous object (null before a create) to the new one (null after a delete). */
  patch: JsonPatch;
}

/** Everything of a ServiceChange before its events and patch, in the order the API sends it. */
function changeHead(
  write: { namespace: string; name: string; uid: string; resourceVersion: number },
  m: { recordedAt: string; verb: string; subresource: string },
  actor: ServiceChange['actor'],
): Omit<ServiceChange, 'events' | 'patch'> {
  return {
    kind: 'ServiceChange',
    apiVersion: HISTORY_API_VERSION,
    metadata: { name: `${write.name}.${write.resourceVersion}`, namespace: write.namespace, resourceVersion: String(write.resourceVersion), creationTimestamp: timestamp(m.recordedAt) },
    service: { namespace: write.namespace, name: write.name, uid: write.uid },
    time: m.recordedAt,
    verb: m.verb,
    ...(m.subresource ? { subresource: m.subresource } : {}),
    actor,
  };
}

export function serviceChange(write: RecordedWrite, source?: WriteSource): ServiceChange {
  const m = write.events[write.events.length - 1].metadata;
  return {
    ...changeHead(write, m, { user: m.user, groups: m.groups, userAgent: m.userAgent, fieldManager: m.fieldManager, requestId: m.requestId }),
    ...(source ? { source } : {}),
    events: write.events.map((e) => ({ type: e.event.type, data: e.event.data })),
    patch: jsonPatchBetween(write.previous, write.object),
  };
}

/**
 * The JSON text of `serviceChange` for a write as stored, byte for byte, without parsing what is
 * stored as JSON already (each event's data, the actor's groups, the patch): they are spliced in
 * as they are, in `changeHead`'s key order.
 */
/** Where a mirrored write came from (mirror mode): the source's resourceVersion, when it was observed, how it was found. */
export interface WriteSource {
  resourceVersion: string;
  observedAt: string;
  via: string;
}

export function serviceChangeJson(write: StoredWrite, source?: WriteSource, audited?: JoinedActor): string {
  const m = write.events[write.events.length - 1];
  const q = JSON.stringify;
  const rv = write.resourceVersion;
  const events = write.events.map((e) => `{"type":${q(e.type)},"data":${e.data}}`).join(',');
  return (
    `{"kind":"ServiceChange","apiVersion":${q(HISTORY_API_VERSION)},"metadata":{"name":${q(`${write.name}.${rv}`)},"namespace":${q(write.namespace)},` +
    `"resourceVersion":"${rv}","creationTimestamp":${q(timestamp(m.recordedAt))}},"service":{"namespace":${q(write.namespace)},"name":${q(write.name)},"uid":${q(write.uid)}},` +
    `"time":${q(m.recordedAt)},"verb":${q(m.verb)},${m.subresource ? `"subresource":${q(m.subresource)},` : ''}` +
    (audited
      ? `"actor":{"user":${q(audited.user)},"groups":${q(audited.groups)},"userAgent":${q(audited.userAgent)},"fieldManager":${q(m.fieldManager)},"requestId":${q(m.requestId)},` +
        `"sourceIPs":${q(audited.sourceIPs)},"auditID":${q(audited.auditID)},"identifiedAt":${q(audited.identifiedAt)}},`
      : `"actor":{"user":${q(m.actorUser)},"groups":${m.actorGroups},"userAgent":${q(m.userAgent)},"fieldManager":${q(m.fieldManager)},"requestId":${q(m.requestId)}},`) +
    (source ? `"source":${q({ resourceVersion: source.resourceVersion, observedAt: source.observedAt, via: source.via })},` : '') +
    `"events":[${events}],"patch":${write.patchJson}}`
  );
}

export function conditionTransition(row: TransitionRow, source?: WriteSource, audited?: JoinedActor) {
  return {
    kind: 'ConditionTransition' as const,
    apiVersion: HISTORY_API_VERSION,
    metadata: { name: `${row.name}.${row.id}`, namespace: row.namespace, resourceVersion: String(row.resourceVersion), creationTimestamp: timestamp(row.recordedAt) },
    service: { namespace: row.namespace, name: row.name, uid: row.uid },
    conditionType: row.conditionType,
    /** null: the condition was not set before (or is removed after). */
    fromStatus: row.fromStatus,
    toStatus: row.toStatus,
    reason: row.reason,
    message: row.message,
    observedGeneration: row.observedGeneration,
    lastTransitionTime: row.lastTransitionTime,
    time: row.recordedAt,
    actor: actorAsKnown({ user: row.actorUser, groups: JSON.parse(row.actorGroups) as string[], userAgent: row.userAgent, fieldManager: row.fieldManager, requestId: row.requestId }, audited),
    ...(source ? { source } : {}),
  };
}

export interface SummaryInput {
  service: ServiceRef;
  createdAt: string | null;
  deletedAt: string | null;
  window: { start: string; end: string };
  snapshot: number;
  conditions: ConditionStatusSummary[];
}

export function conditionSummary(s: SummaryInput) {
  return {
    kind: 'ConditionSummary' as const,
    apiVersion: HISTORY_API_VERSION,
    metadata: { name: `${s.service.name}.${s.service.uid}`, namespace: s.service.namespace, resourceVersion: String(s.snapshot), creationTimestamp: timestamp(s.createdAt ?? s.window.start) },
    service: s.service,
    ...(s.deletedAt ? { deletedAt: s.deletedAt } : {}),
    window: s.window,
    conditions: s.conditions,
  };
}

/** A mirrored write that set or cleared an address: where it came from, and who made it as far as known. */
export interface MirroredEnd {
  source: WriteSource;
  /** The audit event's user once known, else the field manager the write changed (a hint); absent: neither. */
  by?: { name: string; kind: 'audit' | 'fieldManager' };
}

/** The mirrored writes among a page's items (mirror mode), by resourceVersion. */
export type MirroredEndOf = (resourceVersion: number) => MirroredEnd | undefined;
const noMirroredEnds: MirroredEndOf = () => undefined;

/**
 * Who opened and who closed an interval; `to` is null while it is open (as of the snapshot). A
 * mirrored write names who made it as far as known, and says how it is known (`setByKind`,
 * `clearedByKind`): a direct write's user is the authenticated one, and says nothing more.
 */
function span(row: IntervalRow, snapshot: number, endOf: MirroredEndOf) {
  const open = row.toResourceVersion === null || row.toResourceVersion > snapshot;
  const from = endOf(row.fromResourceVersion);
  const to = open ? undefined : endOf(row.toResourceVersion!);
  return {
    address: row.address,
    addressType: row.addressType,
    service: { namespace: row.namespace, name: row.name, uid: row.uid },
    from: {
      resourceVersion: String(row.fromResourceVersion),
      time: row.fromTime,
      setBy: from?.by?.name ?? row.setBy,
      ...(from?.by ? { setByKind: from.by.kind } : {}),
      ...(from ? { source: from.source } : {}),
    },
    to: open
      ? null
      : {
          resourceVersion: String(row.toResourceVersion),
          time: row.toTime!,
          clearedBy: to?.by?.name ?? row.clearedBy!,
          ...(to?.by ? { clearedByKind: to.by.kind } : {}),
          ...(to ? { source: to.source } : {}),
        },
  };
}

export function ingressInterval(row: IntervalRow, snapshot: number, endOf: MirroredEndOf = noMirroredEnds) {
  return {
    kind: 'IngressInterval' as const,
    apiVersion: HISTORY_API_VERSION,
    metadata: { name: `${row.name}.${row.id}`, namespace: row.namespace, resourceVersion: String(row.fromResourceVersion), creationTimestamp: timestamp(row.fromTime) },
    ...span(row, snapshot, endOf),
  };
}

export function ingressOwner(row: IntervalRow, snapshot: number, endOf: MirroredEndOf = noMirroredEnds) {
  return {
    kind: 'IngressOwner' as const,
    apiVersion: HISTORY_API_VERSION,
    metadata: { name: `${row.address}.${row.id}`, resourceVersion: String(row.fromResourceVersion), creationTimestamp: timestamp(row.fromTime) },
    ...span(row, snapshot, endOf),
  };
}

/** Two Services holding one address at once, from the later assignment until either let go. */
export function ingressConflict(row: ConflictRow, snapshot: number, endOf: MirroredEndOf = noMirroredEnds) {
  const first = span(row.first, snapshot, endOf);
  const second = span(row.second, snapshot, endOf);
  const ends = [first.to, second.to].filter((e): e is NonNullable<typeof e> => e !== null);
  const end = ends.sort((a, b) => Number(a.resourceVersion) - Number(b.resourceVersion))[0];
  return {
    kind: 'IngressConflict' as const,
    apiVersion: HISTORY_API_VERSION,
    metadata: {
      name: `${row.second.address}.${row.first.id}.${row.second.id}`,
      namespace: row.second.namespace,
      resourceVersion: String(row.second.fromResourceVersion),
      creationTimestamp: timestamp(row.second.fromTime),
    },
    address: row.second.address,
    addressType: row.second.addressType,
    from: { resourceVersion: second.from.resourceVersion, time: second.from.time },
    to: end ? { resourceVersion: end.resourceVersion, time: end.time } : null,
    holders: [first, second].map(({ service, from, to }) => ({ service, from, to })),
  };
}
