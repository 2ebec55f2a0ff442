// The review kinds: the self reviews behind `kubectl auth can-i` and `kubectl auth whoami`, and
// the TokenReview and (Local)SubjectAccessReview a delegating server asks, as of k8s.io/api v0.32
// authorization/v1 and authentication/v1 types.go. Same conventions as service-schema.ts:
// Go struct order, omitempty and pointer-ness as tagged; TypeMeta's kind/apiVersion first.
import { field, goBool, goSliceOf, goString, goStringListMap, goStruct, type StructSchema } from './go-schema';
import { objectMetaSchema } from './service-schema';

const O = { omitempty: true };
const OP = { omitempty: true, pointer: true };

const typeMeta = [field('kind', 'Kind', goString(), O), field('apiVersion', 'APIVersion', goString(), O)];

// meta/v1 selector requirements, as carried by the 1.31+ selector attributes.
export const labelSelectorRequirementSchema: StructSchema = {
  name: 'LabelSelectorRequirement',
  goName: 'v1.LabelSelectorRequirement',
  fields: [field('key', 'Key', goString()), field('operator', 'Operator', goString('v1.LabelSelectorOperator')), field('values', 'Values', goSliceOf(goString()), O)],
};

export const fieldSelectorRequirementSchema: StructSchema = {
  name: 'FieldSelectorRequirement',
  goName: 'v1.FieldSelectorRequirement',
  fields: [field('key', 'Key', goString()), field('operator', 'Operator', goString('selection.Operator')), field('values', 'Values', goSliceOf(goString()), O)],
};

export const labelSelectorAttributesSchema: StructSchema = {
  name: 'LabelSelectorAttributes',
  goName: 'v1.LabelSelectorAttributes',
  fields: [field('rawSelector', 'RawSelector', goString(), O), field('requirements', 'Requirements', goSliceOf(goStruct(labelSelectorRequirementSchema)), O)],
};

export const fieldSelectorAttributesSchema: StructSchema = {
  name: 'FieldSelectorAttributes',
  goName: 'v1.FieldSelectorAttributes',
  fields: [field('rawSelector', 'RawSelector', goString(), O), field('requirements', 'Requirements', goSliceOf(goStruct(fieldSelectorRequirementSchema)), O)],
};

export const resourceAttributesSchema: StructSchema = {
  name: 'ResourceAttributes',
  goName: 'v1.ResourceAttributes',
  fields: [
    field('namespace', 'Namespace', goString(), O),
    field('verb', 'Verb', goString(), O),
    field('group', 'Group', goString(), O),
    field('version', 'Version', goString(), O),
    field('resource', 'Resource', goString(), O),
    field('subresource', 'Subresource', goString(), O),
    field('name', 'Name', goString(), O),
    field('fieldSelector', 'FieldSelector', goStruct(fieldSelectorAttributesSchema), OP),
    field('labelSelector', 'LabelSelector', goStruct(labelSelectorAttributesSchema), OP),
  ],
};

export const nonResourceAttributesSchema: StructSchema = {
  name: 'NonResourceAttributes',
  goName: 'v1.NonResourceAttributes',
  fields: [field('path', 'Path', goString(), O), field('verb', 'Verb', goString(), O)],
};

export const selfSubjectAccessReviewSpecSchema: StructSchema = {
  name: 'SelfSubjectAccessReviewSpec',
  goName: 'v1.SelfSubjectAccessReviewSpec',
  fields: [
    field('resourceAttributes', 'ResourceAttributes', goStruct(resourceAttributesSchema), OP),
    field('nonResourceAttributes', 'NonResourceAttributes', goStruct(nonResourceAttributesSchema), OP),
  ],
};

export const subjectAccessReviewStatusSchema: StructSchema = {
  name: 'SubjectAccessReviewStatus',
  goName: 'v1.SubjectAccessReviewStatus',
  fields: [field('allowed', 'Allowed', goBool), field('denied', 'Denied', goBool, O), field('reason', 'Reason', goString(), O), field('evaluationError', 'EvaluationError', goString(), O)],
};

export const subjectAccessReviewSpecSchema: StructSchema = {
  name: 'SubjectAccessReviewSpec',
  goName: 'v1.SubjectAccessReviewSpec',
  fields: [
    field('resourceAttributes', 'ResourceAttributes', goStruct(resourceAttributesSchema), OP),
    field('nonResourceAttributes', 'NonResourceAttributes', goStruct(nonResourceAttributesSchema), OP),
    field('user', 'User', goString(), O),
    field('groups', 'Groups', goSliceOf(goString()), O),
    field('extra', 'Extra', goStringListMap('v1.ExtraValue'), O),
    field('uid', 'UID', goString(), O),
  ],
};

const subjectAccessReviewKind = (name: string): StructSchema => ({
  name,
  goName: `v1.${name}`,
  fields: [
    ...typeMeta,
    field('metadata', 'ObjectMeta', goStruct(objectMetaSchema), O),
    field('spec', 'Spec', goStruct(subjectAccessReviewSpecSchema)),
    field('status', 'Status', goStruct(subjectAccessReviewStatusSchema), O),
  ],
});

