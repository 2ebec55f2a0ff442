// The `paths` of /openapi/v3/apis/events.k8s.io/v1 for the Event endpoints svctrail serves, shaped
// as kube-apiserver writes them. The PATCH operation tagged with the events.k8s.io/v1 Event GVK
// declares `fieldValidation`, so kubectl leaves field validation to the server.
import type { OpenApiObject } from './openapi-value';
import {
  DELETE_PARAMETERS,
  DRY_RUN,
  FIELD_MANAGER,
  FIELD_VALIDATION,
  LIST_MEDIA_TYPES,
  LIST_PARAMETERS,
  NAMESPACE,
  nameParameter,
  operation,
  type OperationTarget,
  patchOperation,
  PRETTY,
  readOperation,
  replaceOperation,
  requestBody,
  response,
} from './resource-operations';

const EVENT = 'io.k8s.api.events.v1.Event';
const EVENT_LIST = 'io.k8s.api.events.v1.EventList';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

const EVENT_TARGET: OperationTarget = { tag: 'events_v1', gvk: { group: 'events.k8s.io', kind: 'Event', version: 'v1' } };
const NAME = nameParameter('Event');
const ROOT = '/apis/events.k8s.io/v1';

const byName = (a: OpenApiObject, b: OpenApiObject) => String(a.name).localeCompare(String(b.name));
/** deletecollection takes the list options (not the watch ones) and the delete options, by name. */
const DELETE_COLLECTION_PARAMETERS = [...LIST_PARAMETERS.filter((p) => p.name !== 'watch' && p.name !== 'allowWatchBookmarks'), ...DELETE_PARAMETERS].sort(byName);

export const EVENTS_V1_PATHS: OpenApiObject = {
  [`${ROOT}/events`]: {
    get: operation(EVENT_TARGET, 'list', 'list or watch objects of kind Event', 'listEventsV1EventForAllNamespaces', {
      responses: { '200': response('OK', EVENT_LIST, LIST_MEDIA_TYPES) },
    }),
    // Upstream hangs the list options on the path when GET is its only operation.
    parameters: [...LIST_PARAMETERS.slice(0, 5), PRETTY, ...LIST_PARAMETERS.slice(5)],
  },
  [`${ROOT}/namespaces/{namespace}/events`]: {
    delete: operation(EVENT_TARGET, 'deletecollection', 'delete collection of Event', 'deleteEventsV1CollectionNamespacedEvent', {
      parameters: DELETE_COLLECTION_PARAMETERS,
      requestBody: requestBody(META + 'DeleteOptions', ['*/*'], false),
      responses: { '200': response('OK', META + 'Status') },
    }),
    get: operation(EVENT_TARGET, 'list', 'list or watch objects of kind Event', 'listEventsV1NamespacedEvent', {
      parameters: LIST_PARAMETERS,
      responses: { '200': response('OK', EVENT_LIST, LIST_MEDIA_TYPES) },
    }),
    parameters: [NAMESPACE, PRETTY],
    post: operation(EVENT_TARGET, 'post', 'create an Event', 'createEventsV1NamespacedEvent', {
      parameters: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
      requestBody: requestBody(EVENT, ['*/*'], true),
      responses: { '200': response('OK', EVENT), '201': response('Created', EVENT), '202': response('Accepted', EVENT) },
    }),
  },
  [`${ROOT}/namespaces/{namespace}/events/{name}`]: {
    // An Event's delete answers a Status (the store does not return the deleted object).
    delete: operation(EVENT_TARGET, 'delete', 'delete an Event', 'deleteEventsV1NamespacedEvent', {
      parameters: DELETE_PARAMETERS,
      requestBody: requestBody(META + 'DeleteOptions', ['*/*'], false),
      responses: { '200': response('OK', META + 'Status'), '202': response('Accepted', META + 'Status') },
    }),
    get: readOperation(EVENT_TARGET, EVENT, 'read the specified Event', 'readEventsV1NamespacedEvent'),
    parameters: [NAME, NAMESPACE, PRETTY],
    patch: patchOperation(EVENT_TARGET, EVENT, 'partially update the specified Event', 'patchEventsV1NamespacedEvent'),
    put: replaceOperation(EVENT_TARGET, EVENT, 'replace the specified Event', 'replaceEventsV1NamespacedEvent'),
  },
};
