// A PATCH body applied to the live Event and turned back into an Event exactly as a request body
// would be (handlers/patch.go): decoded with Go's rules; a patched object that does not decode is
// kube-apiserver's 422 at field `patch`. The patch applies to the Event in the version it was
// sent to (the patcher converts the stored object to the request's version first), so an
// events.k8s.io/v1 PATCH names `series`, `note`, `regarding`, … and its result is converted back.
import type { DecodeOptions, DecodeResult, FieldValidation } from '../domain/codec/object-decoder';
import { decodeEventsV1EventValue } from '../domain/codec/events-v1-event-decoder';
import { decodeKubeEventValue } from '../domain/codec/kube-event-decoder';
import { ObjectDecodeError } from '../domain/codec/object-decode-error';
import { coreFromEventsV1, eventsV1FromCore } from '../domain/kube-event/events-v1-conversion';
import type { EventsV1Event } from '../domain/kube-event/events-v1-event.types';
import type { EventApiVersion, KubeEvent } from '../domain/kube-event/kube-event.types';
import { applyPatchOutcome, type AppliedPatchType, patchedObjectInvalid } from './apply-patch';
import { eventsV1EventPatchSchema, kubeEventPatchSchema, type SmpType } from './patch-schema';

export interface KubeEventPatch {
  type: AppliedPatchType;
  body: string;
  fieldValidation: FieldValidation;
}

/** An Event API version as a patch sees it: the object patched, its SMP schema, and the way back. */
interface PatchedVersion<T> {
  served(stored: KubeEvent): object;
  strategicSchema: SmpType;
  decode(value: unknown, opts: DecodeOptions): DecodeResult<T>;
  stored(decoded: T): KubeEvent;
}

const CORE_V1: PatchedVersion<KubeEvent> = { served: (e) => e, strategicSchema: kubeEventPatchSchema, decode: decodeKubeEventValue, stored: (e) => e };
const EVENTS_K8S_IO_V1: PatchedVersion<EventsV1Event> = {
  served: eventsV1FromCore,
  strategicSchema: eventsV1EventPatchSchema,
  decode: decodeEventsV1EventValue,
  stored: coreFromEventsV1,
};

/** The patched, decoded Event (core/v1, as stored), plus the warnings for unknown fields (Warn). */
export function patchedKubeEvent(current: KubeEvent, patch: KubeEventPatch, api: EventApiVersion = 'v1'): { object: KubeEvent; warnings: string[] } {
  return api === 'v1' ? patchedAs(CORE_V1, current, patch) : patchedAs(EVENTS_K8S_IO_V1, current, patch);
}

function patchedAs<T>(version: PatchedVersion<T>, current: KubeEvent, patch: KubeEventPatch): { object: KubeEvent; warnings: string[] } {
  const outcome = applyPatchOutcome(version.served(current), patch.body, patch.type, { fieldValidation: patch.fieldValidation, strategicSchema: version.strategicSchema });
  let decoded;
  try {
    decoded = version.decode(outcome.patched, { fieldValidation: patch.fieldValidation === 'Ignore' ? 'Ignore' : 'Warn' });
  } catch (error) {
    if (error instanceof ObjectDecodeError) throw patchedObjectInvalid(outcome.patchedJson, error.decoderMessage);
    throw error;
  }
  const findings = [...outcome.strictErrors, ...decoded.warnings];
  if (patch.fieldValidation === 'Strict' && findings.length) {
    throw patchedObjectInvalid(outcome.patchedJson, `strict decoding error: ${findings.join(', ')}`);
  }
  return { object: version.stored(decoded.object), warnings: patch.fieldValidation === 'Ignore' ? [] : findings };
}
