// Event validation as kube-apiserver v1.32 runs it (pkg/apis/core/validation/events.go and the
// generic registry's ObjectMeta checks, rest.BeforeCreate / BeforeUpdate). core/v1 writes get the
// lenient legacy rules, so old recorders keep working; events.k8s.io/v1 writes get the strict ones.
import { type FieldError, fieldErrors, GoLiteral, goQuote } from '../errors/field-error';
import { GO_NULL, goTimeLiteral } from '../validation/bad-values';
import { isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain, validatePathSegmentName } from '../validation/name-validation';
import { validateGenericObjectMeta, validateGenericObjectMetaUpdate, validateObjectMetaCreate, validateObjectMetaUpdate } from '../validation/object-meta.validation';
import { sameJson } from '../json-equality';
import type { EventApiVersion, EventSource, KubeEvent, ObjectReference } from './kube-event.types';

export const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
export const ACTION_LENGTH_LIMIT = 128;
export const REASON_LENGTH_LIMIT = 128;
export const NOTE_LENGTH_LIMIT = 1024;

const unset = (time: string | null | undefined): boolean => !time;

/** `%#v` of a core.ObjectReference (ErrorBody's fallback for a struct BadValue). */
function goObjectReference(ref: ObjectReference | undefined): GoLiteral {
  const r = ref ?? {};
  return new GoLiteral(
    `core.ObjectReference{Kind:${goQuote(r.kind ?? '')}, Namespace:${goQuote(r.namespace ?? '')}, Name:${goQuote(r.name ?? '')}, UID:${goQuote(r.uid ?? '')}, ` +
      `APIVersion:${goQuote(r.apiVersion ?? '')}, ResourceVersion:${goQuote(r.resourceVersion ?? '')}, FieldPath:${goQuote(r.fieldPath ?? '')}}`,
  );
}

function goEventSource(source: EventSource | undefined): GoLiteral {
  return new GoLiteral(`core.EventSource{Component:${goQuote(source?.component ?? '')}, Host:${goQuote(source?.host ?? '')}}`);
}

/** A metav1.MicroTime BadValue: time.Time's String(), its fraction kept to the microsecond. */
function goMicroTimeLiteral(value: string | null | undefined): GoLiteral {
  const match = value ? /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/.exec(value) : null;
  if (!match) return goTimeLiteral(value);
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  return new GoLiteral(`${match[1]} ${match[2]}${fraction ? `.${fraction}` : ''} +0000 UTC`);
}

/** legacyValidateEvent: what every Event must pass, whichever API wrote it. */
function legacyValidateEvent(event: KubeEvent): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = event.metadata.namespace ?? '';
  const involvedNamespace = event.involvedObject?.namespace ?? '';
  const mismatch = () => fieldErrors.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (unset(event.eventTime)) {
    // "Old" Events: the involved object's namespace must be the Event's ("" or default for cluster-scoped objects).
    if (involvedNamespace === '') {
      if (namespace !== '' && namespace !== 'default') errs.push(mismatch());
    } else if (namespace !== involvedNamespace) errs.push(mismatch());
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== 'kube-system') errs.push(mismatch());
    const controller = event.reportingComponent ?? '';
    if (controller === '') errs.push(fieldErrors.required('reportingController'));
    for (const msg of isQualifiedName(controller)) errs.push(fieldErrors.invalid('reportingController', controller, msg));
    const instance = event.reportingInstance ?? '';
    if (instance === '') errs.push(fieldErrors.required('reportingInstance'));
    if (instance.length > REPORTING_INSTANCE_LENGTH_LIMIT) errs.push(fieldErrors.invalid('reportingInstance', '', `can have at most ${REPORTING_INSTANCE_LENGTH_LIMIT} characters`));
    const action = event.action ?? '';
    if (action === '') errs.push(fieldErrors.required('action'));
    if (action.length > ACTION_LENGTH_LIMIT) errs.push(fieldErrors.invalid('action', '', `can have at most ${ACTION_LENGTH_LIMIT} characters`));
    const reason = event.reason ?? '';
    if (reason === '') errs.push(fieldErrors.required('reason'));
    if (reason.length > REASON_LENGTH_LIMIT) errs.push(fieldErrors.invalid('reason', '', `can have at most ${REASON_LENGTH_LIMIT} characters`));
    if ((event.message ?? '').length > NOTE_LENGTH_LIMIT) errs.push(fieldErrors.invalid('message', '', `can have at most ${NOTE_LENGTH_LIMIT} characters`));
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(fieldErrors.invalid('namespace', namespace, msg));
  return errs;
}

