// Between the one stored form (core/v1) and events.k8s.io/v1, as kube-apiserver converts through
// the internal core.Event (kubernetes pkg/apis/events/v1/conversion.go: regarding, note and the
// deprecated* fields by hand; everything else 1:1 by zz_generated.conversion.go, where
// reportingController is core/v1's `reportingComponent` in JSON). Both directions answer the
// canonical JSON of the target version, so converting there and back is the identity.
import { encodeEventsV1Event } from '../codec/events-v1-event-encoder';
import { encodeKubeEvent } from '../codec/kube-event-encoder';
import type { EventsV1Event } from './events-v1-event.types';
import type { KubeEvent } from './kube-event.types';

/** Convert_core_Event_To_v1_Event, from the stored core/v1 JSON. */
export function eventsV1FromCore(event: KubeEvent): EventsV1Event {
  return encodeEventsV1Event({
    metadata: event.metadata,
    eventTime: event.eventTime ?? null,
    ...(event.series ? { series: { count: event.series.count ?? 0, lastObservedTime: event.series.lastObservedTime ?? null } } : {}),
    reportingController: event.reportingComponent,
    reportingInstance: event.reportingInstance,
    action: event.action,
    reason: event.reason,
    regarding: event.involvedObject,
    ...(event.related ? { related: event.related } : {}),
    note: event.message,
    type: event.type,
    deprecatedSource: event.source ?? {},
    deprecatedFirstTimestamp: event.firstTimestamp ?? null,
    deprecatedLastTimestamp: event.lastTimestamp ?? null,
    deprecatedCount: event.count,
  });
}

/** Convert_v1_Event_To_core_Event, to the stored core/v1 JSON. */
export function coreFromEventsV1(event: EventsV1Event): KubeEvent {
  return encodeKubeEvent({
    metadata: event.metadata,
    involvedObject: event.regarding,
    reason: event.reason,
    message: event.note,
    source: event.deprecatedSource,
    firstTimestamp: event.deprecatedFirstTimestamp,
    lastTimestamp: event.deprecatedLastTimestamp,
    count: event.deprecatedCount,
    type: event.type,
    eventTime: event.eventTime,
    ...(event.series ? { series: { count: event.series.count, lastObservedTime: event.series.lastObservedTime } } : {}),
    action: event.action,
    ...(event.related ? { related: event.related } : {}),
    reportingComponent: event.reportingController ?? '',
    reportingInstance: event.reportingInstance ?? '',
  });
}
