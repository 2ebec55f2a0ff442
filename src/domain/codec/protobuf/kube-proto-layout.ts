// The protobuf field numbers of every Kubernetes message svctrail reads or writes, written from
// the `protobuf:"…,N,…"` tags of k8s.io/api core/v1, events/v1, authorization/v1,
// authentication/v1 and apimachinery meta/v1 (v0.32). A JSON
// field that has no number here (the inlined TypeMeta's kind/apiVersion) is not on the wire: it
// travels in the runtime.Unknown envelope instead. Everything else about a field (its Go type,
// pointer-ness, omitempty) comes from the Go struct schemas the JSON codec already uses.
import { eventListSchema, eventSchema, eventSeriesSchema, eventSourceSchema, objectReferenceSchema } from '../event-schema';
import { eventsV1EventListSchema, eventsV1EventSchema, eventsV1EventSeriesSchema } from '../events-v1-event-schema';
import type { StructSchema } from '../go-schema';
import { deleteOptionsSchema, listMetaSchema, preconditionsSchema, statusCauseSchema, statusDetailsSchema, statusSchema } from '../meta-schema';
import {
  fieldSelectorAttributesSchema,
  fieldSelectorRequirementSchema,
  labelSelectorAttributesSchema,
  labelSelectorRequirementSchema,
  nonResourceAttributesSchema,
  nonResourceRuleSchema,
  resourceAttributesSchema,
  resourceRuleSchema,
  selfSubjectAccessReviewSchema,
  selfSubjectAccessReviewSpecSchema,
  selfSubjectReviewSchema,
  selfSubjectReviewStatusSchema,
  selfSubjectRulesReviewSchema,
  selfSubjectRulesReviewSpecSchema,
  localSubjectAccessReviewSchema,
  subjectAccessReviewSchema,
  subjectAccessReviewSpecSchema,
  subjectAccessReviewStatusSchema,
  tokenReviewSchema,
  tokenReviewSpecSchema,
  tokenReviewStatusSchema,
  subjectRulesReviewStatusSchema,
  userInfoSchema,
} from '../review-schema';
import {
  clientIPConfigSchema,
  conditionSchema,
  loadBalancerIngressSchema,
  loadBalancerStatusSchema,
  managedFieldsEntrySchema,
  objectMetaSchema,
  ownerReferenceSchema,
  portStatusSchema,
  serviceListSchema,
  serviceSchema,
  servicePortSchema,
  serviceSpecSchema,
  serviceStatusSchema,
  sessionAffinityConfigSchema,
} from '../service-schema';

/** JSON field name → protobuf field number, for one message. */
export type FieldNumbers = Readonly<Record<string, number>>;

