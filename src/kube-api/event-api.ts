// The two APIs that serve the one Event store, as kube-apiserver installs the same REST storage
// under core/v1 and events.k8s.io/v1 (pkg/registry/events/rest/storage_events.go): what differs
// is how a request body is read (each version's decoder, then conversion to the stored core/v1
// form) and how an Event is answered (converted to the version asked). Commands, reads,
// validation (by `version`) and the Table printer are shared.
import type { FastifyRequest } from 'fastify';
import { decodeEventsV1EventProtobuf, decodeEventsV1EventText } from '../domain/codec/events-v1-event-decoder';
import type { DecodeResult, FieldValidation } from '../domain/codec/object-decoder';
import type { ProtobufKind } from '../domain/codec/protobuf/kube-object-protobuf';
import { coreFromEventsV1, eventsV1FromCore } from '../domain/kube-event/events-v1-conversion';
import { EVENTS_GROUP, EVENTS_V1 } from '../domain/kube-event/events-v1-event.types';
import type { EventApiVersion, KubeEvent } from '../domain/kube-event/kube-event.types';
import { decodeKubeEventRequest } from './kube-event-body';
import { assertObjectMediaType } from './service-body';

export interface EventApi {
  readonly version: EventApiVersion;
  /** The API group ('' for core), as Status details name it. */
  readonly group: string;
  readonly groupVersion: string;
  /** Protobuf kinds of an Event and an EventList in this version. */
  readonly objectKind: ProtobufKind;
  readonly listKind: ProtobufKind;
  /** A create or update body, converted to the stored core/v1 form. */
  decodeBody(request: FastifyRequest, fieldValidation: FieldValidation): DecodeResult<KubeEvent>;
  /** A stored Event as this version answers it (kind and apiVersion set). */
  served(event: KubeEvent): object;
}

export const CORE_V1_EVENT_API: EventApi = {
  version: 'v1',
  group: '',
  groupVersion: 'v1',
  objectKind: 'Event',
  listKind: 'EventList',
  decodeBody: decodeKubeEventRequest,
  // Stored Events are core/v1 already; list items lack only their kind and apiVersion.
  served: (event) => (event.kind && event.apiVersion ? event : { kind: 'Event', apiVersion: 'v1', ...event }),
};

export const EVENTS_V1_EVENT_API: EventApi = {
  version: EVENTS_V1,
  group: EVENTS_GROUP,
  groupVersion: EVENTS_V1,
  objectKind: 'EventsV1Event',
  listKind: 'EventsV1EventList',
  decodeBody: (request, fieldValidation) => {
    assertObjectMediaType(request);
    const body = request.body;
    const opts = { fieldValidation };
    const decoded = Buffer.isBuffer(body)
      ? decodeEventsV1EventProtobuf(body, opts)
      : decodeEventsV1EventText(typeof body === 'string' ? body : body === undefined || body === null ? '' : JSON.stringify(body), opts);
    return { object: coreFromEventsV1(decoded.object), warnings: decoded.warnings };
  },
  served: eventsV1FromCore,
};

/** A list item: the served Event without kind and apiVersion, as in every kube-apiserver list. */
export function listItemOf(api: EventApi, event: KubeEvent): object {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = api.served(event) as { kind?: string; apiVersion?: string };
  return rest;
}
