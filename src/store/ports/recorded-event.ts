// An event as stored: the domain event plus its place in the log and who caused it.
import type { ServiceEvent } from '../../domain/service.events';

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

export interface RecordedEvent extends LogPlace {
  event: ServiceEvent;
  metadata: WriteMetadata;
}

/**
 * The events of one write as the log numbers them, from `firstPosition` on: consecutive
 * positions, all sharing the resourceVersion of the last, stream versions following the
 * expected one. Every engine numbers a write this way.
 */
export function numberedEvents(
  write: { streamId: string; namespace: string; name: string; expectedVersion: number; events: readonly ServiceEvent[]; metadata: WriteMetadata },
  firstPosition: number,
): RecordedEvent[] {
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
