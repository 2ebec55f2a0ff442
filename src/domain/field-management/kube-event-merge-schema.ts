// The merge schema of core/v1 Event: its Go struct schema (codec/event-schema.ts) with the one
// marker of its own types, ObjectReference's +structType=atomic (kubernetes/api core/v1/types.go,
// published as x-kubernetes-map-type: atomic): involvedObject and related are owned whole.
// EventSource and EventSeries carry none, so they are granular.
import { eventSchema } from '../codec/event-schema';
import { withObjectMetaMarkers } from './merge-markers';
import { type MergeType } from './merge-type';
import { structMergeType } from './struct-merge-type';

export const OBJECT_REFERENCE_ATOMIC = { ObjectReference: { mapType: 'atomic' } } as const;

/** The whole core/v1 Event. */
export const CORE_EVENT_MERGE_TYPE: MergeType = structMergeType(eventSchema, withObjectMetaMarkers({ markers: OBJECT_REFERENCE_ATOMIC, keyDefaults: {} }));