export const subjectAccessReviewSchema: StructSchema = subjectAccessReviewKind('SubjectAccessReview');
export const localSubjectAccessReviewSchema: StructSchema = subjectAccessReviewKind('LocalSubjectAccessReview');

export const selfSubjectAccessReviewSchema: StructSchema = {
  name: 'SelfSubjectAccessReview',
  goName: 'v1.SelfSubjectAccessReview',
  fields: [
    ...typeMeta,
    field('metadata', 'ObjectMeta', goStruct(objectMetaSchema), O),
    field('spec', 'Spec', goStruct(selfSubjectAccessReviewSpecSchema)),
    field('status', 'Status', goStruct(subjectAccessReviewStatusSchema), O),
  ],
};

export const selfSubjectRulesReviewSpecSchema: StructSchema = {
  name: 'SelfSubjectRulesReviewSpec',
  goName: 'v1.SelfSubjectRulesReviewSpec',
  fields: [field('namespace', 'Namespace', goString(), O)],
};

export const resourceRuleSchema: StructSchema = {
  name: 'ResourceRule',
  goName: 'v1.ResourceRule',
  fields: [
    field('verbs', 'Verbs', goSliceOf(goString())),
    field('apiGroups', 'APIGroups', goSliceOf(goString()), O),
    field('resources', 'Resources', goSliceOf(goString()), O),
    field('resourceNames', 'ResourceNames', goSliceOf(goString()), O),
  ],
};

export const nonResourceRuleSchema: StructSchema = {
  name: 'NonResourceRule',
  goName: 'v1.NonResourceRule',
  fields: [field('verbs', 'Verbs', goSliceOf(goString())), field('nonResourceURLs', 'NonResourceURLs', goSliceOf(goString()), O)],
};

export const subjectRulesReviewStatusSchema: StructSchema = {
  name: 'SubjectRulesReviewStatus',
  goName: 'v1.SubjectRulesReviewStatus',
  fields: [
    field('resourceRules', 'ResourceRules', goSliceOf(goStruct(resourceRuleSchema))),
    field('nonResourceRules', 'NonResourceRules', goSliceOf(goStruct(nonResourceRuleSchema))),
    field('incomplete', 'Incomplete', goBool),
    field('evaluationError', 'EvaluationError', goString(), O),
  ],
};

export const selfSubjectRulesReviewSchema: StructSchema = {
  name: 'SelfSubjectRulesReview',
  goName: 'v1.SelfSubjectRulesReview',
  fields: [
    ...typeMeta,
    field('metadata', 'ObjectMeta', goStruct(objectMetaSchema), O),
    field('spec', 'Spec', goStruct(selfSubjectRulesReviewSpecSchema)),
    field('status', 'Status', goStruct(subjectRulesReviewStatusSchema), O),
  ],
};

export const userInfoSchema: StructSchema = {
  name: 'UserInfo',
  goName: 'v1.UserInfo',
  fields: [
    field('username', 'Username', goString(), O),
    field('uid', 'UID', goString(), O),
    field('groups', 'Groups', goSliceOf(goString()), O),
    field('extra', 'Extra', goStringListMap('v1.ExtraValue'), O),
  ],
};

export const selfSubjectReviewStatusSchema: StructSchema = {
  name: 'SelfSubjectReviewStatus',
  goName: 'v1.SelfSubjectReviewStatus',
  fields: [field('userInfo', 'UserInfo', goStruct(userInfoSchema), O)],
};

export const selfSubjectReviewSchema: StructSchema = {
  name: 'SelfSubjectReview',
  goName: 'v1.SelfSubjectReview',
  fields: [...typeMeta, field('metadata', 'ObjectMeta', goStruct(objectMetaSchema), O), field('status', 'Status', goStruct(selfSubjectReviewStatusSchema), O)],
};

export const tokenReviewSpecSchema: StructSchema = {
  name: 'TokenReviewSpec',
  goName: 'v1.TokenReviewSpec',
  fields: [field('token', 'Token', goString(), O), field('audiences', 'Audiences', goSliceOf(goString()), O)],
};

export const tokenReviewStatusSchema: StructSchema = {
  name: 'TokenReviewStatus',
  goName: 'v1.TokenReviewStatus',
  fields: [
    field('authenticated', 'Authenticated', goBool, O),
    field('user', 'User', goStruct(userInfoSchema), O),
    field('audiences', 'Audiences', goSliceOf(goString()), O),
    field('error', 'Error', goString(), O),
  ],
};

export const tokenReviewSchema: StructSchema = {
  name: 'TokenReview',
  goName: 'v1.TokenReview',
  fields: [
    ...typeMeta,
    field('metadata', 'ObjectMeta', goStruct(objectMetaSchema), O),
    field('spec', 'Spec', goStruct(tokenReviewSpecSchema)),
    field('status', 'Status', goStruct(tokenReviewStatusSchema), O),
  ],
};
