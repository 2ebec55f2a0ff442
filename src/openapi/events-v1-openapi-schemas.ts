// components.schemas of kube-apiserver's /openapi/v3/apis/events.k8s.io/v1 that are not also
// Service's: the events.k8s.io/v1 Event, its list and series, the core/v1 ObjectReference and
// EventSource it embeds, and meta/v1 MicroTime. Text, defaults and x-kubernetes-* markers are
// upstream's (api/openapi-spec/v3/apis__events.k8s.io__v1_openapi.json); the meta/v1 schemas
// both documents share come from service-openapi-schemas.ts.
import type { OpenApiObject } from './openapi-value';
import { SCHEMA_REF_PREFIX } from './service-openapi-schemas';

const CORE = 'io.k8s.api.core.v1.';
const EVENTS = 'io.k8s.api.events.v1.';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

function ref(name: string): OpenApiObject {
  return { allOf: [{ $ref: SCHEMA_REF_PREFIX + name }] };
}

const API_VERSION = {
  description:
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  type: 'string',
};

const KIND = {
  description:
    'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  type: 'string',
};

const DEPRECATED = 'the deprecated field assuring backward compatibility with core.v1 Event type.';

function gvk(kind: string) {
  return [{ group: 'events.k8s.io', kind, version: 'v1' }];
}

export const EVENTS_V1_SCHEMAS: Record<string, OpenApiObject> = {
  [CORE + 'EventSource']: {
    description: 'EventSource contains information for an event.',
    properties: {
      component: { description: 'Component from which the event is generated.', type: 'string' },
      host: { description: 'Node name on which the event is generated.', type: 'string' },
    },
    type: 'object',
  },
  [CORE + 'ObjectReference']: {
    description: 'ObjectReference contains enough information to let you inspect or modify the referred object.',
    properties: {
      apiVersion: { description: 'API version of the referent.', type: 'string' },
      fieldPath: {
        description:
          'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
        type: 'string',
      },
      kind: { description: 'Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds', type: 'string' },
      name: { description: 'Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names', type: 'string' },
      namespace: { description: 'Namespace of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/', type: 'string' },
      resourceVersion: {
        description:
          'Specific resourceVersion to which this reference is made, if any. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency',
        type: 'string',
      },
      uid: { description: 'UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids', type: 'string' },
    },
    type: 'object',
    'x-kubernetes-map-type': 'atomic',
  },
  [EVENTS + 'Event']: {
    description:
      'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.',
    properties: {
      action: {
        description:
          'action is what action was taken/failed regarding to the regarding object. It is machine-readable. This field cannot be empty for new Events and it can have at most 128 characters.',
        type: 'string',
      },
      apiVersion: API_VERSION,
      deprecatedCount: { description: `deprecatedCount is ${DEPRECATED}`, format: 'int32', type: 'integer' },
      deprecatedFirstTimestamp: { ...ref(META + 'Time'), default: {}, description: `deprecatedFirstTimestamp is ${DEPRECATED}` },
      deprecatedLastTimestamp: { ...ref(META + 'Time'), default: {}, description: `deprecatedLastTimestamp is ${DEPRECATED}` },
      deprecatedSource: { ...ref(CORE + 'EventSource'), default: {}, description: `deprecatedSource is ${DEPRECATED}` },
      eventTime: { ...ref(META + 'MicroTime'), default: {}, description: 'eventTime is the time when this Event was first observed. It is required.' },
      kind: KIND,
      metadata: {
        ...ref(META + 'ObjectMeta'),
        default: {},
        description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
      },
      note: {
        description: 'note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.',
        type: 'string',
      },
      reason: {
        description: 'reason is why the action was taken. It is human-readable. This field cannot be empty for new Events and it can have at most 128 characters.',
        type: 'string',
      },
      regarding: {
        ...ref(CORE + 'ObjectReference'),
        default: {},
        description:
          "regarding contains the object this Event is about. In most cases it's an Object reporting controller implements, e.g. ReplicaSetController implements ReplicaSets and this event is emitted because it acts on some changes in a ReplicaSet object.",
      },
      related: {
        ...ref(CORE + 'ObjectReference'),
        description: 'related is the optional secondary object for more complex actions. E.g. when regarding object triggers a creation or deletion of related object.',
      },
      reportingController: {
        description: 'reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. This field cannot be empty for new Events.',
        type: 'string',
      },
      reportingInstance: {
        description: 'reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`. This field cannot be empty for new Events and it can have at most 128 characters.',
        type: 'string',
      },
      series: { ...ref(EVENTS + 'EventSeries'), description: "series is data about the Event series this event represents or nil if it's a singleton Event." },
      type: {
        description: 'type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.',
        type: 'string',
      },
    },
    required: ['eventTime'],
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('Event'),
  },
  [EVENTS + 'EventList']: {
    description: 'EventList is a list of Event objects.',
    properties: {
      apiVersion: API_VERSION,
      items: { description: 'items is a list of schema objects.', items: { ...ref(EVENTS + 'Event'), default: {} }, type: 'array' },
      kind: KIND,
      metadata: {
        ...ref(META + 'ListMeta'),
        default: {},
        description: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
      },
    },
    required: ['items'],
    type: 'object',
    'x-kubernetes-group-version-kind': gvk('EventList'),
  },
  [EVENTS + 'EventSeries']: {
    description:
      'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. How often to update the EventSeries is up to the event reporters. The default event reporter in "k8s.io/client-go/tools/events/event_broadcaster.go" shows how this struct is updated on heartbeats and can guide customized reporter implementations.',
    properties: {
      count: { default: 0, description: 'count is the number of occurrences in this series up to the last heartbeat time.', format: 'int32', type: 'integer' },
      lastObservedTime: { ...ref(META + 'MicroTime'), default: {}, description: 'lastObservedTime is the time when last Event from the series was seen before last heartbeat.' },
    },
    required: ['count', 'lastObservedTime'],
    type: 'object',
  },
  [META + 'MicroTime']: {
    description: 'MicroTime is version of Time with microsecond level precision.',
    format: 'date-time',
    type: 'string',
  },
};
