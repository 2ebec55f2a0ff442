// The events.k8s.io group as discovery describes it (legacy /apis, /apis/events.k8s.io,
// /apis/events.k8s.io/v1, and aggregated discovery): one version, v1 (v1beta1 is no longer
// served since 1.25), with the one resource, `events`, the verbs and short name of core/v1's.
import { EVENTS_GROUP, EVENTS_V1 } from '../domain/kube-event/events-v1-event.types';

const VERSION = 'v1';
const EVENTS = {
  name: 'events',
  singularName: 'event',
  kind: 'Event',
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: ['ev'],
};

/** The APIGroup as /apis lists it and /apis/events.k8s.io answers it. */
export function eventsApiGroup() {
  const version = { groupVersion: EVENTS_V1, version: VERSION };
  return { name: EVENTS_GROUP, versions: [version], preferredVersion: version };
}

/** GET /apis/events.k8s.io/v1 */
export function eventsResourceList() {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: EVENTS_V1,
    resources: [{ name: EVENTS.name, singularName: EVENTS.singularName, namespaced: true, kind: EVENTS.kind, verbs: EVENTS.verbs, shortNames: EVENTS.shortNames }],
  };
}

/** The group's entry in aggregated discovery (apidiscovery.k8s.io APIGroupDiscovery). */
export function eventsAggregatedGroup() {
  return {
    metadata: { name: EVENTS_GROUP, creationTimestamp: null },
    versions: [
      {
        version: VERSION,
        resources: [
          {
            resource: EVENTS.name,
            responseKind: { group: EVENTS_GROUP, version: VERSION, kind: EVENTS.kind },
            scope: 'Namespaced',
            singularResource: EVENTS.singularName,
            verbs: EVENTS.verbs,
            shortNames: EVENTS.shortNames,
          },
        ],
        freshness: 'Current',
      },
    ],
  };
}
