// The history.svctrail.io/v1alpha1 API group: its resources, described once for the routes and
// for discovery. Every resource is read-only (list; the feed is a streamed get).
export const HISTORY_GROUP = 'history.svctrail.io';
export const HISTORY_VERSION = 'v1alpha1';
export const HISTORY_API_VERSION = `${HISTORY_GROUP}/${HISTORY_VERSION}`;

export interface HistoryResource {
  name: string;
  singularName: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

export const HISTORY_RESOURCES: readonly HistoryResource[] = [
  { name: 'changes', singularName: 'change', kind: 'ServiceChange', namespaced: true, verbs: ['list'] },
  { name: 'conditiontransitions', singularName: 'conditiontransition', kind: 'ConditionTransition', namespaced: true, verbs: ['list'] },
  { name: 'conditionsummaries', singularName: 'conditionsummary', kind: 'ConditionSummary', namespaced: true, verbs: ['list'] },
  { name: 'ingressintervals', singularName: 'ingressinterval', kind: 'IngressInterval', namespaced: true, verbs: ['list'] },
  { name: 'ingressconflicts', singularName: 'ingressconflict', kind: 'IngressConflict', namespaced: true, verbs: ['list'] },
  { name: 'ingressowners', singularName: 'ingressowner', kind: 'IngressOwner', namespaced: false, verbs: ['list'] },
  { name: 'fieldownerships', singularName: 'fieldownership', kind: 'FieldOwnership', namespaced: true, verbs: ['list'] },
  { name: 'activitybuckets', singularName: 'activitybucket', kind: 'ActivityBucket', namespaced: true, verbs: ['list'] },
  { name: 'transitionrankings', singularName: 'transitionranking', kind: 'TransitionRanking', namespaced: true, verbs: ['list'] },
  { name: 'events', singularName: 'event', kind: 'EventOccurrence', namespaced: true, verbs: ['list'] },
  { name: 'compactions', singularName: 'compaction', kind: 'Compaction', namespaced: false, verbs: ['list'] },
  { name: 'feed', singularName: 'feed', kind: 'ServiceChange', namespaced: false, verbs: ['get'] },
];

/** GET /apis/history.svctrail.io/v1alpha1 */
export function historyResourceList() {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: HISTORY_API_VERSION,
    resources: HISTORY_RESOURCES.map((r) => ({ name: r.name, singularName: r.singularName, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs, categories: ['history'] })),
  };
}

/** The group as /apis and /apis/history.svctrail.io describe it. */
export function historyApiGroup() {
  const version = { groupVersion: HISTORY_API_VERSION, version: HISTORY_VERSION };
  return { name: HISTORY_GROUP, versions: [version], preferredVersion: version };
}

/** The group's entry in aggregated discovery (apidiscovery.k8s.io APIGroupDiscovery). */
export function historyAggregatedGroup() {
  return {
    metadata: { name: HISTORY_GROUP, creationTimestamp: null },
    versions: [
      {
        version: HISTORY_VERSION,
        resources: HISTORY_RESOURCES.map((r) => ({
          resource: r.name,
          responseKind: { group: HISTORY_GROUP, version: HISTORY_VERSION, kind: r.kind },
          scope: r.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: r.singularName,
          verbs: r.verbs,
          categories: ['history'],
        })),
        freshness: 'Current',
      },
    ],
  };
}
