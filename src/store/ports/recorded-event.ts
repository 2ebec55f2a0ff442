// An event as stored: the domain event plus its place in the log and who caused it. The log holds
// two kinds of stream, Services and Events, sharing one sequence of positions (resourceVersions).
import { isKubeEventFact, type KubeEventFact } from '../../domain/kube-event/kube-event.facts';
import type { ServiceEvent } from '../../domain/service.events';

/** Any event the log holds: a Service's or an Event's (told apart by isKubeEventFact). */
export type LogEvent = ServiceEvent | KubeEventFact;

/** Who wrote and how: recorded with every event (the audit trail needs no separate pipeline). */
export interface WriteMetadata {
  user: string;
  groups: string[];
  userAgent: string;
  fieldManager: string;
  requestId: string;
  /** create | update | patch | delete */
  verb: string;
  /** '' for the main resource, 'status' for the status subresource */
  subresource: string;
  /** Server time of the write, RFC 3339 with milliseconds. */
  recordedAt: string;
}

/** Where an event sits in the log: its position, its write's resourceVersion, its stream and Service. */
export interface LogPlace {
  position: number;
  resourceVersion: number;
  streamId: string;
  streamVersion: number;
  namespace: string;
  name: string;
}

/** A recorded event of a Service stream by default; `RecordedEvent<LogEvent>` is a log row of either kind. */
export interface RecordedEvent<E extends LogEvent = ServiceEvent> extends LogPlace {
  event: E;
  metadata: WriteMetadata;
}

/** A row of the log, of either kind of stream. */
export type LoggedEvent = RecordedEvent<LogEvent>;

/**
 * The events of one write as the log numbers them, from `firstPosition` on: consecutive
 * positions, all sharing the resourceVersion of the last, stream versions following the
 * expected one. Every engine numbers a write this way.
 */
export function numberedEvents<E extends LogEvent>(
  write: { streamId: string; namespace: string; name: string; expectedVersion: number; events: readonly E[]; metadata: WriteMetadata },
  firstPosition: number,
): RecordedEvent<E>[] {
  const resourceVersion = firstPosition + write.events.length - 1;
  return write.events.map((event, i) => ({
    position: firstPosition + i,
    resourceVersion,
    streamId: write.streamId,
    streamVersion: write.expectedVersion + i + 1,
    namespace: write.namespace,
    name: write.name,
    event,
    metadata: write.metadata,
  }));
}

/** A log row of an Event stream (the rest are Services'). */
export function isEventRecord(recorded: LoggedEvent): recorded is RecordedEvent<KubeEventFact> {
  return isKubeEventFact(recorded.event);
}

/** A log row of a Service stream. */
export function isServiceRecord(recorded: LoggedEvent): recorded is RecordedEvent {
  return !isKubeEventFact(recorded.event);
}
