// core/v1 Event and EventList as of Kubernetes v1.32 (kubernetes/api core/v1/types.go); svctrail
// derives them from the log and serves them read-only. Same conventions as service-schema.ts.
import { field, goInt32, goMicroTime, goSliceOf, goString, goStruct, goTime, type StructSchema } from './go-schema';
import { listMetaSchema } from './meta-schema';
import { objectMetaSchema } from './service-schema';

const O = { omitempty: true };
const OP = { omitempty: true, pointer: true };

export const objectReferenceSchema: StructSchema = {
  name: 'ObjectReference',
  goName: 'v1.ObjectReference',
  fields: [
    field('kind', 'Kind', goString(), O),
    field('namespace', 'Namespace', goString(), O),
    field('name', 'Name', goString(), O),
    field('uid', 'UID', goString('types.UID'), O),
    field('apiVersion', 'APIVersion', goString(), O),
    field('resourceVersion', 'ResourceVersion', goString(), O),
    field('fieldPath', 'FieldPath', goString(), O),
  ],
};

export const eventSourceSchema: StructSchema = {
  name: 'EventSource',
  goName: 'v1.EventSource',
  fields: [field('component', 'Component', goString(), O), field('host', 'Host', goString(), O)],
};

export const eventSeriesSchema: StructSchema = {
  name: 'EventSeries',
  goName: 'v1.EventSeries',
  fields: [field('count', 'Count', goInt32, O), field('lastObservedTime', 'LastObservedTime', goMicroTime, O)],
};

export const eventSchema: StructSchema = {
  name: 'Event',
  goName: 'v1.Event',
  fields: [
    field('kind', 'Kind', goString(), O),
    field('apiVersion', 'APIVersion', goString(), O),
    field('metadata', 'ObjectMeta', goStruct(objectMetaSchema)),
    field('involvedObject', 'InvolvedObject', goStruct(objectReferenceSchema)),
    field('reason', 'Reason', goString(), O),
    field('message', 'Message', goString(), O),
    field('source', 'Source', goStruct(eventSourceSchema), O),
    field('firstTimestamp', 'FirstTimestamp', goTime, O),
    field('lastTimestamp', 'LastTimestamp', goTime, O),
    field('count', 'Count', goInt32, O),
    field('type', 'Type', goString(), O),
    field('eventTime', 'EventTime', goMicroTime, O),
    field('series', 'Series', goStruct(eventSeriesSchema), OP),
    field('action', 'Action', goString(), O),
    field('related', 'Related', goStruct(objectReferenceSchema), OP),
    field('reportingComponent', 'ReportingController', goString()),
    field('reportingInstance', 'ReportingInstance', goString()),
  ],
};

export const eventListSchema: StructSchema = {
  name: 'EventList',
  goName: 'v1.EventList',
  fields: [
    field('kind', 'Kind', goString(), O),
    field('apiVersion', 'APIVersion', goString(), O),
    field('metadata', 'ListMeta', goStruct(listMetaSchema), O),
    field('items', 'Items', goSliceOf(goStruct(eventSchema))),
  ],
};
