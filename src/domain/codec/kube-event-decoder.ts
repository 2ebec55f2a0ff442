// Decoding a core/v1 Event request body (JSON, YAML as JSON, or protobuf: the cloud service
// controller sends protobuf by default) with the generic object decoder. An events.k8s.io/v1
// Event converts into the same internal type, so on this endpoint it is the group-version
// mismatch of create.go, not an unknown conversion.
import type { KubeEvent } from '../kube-event/kube-event.types';
import { eventSchema } from './event-schema';
import { decodeObjectProtobuf, decodeObjectText, decodeObjectValue, type DecodedKind, type DecodeOptions, type DecodeResult } from './object-decoder';

export const CORE_EVENT_KIND: DecodedKind = {
  group: '',
  version: 'v1',
  kind: 'Event',
  schema: eventSchema,
  internalGoType: 'core.Event',
  convertible: [
    { group: 'events.k8s.io', version: 'v1' },
    { group: 'events.k8s.io', version: 'v1beta1' },
  ],
};

export const decodeKubeEventText = (text: string, opts: DecodeOptions): DecodeResult<KubeEvent> => decodeObjectText<KubeEvent>(CORE_EVENT_KIND, text, opts);
export const decodeKubeEventProtobuf = (body: Buffer, opts: DecodeOptions): DecodeResult<KubeEvent> => decodeObjectProtobuf<KubeEvent>(CORE_EVENT_KIND, body, opts);
export const decodeKubeEventValue = (value: unknown, opts: DecodeOptions): DecodeResult<KubeEvent> => decodeObjectValue<KubeEvent>(CORE_EVENT_KIND, value, opts);
