// The merge schema of events.k8s.io/v1 Event: its Go struct schema (codec/events-v1-event-schema.ts)
// with ObjectMeta's markers and ObjectReference's +structType=atomic (regarding and related are
// owned whole); EventSeries and the deprecatedSource EventSource carry none (kubernetes/api
// events/v1/types.go).
import { eventsV1EventSchema } from '../codec/events-v1-event-schema';
import { OBJECT_REFERENCE_ATOMIC } from './kube-event-merge-schema';
import { withObjectMetaMarkers } from './merge-markers';
import { type MergeType } from './merge-type';
import { structMergeType } from './struct-merge-type';

/** The whole events.k8s.io/v1 Event. */
export const EVENTS_V1_EVENT_MERGE_TYPE: MergeType = structMergeType(eventsV1EventSchema, withObjectMetaMarkers({ markers: OBJECT_REFERENCE_ATOMIC, keyDefaults: {} }));
