// Decoding an events.k8s.io/v1 Event request body (JSON, YAML as JSON, or protobuf) with the
// generic object decoder. A core/v1 Event (or an events.k8s.io/v1beta1 one) converts into the
// same internal type, so on this endpoint it is the group-version mismatch of create.go.
import type { EventsV1Event } from '../kube-event/events-v1-event.types';
import { eventsV1EventSchema } from './events-v1-event-schema';
import { decodeObjectProtobuf, decodeObjectText, decodeObjectValue, type DecodedKind, type DecodeOptions, type DecodeResult } from './object-decoder';

export const EVENTS_V1_EVENT_KIND: DecodedKind = {
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  schema: eventsV1EventSchema,
  internalGoType: 'core.Event',
  convertible: [
    { group: '', version: 'v1' },
    { group: 'events.k8s.io', version: 'v1beta1' },
  ],
};

export const decodeEventsV1EventText = (text: string, opts: DecodeOptions): DecodeResult<EventsV1Event> => decodeObjectText<EventsV1Event>(EVENTS_V1_EVENT_KIND, text, opts);
export const decodeEventsV1EventProtobuf = (body: Buffer, opts: DecodeOptions): DecodeResult<EventsV1Event> => decodeObjectProtobuf<EventsV1Event>(EVENTS_V1_EVENT_KIND, body, opts);
export const decodeEventsV1EventValue = (value: unknown, opts: DecodeOptions): DecodeResult<EventsV1Event> => decodeObjectValue<EventsV1Event>(EVENTS_V1_EVENT_KIND, value, opts);
