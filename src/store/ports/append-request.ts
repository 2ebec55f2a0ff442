// One write's events as an engine's log appends them, after the stream version they follow.
import type { LogEvent, WriteMetadata } from './recorded-event';

export interface AppendRequest<E extends LogEvent> {
  streamId: string;
  namespace: string;
  name: string;
  expectedVersion: number;
  events: readonly E[];
  metadata: WriteMetadata;
}
