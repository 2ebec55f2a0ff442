// The canonical JSON form of an events.k8s.io/v1 Event, as kube-apiserver writes it: `kind`,
// `apiVersion`, then the Event's fields in Go struct order with Go's omitempty (see
// service-encoder.ts).
import { EVENTS_V1, type EventsV1Event } from '../kube-event/events-v1-event.types';
import { eventsV1EventSchema } from './events-v1-event-schema';
import { encodeStruct } from './schema-encoder';

export function encodeEventsV1Event(event: EventsV1Event): EventsV1Event {
  return encodeStruct(eventsV1EventSchema, { ...event, kind: 'Event', apiVersion: EVENTS_V1 }) as unknown as EventsV1Event;
}
