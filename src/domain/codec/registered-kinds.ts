// Which group/version/kinds kube-apiserver's scheme (pkg/api/legacyscheme) can instantiate, and
// under which Go type name. Needed only to word the error for a body whose `kind`/`apiVersion`
// is not v1 Service: a registered kind fails conversion (`converting (v1.Pod) to (core.Service):
// unknown conversion`, apimachinery conversion/converter.go), an unknown one fails
// Scheme.New (`no kind "Foo" is registered for version "v1" in scheme "..."`).
// Covers core/v1 completely and the GA versions of the other built-in groups (kinds + lists).

/** runtime.NewScheme() names the legacy scheme after its call site. */
export const LEGACY_SCHEME_NAME = 'pkg/api/legacyscheme/scheme.go:30';

/** metav1.AddToGroupVersion registers these in every external group version. */
const META_KINDS = ['WatchEvent', 'ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions'];

/** Scheme.AddUnversionedTypes: found by kind alone, whatever the group/version. */
const UNVERSIONED_KINDS = ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList'];

const CORE_V1_KINDS = [
  'Pod',
  'PodList',
  'PodStatusResult',
  'PodTemplate',
  'PodTemplateList',
  'ReplicationController',
  'ReplicationControllerList',
  'Service',
  'ServiceProxyOptions',
  'ServiceList',
  'Endpoints',
  'EndpointsList',
  'Node',
  'NodeList',
  'NodeProxyOptions',
  'Binding',
  'Event',
  'EventList',
  'LimitRange',
  'LimitRangeList',
  'ResourceQuota',
  'ResourceQuotaList',
  'Namespace',
  'NamespaceList',
  'Secret',
  'SecretList',
  'ServiceAccount',
  'ServiceAccountList',
  'PersistentVolume',
  'PersistentVolumeList',
  'PersistentVolumeClaim',
  'PersistentVolumeClaimList',
  'PodAttachOptions',
  'PodLogOptions',
  'PodExecOptions',
  'PodPortForwardOptions',
  'PodProxyOptions',
  'ComponentStatus',
  'ComponentStatusList',
  'SerializedReference',
  'RangeAllocation',
  'ConfigMap',
  'ConfigMapList',
];

/** Kinds that come with a `<Kind>List`. */
const withLists = (...kinds: string[]): string[] => kinds.flatMap((k) => [k, `${k}List`]);

const OTHER_GROUP_VERSIONS: Record<string, string[]> = {
  'apps/v1': withLists('Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ControllerRevision'),
  'batch/v1': withLists('Job', 'CronJob'),
  'autoscaling/v1': [...withLists('HorizontalPodAutoscaler'), 'Scale'],
  'autoscaling/v2': withLists('HorizontalPodAutoscaler'),
  'networking.k8s.io/v1': withLists('Ingress', 'IngressClass', 'NetworkPolicy'),
  'policy/v1': [...withLists('PodDisruptionBudget'), 'Eviction'],
  'rbac.authorization.k8s.io/v1': withLists('Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'),
  'discovery.k8s.io/v1': withLists('EndpointSlice'),
  'coordination.k8s.io/v1': withLists('Lease'),
  'storage.k8s.io/v1': withLists('StorageClass', 'VolumeAttachment', 'CSIDriver', 'CSINode', 'CSIStorageCapacity'),
  'scheduling.k8s.io/v1': withLists('PriorityClass'),
  'node.k8s.io/v1': withLists('RuntimeClass'),
  'certificates.k8s.io/v1': withLists('CertificateSigningRequest'),
  'events.k8s.io/v1': withLists('Event'),
  'admissionregistration.k8s.io/v1': withLists('ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'),
  'flowcontrol.apiserver.k8s.io/v1': withLists('FlowSchema', 'PriorityLevelConfiguration'),
  'authentication.k8s.io/v1': ['TokenReview', 'TokenRequest', 'SelfSubjectReview'],
  'authorization.k8s.io/v1': ['SubjectAccessReview', 'SelfSubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectRulesReview'],
};

/** schema.GroupVersion.String(): the core group prints as just the version. */
export function groupVersionString(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/**
 * The Go type (reflect.Type.String(), e.g. `v1.Pod`, `v2.HorizontalPodAutoscaler`) Scheme.New
 * would create for this group/version/kind, or undefined when it is not registered.
 */
export function registeredGoType(group: string, version: string, kind: string): string | undefined {
  if (UNVERSIONED_KINDS.includes(kind)) return `v1.${kind}`;
  if (version === '__internal') return group === '' && CORE_V1_KINDS.includes(kind) ? `core.${kind}` : undefined;
  const gv = groupVersionString(group, version);
  const kinds = gv === 'v1' ? CORE_V1_KINDS : OTHER_GROUP_VERSIONS[gv];
  if (!kinds) return undefined;
  if (META_KINDS.includes(kind)) return `v1.${kind}`;
  // The Go package of an API version is named after the version (k8s.io/api/apps/v1 -> v1).
  return kinds.includes(kind) ? `${version}.${kind}` : undefined;
}

/** runtime.notRegisteredErr.Error() for a kind lookup. */
export function notRegisteredMessage(group: string, version: string, kind: string, quote: (s: string) => string): string {
  if (version === '__internal') {
    return `no kind ${quote(kind)} is registered for the internal version of group ${quote(group)} in scheme ${quote(LEGACY_SCHEME_NAME)}`;
  }
  return `no kind ${quote(kind)} is registered for version ${quote(groupVersionString(group, version))} in scheme ${quote(LEGACY_SCHEME_NAME)}`;
}
