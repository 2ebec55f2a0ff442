// events.k8s.io/v1 Event and EventList as of Kubernetes v1.32 (kubernetes/api events/v1/types.go):
// the same stored Event as core/v1's, under other names. Unlike core/v1, eventTime and both
// EventSeries fields have no omitempty, and reportingController/reportingInstance do.
// Same conventions as event-schema.ts.
import { eventSourceSchema, objectReferenceSchema } from './event-schema';
import { field, goInt32, goMicroTime, goSliceOf, goString, goStruct, goTime, type StructSchema } from './go-schema';
import { listMetaSchema } from './meta-schema';
import { objectMetaSchema } from './service-schema';

const O = { omitempty: true };
const OP = { omitempty: true, pointer: true };

export const eventsV1EventSeriesSchema: StructSchema = {
  name: 'EventSeries',
  goName: 'v1.EventSeries',
  fields: [field('count', 'Count', goInt32), field('lastObservedTime', 'LastObservedTime', goMicroTime)],
};

export const eventsV1EventSchema: StructSchema = {
  name: 'Event',
  goName: 'v1.Event',
  fields: [
    field('kind', 'Kind', goString(), O),
    field('apiVersion', 'APIVersion', goString(), O),
    field('metadata', 'ObjectMeta', goStruct(objectMetaSchema)),
    field('eventTime', 'EventTime', goMicroTime),
    field('series', 'Series', goStruct(eventsV1EventSeriesSchema), OP),
    field('reportingController', 'ReportingController', goString(), O),
    field('reportingInstance', 'ReportingInstance', goString(), O),
    field('action', 'Action', goString(), O),
    field('reason', 'Reason', goString(), O),
    field('regarding', 'Regarding', goStruct(objectReferenceSchema), O),
    field('related', 'Related', goStruct(objectReferenceSchema), OP),
    field('note', 'Note', goString(), O),
    field('type', 'Type', goString(), O),
    field('deprecatedSource', 'DeprecatedSource', goStruct(eventSourceSchema), O),
    field('deprecatedFirstTimestamp', 'DeprecatedFirstTimestamp', goTime, O),
    field('deprecatedLastTimestamp', 'DeprecatedLastTimestamp', goTime, O),
    field('deprecatedCount', 'DeprecatedCount', goInt32, O),
  ],
};

export const eventsV1EventListSchema: StructSchema = {
  name: 'EventList',
  goName: 'v1.EventList',
  fields: [
    field('kind', 'Kind', goString(), O),
    field('apiVersion', 'APIVersion', goString(), O),
    field('metadata', 'ListMeta', goStruct(listMetaSchema), O),
    field('items', 'Items', goSliceOf(goStruct(eventsV1EventSchema))),
  ],
};
