// Server-side apply of an Event (applied-object.ts), through core/v1: the merged object is
// decoded as an Event body is. Events have no defaulting (pkg/apis/core/v1/defaults.go has no
// SetDefaults_Event).
import { decodeKubeEventValue } from '../domain/codec/kube-event-decoder';
import { CORE_EVENT_MANAGED_KIND } from '../domain/field-management';
import type { KubeEvent } from '../domain/kube-event/kube-event.types';
import { type AppliedKind, type AppliedObject, appliedObject, type ApplyPatch, type ApplyWrite } from './applied-object';

const APPLIED_CORE_EVENT: AppliedKind<KubeEvent> = { fields: CORE_EVENT_MANAGED_KIND, decode: decodeKubeEventValue, defaults: (event) => event };

export function appliedKubeEvent(current: KubeEvent | null, patch: ApplyPatch, write: ApplyWrite): AppliedObject<KubeEvent> {
  return appliedObject(APPLIED_CORE_EVENT, current, patch, write);
}
