// The resources svctrail serves, described once for legacy discovery (APIResourceList) and
// aggregated discovery (apidiscovery.k8s.io APIGroupDiscoveryList).
import { historyAggregatedGroup, historyApiGroup } from '../history/history-api';
import { eventsAggregatedGroup, eventsApiGroup } from './events-api-group';
import { REVIEW_GROUPS, reviewAggregatedGroup, reviewApiGroup } from './review-api';
export interface ServedResource {
  name: string;
  singularName: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources: { name: string; verbs: string[] }[];
}

export const SERVED_RESOURCES: readonly ServedResource[] = [
  {
    name: 'services',
    singularName: 'service',
    kind: 'Service',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['svc'],
    categories: ['all'],
    subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  },
  {
    name: 'events',
    singularName: 'event',
    kind: 'Event',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['ev'],
    subresources: [],
  },
];

/** GET /api/v1 */
export function legacyResourceList() {
  return {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: SERVED_RESOURCES.flatMap((r) => [
      {
        name: r.name,
        singularName: r.singularName,
        namespaced: true,
        kind: r.kind,
        verbs: r.verbs,
        ...(r.shortNames ? { shortNames: r.shortNames } : {}),
        ...(r.categories ? { categories: r.categories } : {}),
      },
      ...r.subresources.map((sub) => ({ name: `${r.name}/${sub.name}`, singularName: '', namespaced: true, kind: r.kind, verbs: sub.verbs })),
    ]),
  };
}

/** GET /api with an aggregated-discovery Accept (client-protocol.md §3.3). */
export function aggregatedCoreDiscovery(apiVersion: 'apidiscovery.k8s.io/v2' | 'apidiscovery.k8s.io/v2beta1') {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion,
    metadata: {},
    items: [
      {
        metadata: { creationTimestamp: null },
        versions: [
          {
            version: 'v1',
            resources: SERVED_RESOURCES.map((r) => ({
              resource: r.name,
              responseKind: { group: '', version: 'v1', kind: r.kind },
              scope: 'Namespaced',
              singularResource: r.singularName,
              verbs: r.verbs,
              ...(r.shortNames ? { shortNames: r.shortNames } : {}),
              ...(r.categories ? { categories: r.categories } : {}),
              ...(r.subresources.length ? { subresources: r.subresources.map((s) => ({ subresource: s.name, responseKind: { group: '', version: 'v1', kind: r.kind }, verbs: s.verbs })) } : {}),
            })),
            freshness: 'Current',
          },
        ],
      },
    ],
  };
}

/** GET /apis with an aggregated-discovery Accept: the named groups (events.k8s.io, the self reviews', history.svctrail.io). */
export function aggregatedGroupsDiscovery(apiVersion: 'apidiscovery.k8s.io/v2' | 'apidiscovery.k8s.io/v2beta1') {
  return { kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items: [eventsAggregatedGroup(), ...REVIEW_GROUPS.map(reviewAggregatedGroup), historyAggregatedGroup()] as unknown[] };
}

/**
 * GET /apis: the named groups in legacy discovery, built-in groups first as kube-apiserver orders
 * them (by group priority, DefaultGenericAPIServicePriorities: events.k8s.io 17750,
 * authentication.k8s.io 17700, authorization.k8s.io 17600).
 */
export function apiGroupList() {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [eventsApiGroup(), ...REVIEW_GROUPS.map(reviewApiGroup), historyApiGroup()] };
}

/**
 * Which aggregated discovery version the Accept header asks for, if any. kubectl 1.27 asks for
 * v2beta1 only; later versions list v2 first.
 */
export function aggregatedDiscoveryVersion(accept: string | undefined): 'v2' | 'v2beta1' | undefined {
  if (!accept) return undefined;
  const ranges = accept.split(',').map((r) => r.replace(/\s+/g, ''));
  for (const range of ranges) {
    if (!range.includes('g=apidiscovery.k8s.io') || !range.includes('as=APIGroupDiscoveryList')) continue;
    if (range.includes('v=v2beta1')) return 'v2beta1';
    if (/(^|;)v=v2(;|$)/.test(range)) return 'v2';
  }
  return undefined;
}

/** What aggregated discovery says of a resource: enough to know how it may be addressed. */
interface DiscoveredGroup {
  metadata: { name?: string };
  versions: { version: string; resources: { resource: string; scope: string; verbs: string[] }[] }[];
}

let watchable: Map<string, 'Namespaced' | 'Cluster'> | undefined;

/**
 * The scope of a resource that can be watched ('watch' among its verbs in discovery), by group,
 * version and resource; undefined for anything else. Read from the discovery documents, so a
 * resource is watchable exactly as clients are told it is.
 */
export function watchableScope(group: string, version: string, resource: string): 'Namespaced' | 'Cluster' | undefined {
  if (!watchable) {
    watchable = new Map();
    const groups = [...aggregatedCoreDiscovery('apidiscovery.k8s.io/v2').items, ...aggregatedGroupsDiscovery('apidiscovery.k8s.io/v2').items] as DiscoveredGroup[];
    for (const g of groups) {
      for (const v of g.versions) {
        for (const r of v.resources) {
          if (r.verbs.includes('watch')) watchable.set(`${g.metadata.name ?? ''}/${v.version}/${r.resource}`, r.scope === 'Cluster' ? 'Cluster' : 'Namespaced');
        }
      }
    }
  }
  return watchable.get(`${group}/${version}/${resource}`);
}
