// One write's events as an engine's log appends them, after the stream version they follow.
import type { ServiceEvent } from '../../domain/service.events';
import type { WriteMetadata } from './recorded-event';

export interface AppendRequest {
  streamId: string;
  namespace: string;
  name: string;
  expectedVersion: number;
  events: readonly ServiceEvent[];
  metadata: WriteMetadata;
}
