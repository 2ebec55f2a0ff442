// The two built-in groups that carry the reviews, described once for legacy discovery
// (/apis, /apis/<group>, /apis/<group>/<version>) and aggregated discovery. Every resource is
// create-only, and cluster-scoped but for localsubjectaccessreviews, as kube-apiserver lists them.
// authentication.k8s.io also serves v1beta1, which kubectl 1.27's `auth whoami` asks for; its
// tokenreviews were removed in 1.22, so v1beta1 has selfsubjectreviews only.
interface ReviewResource {
  name: string;
  singularName: string;
  kind: string;
  namespaced?: boolean;
  /** The versions that serve it; every version of its group when unset. */
  versions?: string[];
}

interface ReviewGroup {
  name: string;
  /** Preferred version first. */
  versions: string[];
  resources: ReviewResource[];
}

export const REVIEW_GROUPS: readonly ReviewGroup[] = [
  {
    name: 'authentication.k8s.io',
    versions: ['v1', 'v1beta1'],
    resources: [
      { name: 'selfsubjectreviews', singularName: 'selfsubjectreview', kind: 'SelfSubjectReview' },
      { name: 'tokenreviews', singularName: 'tokenreview', kind: 'TokenReview', versions: ['v1'] },
    ],
  },
  {
    name: 'authorization.k8s.io',
    versions: ['v1'],
    resources: [
      { name: 'localsubjectaccessreviews', singularName: 'localsubjectaccessreview', kind: 'LocalSubjectAccessReview', namespaced: true },
      { name: 'selfsubjectaccessreviews', singularName: 'selfsubjectaccessreview', kind: 'SelfSubjectAccessReview' },
      { name: 'selfsubjectrulesreviews', singularName: 'selfsubjectrulesreview', kind: 'SelfSubjectRulesReview' },
      { name: 'subjectaccessreviews', singularName: 'subjectaccessreview', kind: 'SubjectAccessReview' },
    ],
  },
];

const CREATE = ['create'];

const servedIn = (group: ReviewGroup, version: string): ReviewResource[] => group.resources.filter((r) => !r.versions || r.versions.includes(version));

export function findReviewGroup(name: string): ReviewGroup | undefined {
  return REVIEW_GROUPS.find((g) => g.name === name);
}

/** The APIGroup as /apis lists it and /apis/<group> answers it. */
export function reviewApiGroup(group: ReviewGroup) {
  const versions = group.versions.map((version) => ({ groupVersion: `${group.name}/${version}`, version }));
  return { name: group.name, versions, preferredVersion: versions[0] };
}

/** GET /apis/<group>/<version> */
export function reviewResourceList(group: ReviewGroup, version: string) {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: `${group.name}/${version}`,
    resources: servedIn(group, version).map((r) => ({ name: r.name, singularName: r.singularName, namespaced: r.namespaced ?? false, kind: r.kind, verbs: CREATE })),
  };
}

/** The group's entry in aggregated discovery (apidiscovery.k8s.io APIGroupDiscovery). */
export function reviewAggregatedGroup(group: ReviewGroup) {
  return {
    metadata: { name: group.name, creationTimestamp: null },
    versions: group.versions.map((version) => ({
      version,
      resources: servedIn(group, version).map((r) => ({
        resource: r.name,
        responseKind: { group: group.name, version, kind: r.kind },
        scope: r.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: r.singularName,
        verbs: CREATE,
      })),
      freshness: 'Current',
    })),
  };
}
