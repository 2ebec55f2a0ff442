// Server-side apply of an Event (applied-object.ts), through core/v1 or events.k8s.io/v1: the
// configuration merges into the Event as that version serves it, and the merged object is decoded
// as a body of that version is, then converted to the stored core/v1 form. Events have no
// defaulting (pkg/apis/core/v1/defaults.go has no SetDefaults_Event).
import { decodeEventsV1EventValue } from '../domain/codec/events-v1-event-decoder';
import { decodeKubeEventValue } from '../domain/codec/kube-event-decoder';
import { CORE_EVENT_MANAGED_KIND, EVENTS_V1_EVENT_MANAGED_KIND } from '../domain/field-management';
import { coreFromEventsV1 } from '../domain/kube-event/events-v1-conversion';
import type { EventApiVersion, KubeEvent } from '../domain/kube-event/kube-event.types';
import { type AppliedKind, type AppliedObject, appliedObject, type ApplyPatch, type ApplyWrite } from './applied-object';

const APPLIED_CORE_EVENT: AppliedKind<KubeEvent> = { fields: CORE_EVENT_MANAGED_KIND, decode: decodeKubeEventValue, defaults: (event) => event };

const APPLIED_EVENTS_V1_EVENT: AppliedKind<KubeEvent> = {
  fields: EVENTS_V1_EVENT_MANAGED_KIND,
  decode: (value, opts) => {
    const decoded = decodeEventsV1EventValue(value, opts);
    return { object: coreFromEventsV1(decoded.object), warnings: decoded.warnings };
  },
  defaults: (event) => event,
};

export function appliedKubeEvent(current: KubeEvent | null, patch: ApplyPatch, write: ApplyWrite, api: EventApiVersion): AppliedObject<KubeEvent> {
  return appliedObject(api === 'v1' ? APPLIED_CORE_EVENT : APPLIED_EVENTS_V1_EVENT, current, patch, write);
}
