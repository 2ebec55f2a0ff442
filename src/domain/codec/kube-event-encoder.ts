// The canonical JSON form of a core/v1 Event, as kube-apiserver writes it: `kind`, `apiVersion`,
// then the Event's fields in Go struct order with Go's omitempty (see service-encoder.ts).
import type { KubeEvent } from '../kube-event/kube-event.types';
import { eventSchema } from './event-schema';
import { encodeStruct, type EncodeOptions } from './schema-encoder';

/** Fields svctrail does not know are dropped unless `keepUnknownFields` (a mirrored Event). */
export function encodeKubeEvent(event: KubeEvent, options?: EncodeOptions): KubeEvent {
  return encodeStruct(eventSchema, { ...event, kind: 'Event', apiVersion: 'v1' }, options) as unknown as KubeEvent;
}
