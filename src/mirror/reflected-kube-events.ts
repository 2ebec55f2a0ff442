// The Events' reflector's resource: the source's core/v1 Events about Services, recorded as Event
// facts (ObservedKubeEventRecorder), resuming from mirror_source's events_resource_version. The
// source's Events and Services share one resourceVersion sequence, but each watch sees only its
// own resource's changes, so each keeps its own resume point and relists on its own 410.
import { decodeKubeEventValue } from '../domain/codec/kube-event-decoder';
import { observedKubeEvent } from '../domain/mirror/observed-kube-event-change';
import type { KubeEvent } from '../domain/kube-event/kube-event.types';
import { EVENT_SOURCE } from '../kube-events/kube-event-derivation';
import type { KubeEvents } from '../store/ports/kube-events';
import type { MirrorSource } from '../store/ports/mirror-source-store';
import type { ObservationRecorder } from './observation';
import type { ReflectedResource } from './reflected-resource';

/**
 * Events about core/v1 Services, chosen by the source (core/v1 field selectors,
 * pkg/apis/core/v1/conversion.go). `involvedObject.apiVersion=v1` leaves out Knative's Service
 * (serving.knative.dev, also kind Service, whose Services share its name). The Events a svctrail
 * source derives from its own Services' log (reported by `svctrail`) are left out: the mirror
 * records those Services' writes and derives the same Events itself.
 */
export const EVENTS_ABOUT_SERVICES = `involvedObject.kind=Service,involvedObject.apiVersion=v1,reportingComponent!=${EVENT_SOURCE}`;

const PAGE = 1000;

export class ReflectedKubeEvents implements ReflectedResource<KubeEvent> {
  readonly resource = 'events';
  readonly description = 'Events about Services';
  readonly path = '/api/v1/events';
  readonly fieldSelector = EVENTS_ABOUT_SERVICES;

  constructor(
    readonly recorder: ObservationRecorder<KubeEvent>,
    private readonly events: KubeEvents,
  ) {}

  storedPosition(source: MirrorSource | null): string | null {
    return source?.eventsResourceVersion ?? null;
  }

  decode(raw: unknown): { object: KubeEvent; resourceVersion?: string } {
    // Lenient, as for Services: the source accepted it (no validation, no defaulting); fields svctrail does not know are kept.
    const { object } = decodeKubeEventValue({ ...(raw as object), kind: 'Event', apiVersion: 'v1' }, { fieldValidation: 'Ignore', keepUnknownFields: true });
    return { object: observedKubeEvent(object), resourceVersion: object.metadata.resourceVersion };
  }

  keyOf(object: KubeEvent): { namespace: string; name: string } {
    return { namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '' };
  }

  /** Every live Event the store holds: in mirror mode only this reflector writes Events. */
  async recordedNames(): Promise<string[]> {
    const names: string[] = [];
    let after: { namespace: string; name: string } | undefined;
    for (;;) {
      const rows = await this.events.liveNames(after, PAGE);
      for (const row of rows) names.push(`${row.namespace}/${row.name}`);
      if (rows.length < PAGE) return names;
      after = rows[rows.length - 1];
    }
  }
}
