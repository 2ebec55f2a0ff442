// What an Event says about how often and when, and who reported it, read the same whichever
// recorder wrote it: client-go's legacy recorder (core/v1: count, first/lastTimestamp, source)
// or the events.k8s.io one (eventTime, series, reportingController). The rules of a watcher of a
// real cluster (shared/k8s/events.md §5): count = count ‖ series.count ‖ 1, last seen =
// series.lastObservedTime ‖ lastTimestamp ‖ eventTime. Go writes zero values as 0, "" and null,
// so each is read as "not set".
import type { KubeEvent } from '../domain/kube-event/kube-event.types';

export interface NormalizedEventFields {
  /** How many times it happened: an Event that exists happened at least once. */
  count: number;
  /** null: the Event says neither when it was first nor last seen. */
  firstSeen: string | null;
  lastSeen: string | null;
  /** reportingComponent, else the deprecated source.component (clients before 1.19 set only that). */
  reportingController: string;
  reportingInstance: string;
}

const set = (value: string | null | undefined): string | undefined => (value ? value : undefined);

export function normalizedEventFields(event: KubeEvent): NormalizedEventFields {
  return {
    count: event.count || event.series?.count || 1,
    firstSeen: set(event.firstTimestamp) ?? set(event.eventTime) ?? null,
    lastSeen: set(event.series?.lastObservedTime) ?? set(event.lastTimestamp) ?? set(event.eventTime) ?? null,
    reportingController: event.reportingComponent || event.source?.component || '',
    reportingInstance: event.reportingInstance || event.source?.host || '',
  };
}
