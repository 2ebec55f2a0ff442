// meta/v1 structs that travel beside Services: ListMeta, Status (every error answer) and
// DeleteOptions (the body of DELETE), as of apimachinery v0.32 pkg/apis/meta/v1/types.go.
// Same conventions as service-schema.ts: Go struct order, omitempty and pointer-ness as tagged.
import { field, goBool, goInt32, goInt64, goSliceOf, goString, goStruct, type StructSchema } from './go-schema';

const O = { omitempty: true };
const OP = { omitempty: true, pointer: true };

export const listMetaSchema: StructSchema = {
  name: 'ListMeta',
  goName: 'v1.ListMeta',
  fields: [
    field('selfLink', 'SelfLink', goString(), O),
    field('resourceVersion', 'ResourceVersion', goString(), O),
    field('continue', 'Continue', goString(), O),
    field('remainingItemCount', 'RemainingItemCount', goInt64, OP),
  ],
};

export const statusCauseSchema: StructSchema = {
  name: 'StatusCause',
  goName: 'v1.StatusCause',
  fields: [field('reason', 'Type', goString('v1.CauseType'), O), field('message', 'Message', goString(), O), field('field', 'Field', goString(), O)],
};

export const statusDetailsSchema: StructSchema = {
  name: 'StatusDetails',
  goName: 'v1.StatusDetails',
  fields: [
    field('name', 'Name', goString(), O),
    field('group', 'Group', goString(), O),
    field('kind', 'Kind', goString(), O),
    field('uid', 'UID', goString('types.UID'), O),
    field('causes', 'Causes', goSliceOf(goStruct(statusCauseSchema)), O),
    field('retryAfterSeconds', 'RetryAfterSeconds', goInt32, O),
  ],
};

export const statusSchema: StructSchema = {
  name: 'Status',
  goName: 'v1.Status',
  fields: [
    field('kind', 'Kind', goString(), O),
    field('apiVersion', 'APIVersion', goString(), O),
    field('metadata', 'ListMeta', goStruct(listMetaSchema), O),
    field('status', 'Status', goString(), O),
    field('message', 'Message', goString(), O),
    field('reason', 'Reason', goString('v1.StatusReason'), O),
    field('details', 'Details', goStruct(statusDetailsSchema), OP),
    field('code', 'Code', goInt32, O),
  ],
};

export const preconditionsSchema: StructSchema = {
  name: 'Preconditions',
  goName: 'v1.Preconditions',
  fields: [field('uid', 'UID', goString('types.UID'), OP), field('resourceVersion', 'ResourceVersion', goString(), OP)],
};

export const deleteOptionsSchema: StructSchema = {
  name: 'DeleteOptions',
  goName: 'v1.DeleteOptions',
  fields: [
    field('kind', 'Kind', goString(), O),
    field('apiVersion', 'APIVersion', goString(), O),
    field('gracePeriodSeconds', 'GracePeriodSeconds', goInt64, OP),
    field('preconditions', 'Preconditions', goStruct(preconditionsSchema), OP),
    field('orphanDependents', 'OrphanDependents', goBool, OP),
    field('propagationPolicy', 'PropagationPolicy', goString('v1.DeletionPropagation'), OP),
    field('dryRun', 'DryRun', goSliceOf(goString()), O),
    field('ignoreStoreReadErrorWithClusterBreakingPotential', 'IgnoreStoreReadErrorWithClusterBreakingPotential', goBool, OP),
  ],
};
