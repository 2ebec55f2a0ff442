// An event as stored: the domain event plus its place in the log and who caused it.
import type { ServiceEvent } from '../domain/service.events';

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

export interface RecordedEvent {
  position: number;
  resourceVersion: number;
  streamId: string;
  streamVersion: number;
  namespace: string;
  name: string;
  event: ServiceEvent;
  metadata: WriteMetadata;
}