function validateV1EventSeries(event: KubeEvent): FieldError[] {
  const errs: FieldError[] = [];
  if (event.series) {
    if ((event.series.count ?? 0) < 2) errs.push(fieldErrors.invalid('series.count', '', 'should be at least 2'));
    if (unset(event.series.lastObservedTime)) errs.push(fieldErrors.required('series.lastObservedTime'));
  }
  return errs;
}

/**
 * ValidateEventCreate, then (as rest.BeforeCreate does after the strategy's own checks) the
 * generic ObjectMeta rules with path-segment names.
 */
export function validateKubeEventCreate(event: KubeEvent, api: EventApiVersion): FieldError[] {
  const errs = legacyValidateEvent(event);
  if (api === 'events.k8s.io/v1') {
    errs.push(...validateObjectMetaCreate(event.metadata, { nameFn: nameIsDNSSubdomain, namespaced: true }));
    errs.push(...validateV1EventSeries(event));
    if (unset(event.eventTime)) errs.push(fieldErrors.required('eventTime'));
    const type = event.type ?? '';
    if (type !== 'Normal' && type !== 'Warning') errs.push(fieldErrors.invalid('type', '', `has invalid value: ${type}`));
    if (!unset(event.firstTimestamp)) errs.push(fieldErrors.invalid('firstTimestamp', '', 'needs to be unset'));
    if (!unset(event.lastTimestamp)) errs.push(fieldErrors.invalid('lastTimestamp', '', 'needs to be unset'));
    if ((event.count ?? 0) !== 0) errs.push(fieldErrors.invalid('count', '', 'needs to be unset'));
    if (event.source?.component || event.source?.host) errs.push(fieldErrors.invalid('source', '', 'needs to be unset'));
  }
  if (errs.length) return errs;
  return validateGenericObjectMeta(event.metadata, { nameFn: validatePathSegmentName, namespaced: true });
}

/** ValidateImmutableField: `Invalid value: <new>: field is immutable` when the value changed. */
function immutable(path: string, next: unknown, old: unknown, badValue: unknown): FieldError[] {
  return sameJson(next ?? null, old ?? null) ? [] : [fieldErrors.invalid(path, badValue, 'field is immutable')];
}

/** rest.BeforeUpdate: the generic ObjectMeta rules (validateCommonFields), then ValidateEventUpdate, in one list. */
export function validateKubeEventUpdate(next: KubeEvent, old: KubeEvent, api: EventApiVersion): FieldError[] {
  const errs = [
    ...validateGenericObjectMeta(next.metadata, { nameFn: validatePathSegmentName, namespaced: true }),
    ...validateGenericObjectMetaUpdate(next.metadata, old.metadata),
    ...legacyValidateEvent(next),
  ];
  if (api === 'events.k8s.io/v1') {
    errs.push(...validateObjectMetaUpdate(next.metadata, old.metadata));
    if (!sameJson(next.series ?? null, old.series ?? null)) errs.push(...validateV1EventSeries(next));
    const str = (v: string | undefined) => v ?? '';
    const time = (v: string | null | undefined) => v ?? null;
    errs.push(
      ...immutable('involvedObject', next.involvedObject, old.involvedObject, goObjectReference(next.involvedObject)),
      ...immutable('reason', str(next.reason), str(old.reason), str(next.reason)),
      ...immutable('message', str(next.message), str(old.message), str(next.message)),
      ...immutable(
        'source',
        { component: str(next.source?.component), host: str(next.source?.host) },
        { component: str(old.source?.component), host: str(old.source?.host) },
        goEventSource(next.source),
      ),
      ...immutable('firstTimestamp', time(next.firstTimestamp), time(old.firstTimestamp), goTimeLiteral(next.firstTimestamp)),
      ...immutable('lastTimestamp', time(next.lastTimestamp), time(old.lastTimestamp), goTimeLiteral(next.lastTimestamp)),
      ...immutable('count', next.count ?? 0, old.count ?? 0, next.count ?? 0),
      // (Upstream checks reason twice.)
      ...immutable('reason', str(next.reason), str(old.reason), str(next.reason)),
      ...immutable('type', str(next.type), str(old.type), str(next.type)),
      ...immutable('eventTime', time(next.eventTime), time(old.eventTime), goMicroTimeLiteral(next.eventTime)),
      ...immutable('action', str(next.action), str(old.action), str(next.action)),
      ...immutable('related', next.related ?? null, old.related ?? null, next.related ? goObjectReference(next.related) : GO_NULL),
      ...immutable('reportingController', str(next.reportingComponent), str(old.reportingComponent), str(next.reportingComponent)),
      ...immutable('reportingInstance', str(next.reportingInstance), str(old.reportingInstance), str(next.reportingInstance)),
    );
  }
  return errs;
}