const LAYOUT = new Map<StructSchema, FieldNumbers>([
  // meta/v1
  [
    objectMetaSchema,
    {
      name: 1,
      generateName: 2,
      namespace: 3,
      selfLink: 4,
      uid: 5,
      resourceVersion: 6,
      generation: 7,
      creationTimestamp: 8,
      deletionTimestamp: 9,
      deletionGracePeriodSeconds: 10,
      labels: 11,
      annotations: 12,
      ownerReferences: 13,
      finalizers: 14,
      managedFields: 17,
    },
  ],
  [ownerReferenceSchema, { kind: 1, name: 3, uid: 4, apiVersion: 5, controller: 6, blockOwnerDeletion: 7 }],
  [managedFieldsEntrySchema, { manager: 1, operation: 2, apiVersion: 3, time: 4, fieldsType: 6, fieldsV1: 7, subresource: 8 }],
  [listMetaSchema, { selfLink: 1, resourceVersion: 2, continue: 3, remainingItemCount: 4 }],
  [statusSchema, { metadata: 1, status: 2, message: 3, reason: 4, details: 5, code: 6 }],
  [statusDetailsSchema, { name: 1, group: 2, kind: 3, causes: 4, retryAfterSeconds: 5, uid: 6 }],
  [statusCauseSchema, { reason: 1, message: 2, field: 3 }],
  [
    deleteOptionsSchema,
    {
      gracePeriodSeconds: 1,
      preconditions: 2,
      orphanDependents: 3,
      propagationPolicy: 4,
      dryRun: 5,
      ignoreStoreReadErrorWithClusterBreakingPotential: 6,
    },
  ],
  [preconditionsSchema, { uid: 1, resourceVersion: 2 }],
  [conditionSchema, { type: 1, status: 2, observedGeneration: 3, lastTransitionTime: 4, reason: 5, message: 6 }],
  // core/v1 Service
  [serviceSchema, { metadata: 1, spec: 2, status: 3 }],
  [serviceListSchema, { metadata: 1, items: 2 }],
  [
    serviceSpecSchema,
    {
      ports: 1,
      selector: 2,
      clusterIP: 3,
      type: 4,
      externalIPs: 5,
      sessionAffinity: 7,
      loadBalancerIP: 8,
      loadBalancerSourceRanges: 9,
      externalName: 10,
      externalTrafficPolicy: 11,
      healthCheckNodePort: 12,
      publishNotReadyAddresses: 13,
      sessionAffinityConfig: 14,
      ipFamilyPolicy: 17,
      clusterIPs: 18,
      ipFamilies: 19,
      allocateLoadBalancerNodePorts: 20,
      loadBalancerClass: 21,
      internalTrafficPolicy: 22,
      trafficDistribution: 23,
    },
  ],
  [servicePortSchema, { name: 1, protocol: 2, port: 3, targetPort: 4, nodePort: 5, appProtocol: 6 }],
  [sessionAffinityConfigSchema, { clientIP: 1 }],
  [clientIPConfigSchema, { timeoutSeconds: 1 }],
  [serviceStatusSchema, { loadBalancer: 1, conditions: 2 }],
  [loadBalancerStatusSchema, { ingress: 1 }],
  [loadBalancerIngressSchema, { ip: 1, hostname: 2, ipMode: 3, ports: 4 }],
  [portStatusSchema, { port: 1, protocol: 2, error: 3 }],
  // core/v1 Event
  [
    eventSchema,
    {
      metadata: 1,
      involvedObject: 2,
      reason: 3,
      message: 4,
      source: 5,
      firstTimestamp: 6,
      lastTimestamp: 7,
      count: 8,
      type: 9,
      eventTime: 10,
      series: 11,
      action: 12,
      related: 13,
      reportingComponent: 14,
      reportingInstance: 15,
    },
  ],
  [eventListSchema, { metadata: 1, items: 2 }],
  [objectReferenceSchema, { kind: 1, namespace: 2, name: 3, uid: 4, apiVersion: 5, resourceVersion: 6, fieldPath: 7 }],
  [eventSourceSchema, { component: 1, host: 2 }],
  [eventSeriesSchema, { count: 1, lastObservedTime: 2 }],
  // events.k8s.io/v1 Event (its ObjectReference and EventSource are core/v1's)
  [
    eventsV1EventSchema,
    {
      metadata: 1,
      eventTime: 2,
      series: 3,
      reportingController: 4,
      reportingInstance: 5,
      action: 6,
      reason: 7,
      regarding: 8,
      related: 9,
      note: 10,
      type: 11,
      deprecatedSource: 12,
      deprecatedFirstTimestamp: 13,
      deprecatedLastTimestamp: 14,
      deprecatedCount: 15,
    },
  ],
  [eventsV1EventListSchema, { metadata: 1, items: 2 }],
  [eventsV1EventSeriesSchema, { count: 1, lastObservedTime: 2 }],
  // meta/v1 selector requirements
  [labelSelectorRequirementSchema, { key: 1, operator: 2, values: 3 }],
  [fieldSelectorRequirementSchema, { key: 1, operator: 2, values: 3 }],
  // authorization/v1
  [selfSubjectAccessReviewSchema, { metadata: 1, spec: 2, status: 3 }],
  [selfSubjectAccessReviewSpecSchema, { resourceAttributes: 1, nonResourceAttributes: 2 }],
  [subjectAccessReviewSchema, { metadata: 1, spec: 2, status: 3 }],
  [localSubjectAccessReviewSchema, { metadata: 1, spec: 2, status: 3 }],
  [subjectAccessReviewSpecSchema, { resourceAttributes: 1, nonResourceAttributes: 2, user: 3, groups: 4, extra: 5, uid: 6 }],
  [
    resourceAttributesSchema,
    {
      namespace: 1,
      verb: 2,
      group: 3,
      version: 4,
      resource: 5,
      subresource: 6,
      name: 7,
      fieldSelector: 8,
      labelSelector: 9,
    },
  ],
  [fieldSelectorAttributesSchema, { rawSelector: 1, requirements: 2 }],
  [labelSelectorAttributesSchema, { rawSelector: 1, requirements: 2 }],
  [nonResourceAttributesSchema, { path: 1, verb: 2 }],
  [subjectAccessReviewStatusSchema, { allowed: 1, reason: 2, evaluationError: 3, denied: 4 }],
  [selfSubjectRulesReviewSchema, { metadata: 1, spec: 2, status: 3 }],
  [selfSubjectRulesReviewSpecSchema, { namespace: 1 }],
  // `incomplete` is tagged "bytes,3,rep" but generated as a varint (field 3).
  [subjectRulesReviewStatusSchema, { resourceRules: 1, nonResourceRules: 2, incomplete: 3, evaluationError: 4 }],
  [resourceRuleSchema, { verbs: 1, apiGroups: 2, resources: 3, resourceNames: 4 }],
  [nonResourceRuleSchema, { verbs: 1, nonResourceURLs: 2 }],
  // authentication/v1
  [selfSubjectReviewSchema, { metadata: 1, status: 2 }],
  [selfSubjectReviewStatusSchema, { userInfo: 1 }],
  [userInfoSchema, { username: 1, uid: 2, groups: 3, extra: 4 }],
  [tokenReviewSchema, { metadata: 1, spec: 2, status: 3 }],
  [tokenReviewSpecSchema, { token: 1, audiences: 2 }],
  [tokenReviewStatusSchema, { authenticated: 1, user: 2, error: 3, audiences: 4 }],
]);

/** The numbered fields of a message, in field-number order (the order Go writes them). */
export interface WireField {
  readonly no: number;
  readonly schema: StructSchema['fields'][number];
}

const wireFieldsCache = new Map<StructSchema, { ordered: WireField[]; byNumber: Map<number, WireField> }>();

export function wireFields(schema: StructSchema): { ordered: readonly WireField[]; byNumber: ReadonlyMap<number, WireField> } {
  let cached = wireFieldsCache.get(schema);
  if (!cached) {
    const numbers = LAYOUT.get(schema);
    if (!numbers) throw new Error(`no protobuf layout for ${schema.goName}`);
    const ordered = schema.fields
      .filter((f) => numbers[f.json] !== undefined)
      .map((f) => ({ no: numbers[f.json], schema: f }))
      .sort((a, b) => a.no - b.no);
    cached = { ordered, byNumber: new Map(ordered.map((f) => [f.no, f])) };
    wireFieldsCache.set(schema, cached);
  }
  return cached;
}
