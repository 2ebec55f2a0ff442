// An EventOccurrence: one write of a core/v1 Event (what a controller said about an object, and
// each time it said it again) as the Events history and the change feed serve it, built from the
// write's one fact — its log row, or the committed write as the feed hears of it live.
import type { KubeEventFact } from '../domain/kube-event/kube-event.facts';
import type { ObjectReference } from '../domain/kube-event/kube-event.types';
import type { JoinedActor } from '../store/ports/audit-actor-store';
import type { CommittedEventWrite } from '../store/ports/committed-event-write';
import type { EventRow } from '../store/ports/event-row';
import { HISTORY_API_VERSION } from './history-api';
import { type Actor, actorAsKnown, type ItemMeta, timestamp, type WriteSource } from './history-items';
import { normalizedEventFields } from './normalized-event-fields';

/**
 * What the write did to the Event. An update is how both recorders report a repeat (the legacy
 * one PATCHes count and lastTimestamp, the events.k8s.io one its series), so it reads "repeated".
 */
export type Happened = 'created' | 'repeated' | 'deleted' | 'expired';

const HAPPENED: Record<KubeEventFact['type'], Happened> = {
  KubeEventCreated: 'created',
  KubeEventUpdated: 'repeated',
  KubeEventDeleted: 'deleted',
  KubeEventExpired: 'expired',
};

export interface EventOccurrence {
  kind: 'EventOccurrence';
  apiVersion: string;
  metadata: ItemMeta;
  /** When svctrail recorded the write. */
  time: string;
  happened: Happened;
  /** create, update, patch or delete (an expiry is recorded as kube-apiserver's delete). */
  verb: string;
  event: { namespace: string; name: string; uid: string };
  involvedObject: ObjectReference;
  /** Normal or Warning (core/v1 does not check it: whatever the client sent). */
  type: string;
  reason: string;
  message: string;
  count: number;
  firstSeen: string | null;
  lastSeen: string | null;
  reportingController: string;
  reportingInstance: string;
  action: string;
  related?: ObjectReference;
  /** When the Event leaves the live API unless written again (--event-ttl); absent on an ending. */
  expiresAt?: string;
  actor: Actor | ReturnType<typeof actorAsKnown>;
  /** Mirror mode: where the recorded write came from. */
  source?: WriteSource;
}

/** One Event write, whichever way it was read. */
export interface EventWrite {
  resourceVersion: number;
  /** The Event's uid (its stream). */
  uid: string;
  fact: KubeEventFact;
  verb: string;
  recordedAt: string;
  actor: Actor;
}

export function eventWriteOfRow(row: EventRow): EventWrite {
  return {
    resourceVersion: row.resourceVersion,
    uid: row.streamId,
    fact: { type: row.type, data: JSON.parse(row.data) } as KubeEventFact,
    verb: row.verb,
    recordedAt: row.recordedAt,
    actor: { user: row.actorUser, groups: JSON.parse(row.actorGroups) as string[], userAgent: row.userAgent, fieldManager: row.fieldManager, requestId: row.requestId },
  };
}

export function eventWriteOfCommit(write: CommittedEventWrite): EventWrite {
  const m = write.metadata;
  return {
    resourceVersion: write.resourceVersion,
    uid: write.streamId,
    fact: write.events[0].event,
    verb: m.verb,
    recordedAt: m.recordedAt,
    actor: { user: m.user, groups: m.groups, userAgent: m.userAgent, fieldManager: m.fieldManager, requestId: m.requestId },
  };
}

export function eventOccurrence(write: EventWrite, source?: WriteSource, audited?: JoinedActor): EventOccurrence {
  const event = write.fact.data.object;
  const namespace = event.metadata.namespace ?? '';
  const name = event.metadata.name ?? '';
  const expiresAt = 'expiresAt' in write.fact.data ? write.fact.data.expiresAt : undefined;
  return {
    kind: 'EventOccurrence',
    apiVersion: HISTORY_API_VERSION,
    metadata: { name: `${name}.${write.resourceVersion}`, namespace, resourceVersion: String(write.resourceVersion), creationTimestamp: timestamp(write.recordedAt) },
    time: write.recordedAt,
    happened: HAPPENED[write.fact.type],
    verb: write.verb,
    event: { namespace, name, uid: write.uid },
    involvedObject: event.involvedObject ?? {},
    type: event.type ?? '',
    reason: event.reason ?? '',
    message: event.message ?? '',
    ...normalizedEventFields(event),
    action: event.action ?? '',
    ...(event.related ? { related: event.related } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    actor: actorAsKnown(write.actor, audited),
    ...(source ? { source } : {}),
  };
}
