// Field ownership of core/v1 Events, as kube-apiserver 1.32 records it. The expected FieldsV1
// follow from upstream: client-go tools/record/event.go (makeEvent, generateEvent: what a recorder
// sets; events_cache.go eventObserve: its repeat patches count, lastTimestamp and message),
// kubernetes/api core/v1/types.go (ObjectReference +structType=atomic, reportingComponent and
// reportingInstance without omitempty), apimachinery managedfields/internal/stripmeta.go and
// structured-merge-diff typed/compare.go (a write owns what differs from the empty Event).
import { decodeKubeEventValue } from '../codec/kube-event-decoder';
import { BadRequestError } from '../errors/domain-errors';
import type { KubeEvent } from '../kube-event/kube-event.types';
import type { ManagedFieldsEntry } from '../service.types';
import { ApplyConflictError } from './apply-conflict.error';
import { applyConfiguration, updateManagedFields } from './field-manager';
import { CORE_EVENT_MANAGED_KIND } from './kube-event-managed-kind';
import { ignoreManagedFieldsTimestamps } from './managed-fields-timestamps';

const T0 = '2026-12-07T10:00:00Z';
const T1 = '2026-12-07T10:00:05Z';
const T2 = '2026-12-07T10:01:00Z';
const RECORDER = 'kube-controller-manager';

/** What makeEvent + generateEvent send for a Service's controller (no host: reportingInstance ""). */
function recorderEvent(overrides: Partial<KubeEvent> = {}): KubeEvent {
  return {
    metadata: { name: 'web.187f0e1a2b3c4d01', namespace: 'ev' },
    involvedObject: { kind: 'Service', namespace: 'ev', name: 'web', uid: 'svc-uid', apiVersion: 'v1', resourceVersion: '1' },
    reason: 'EnsuringLoadBalancer',
    message: 'Ensuring load balancer',
    source: { component: 'service-controller' },
    firstTimestamp: T0,
    lastTimestamp: T0,
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: 'service-controller',
    reportingInstance: '',
    ...overrides,
  };
}

/** What the registry stores: system metadata filled in, the write's managedFields set. */
function stored(event: KubeEvent, managedFields: ManagedFieldsEntry[] | undefined): KubeEvent {
  const metadata = { ...event.metadata, uid: 'ev-uid', creationTimestamp: T0 };
  if (managedFields) return { ...event, metadata: { ...metadata, managedFields } };
  delete metadata.managedFields;
  return { ...event, metadata };
}

/** given/when: a create (POST) by `manager`. */
function created(event: KubeEvent, manager = RECORDER, now = T0): KubeEvent {
  return stored(event, updateManagedFields({ live: undefined, updated: event, manager, subresource: '', now }, CORE_EVENT_MANAGED_KIND));
}

/** when: a PUT or non-apply PATCH leaving `next`. */
function written(live: KubeEvent, next: KubeEvent, manager: string, now: string): KubeEvent {
  return stored(next, updateManagedFields({ live, updated: next, manager, subresource: '', now }, CORE_EVENT_MANAGED_KIND));
}

/** when: an apply; the merged object is decoded as kube does after merging. */
function applied(live: KubeEvent | undefined, config: Record<string, unknown>, manager: string, now: string, force = false): KubeEvent {
  const out = applyConfiguration({ live, config, manager, subresource: '', force, now }, CORE_EVENT_MANAGED_KIND);
  return stored(decodeKubeEventValue(out.object, { fieldValidation: 'Strict' }).object, out.managedFields);
}

const owned = (event: KubeEvent) => Object.fromEntries((event.metadata.managedFields ?? []).map((e) => [`${e.manager}/${e.operation}/${e.apiVersion}`, JSON.stringify(e.fieldsV1)]));
const times = (event: KubeEvent) => (event.metadata.managedFields ?? []).map((e) => `${e.manager}@${e.time}`);

const RECORDER_FIELDS =
  '{"f:count":{},"f:firstTimestamp":{},"f:involvedObject":{},"f:lastTimestamp":{},"f:message":{},"f:reason":{},"f:reportingComponent":{},"f:source":{"f:component":{}},"f:type":{}}';

function conflictOf(fn: () => unknown): ApplyConflictError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApplyConflictError) return e;
    throw e;
  }
  throw new Error('expected a conflict');
}

const config = (fields: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.187f0e1a2b3c4d01', namespace: 'ev' }, ...fields });

describe('managedFields of core/v1 Events on Update operations', () => {
  it("given the legacy recorder's POST, when recorded, then one Update entry owns what makeEvent set, involvedObject whole, nothing of eventTime or reportingInstance", () => {
    expect(created(recorderEvent()).metadata.managedFields).toEqual([
      { manager: RECORDER, operation: 'Update', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: JSON.parse(RECORDER_FIELDS) },
    ]);
    expect(JSON.stringify(created(recorderEvent()).metadata.managedFields![0].fieldsV1)).toBe(RECORDER_FIELDS);
  });

  it.each([
    [
      'a host (reportingInstance and source.host)',
      { source: { component: 'kubelet', host: 'node-1' }, reportingComponent: 'kubelet', reportingInstance: 'node-1' },
      ['"f:reportingInstance":{}', '"f:source":{"f:component":{},"f:host":{}}'],
    ],
    [
      'an eventTime and a series',
      { eventTime: '2026-12-07T10:00:00.000000Z', series: { count: 2, lastObservedTime: '2026-12-07T10:00:05.000000Z' } },
      ['"f:eventTime":{}', '"f:series":{".":{},"f:count":{},"f:lastObservedTime":{}}'],
    ],
    [
      'annotations and a related object',
      { metadata: { name: 'web.1', namespace: 'ev', annotations: { a: 'b' } }, related: { kind: 'Pod', name: 'p' } },
      ['"f:metadata":{"f:annotations":{".":{},"f:a":{}}}', '"f:related":{}'],
    ],
  ])('given a POST with %s, when recorded, then those fields are owned too', (_, overrides, fragments) => {
    const fields = owned(created(recorderEvent(overrides)))[`${RECORDER}/Update/v1`];
    for (const fragment of fragments) expect(fields).toContain(fragment);
  });

  it("given a recorded Event, when the recorder's repeat patches count, lastTimestamp and message, then it owns the same fields and its time moves", () => {
    const live = created(recorderEvent());
    const after = written(live, { ...live, count: 2, lastTimestamp: T1, message: 'Ensuring load balancer again' }, RECORDER, T1);
    expect(owned(after)).toEqual({ [`${RECORDER}/Update/v1`]: RECORDER_FIELDS });
    expect(times(after)).toEqual([`${RECORDER}@${T1}`]);
  });

  it('given a recorded Event, when another manager changes the message, then the message moves to it and the recorder keeps the rest', () => {
    const live = created(recorderEvent());
    const after = written(live, { ...live, message: 'edited' }, 'kubectl-edit', T1);
    expect(owned(after)).toEqual({
      [`${RECORDER}/Update/v1`]: RECORDER_FIELDS.replace('"f:message":{},', ''),
      'kubectl-edit/Update/v1': '{"f:message":{}}',
    });
  });

  it('given a write that changes nothing, when recorded, then the entries and their times stay', () => {
    const live = created(recorderEvent());
    expect(written(live, { ...live }, RECORDER, T1).metadata.managedFields).toEqual(live.metadata.managedFields);
  });

  it('given an Event stored before Events had managedFields, when it is updated, then it stays untracked (skipnonapplied)', () => {
    const legacy = stored(recorderEvent(), undefined);
    expect(written(legacy, { ...legacy, count: 2 }, RECORDER, T1).metadata.managedFields).toBeUndefined();
  });

  it('given an entry recorded through events.k8s.io/v1, when the Event is written through core/v1, then that entry is dropped', () => {
    const viaEventsApi: ManagedFieldsEntry = {
      manager: 'kube-scheduler',
      operation: 'Update',
      apiVersion: 'events.k8s.io/v1',
      time: T0,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:note': {}, 'f:regarding': {} },
    };
    const live = stored(recorderEvent(), [viaEventsApi, ...created(recorderEvent()).metadata.managedFields!]);
    const after = written(live, { ...live, count: 2 }, RECORDER, T1);
    expect(Object.keys(owned(after))).toEqual([`${RECORDER}/Update/v1`]);
  });
});

describe('server-side apply of core/v1 Events', () => {
  it('given no Event, when applied, then the Apply entry owns exactly the applied fields', () => {
    const event = applied(undefined, config({ involvedObject: { kind: 'Service', namespace: 'ev', name: 'web' }, reason: 'Synced', message: 'ok', type: 'Normal' }), 'ops', T0);
    expect(event.metadata.managedFields).toEqual([
      { manager: 'ops', operation: 'Apply', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:involvedObject': {}, 'f:message': {}, 'f:reason': {}, 'f:type': {} } },
    ]);
  });

  it.each([
    ['message', { message: 'mine' }, 'Apply failed with 1 conflict: conflict with "kube-controller-manager" using v1: .message', ['.message']],
    [
      'one field of involvedObject (atomic)',
      { involvedObject: { kind: 'Service', namespace: 'ev', name: 'other' } },
      'Apply failed with 1 conflict: conflict with "kube-controller-manager" using v1: .involvedObject',
      ['.involvedObject'],
    ],
    [
      'source.component and count',
      { source: { component: 'mine' }, count: 7 },
      'Apply failed with 2 conflicts: conflicts with "kube-controller-manager" using v1:\n- .count\n- .source.component',
      ['.count', '.source.component'],
    ],
  ])("given the recorder's Event, when another manager applies a different %s, then 409 with kube's message and causes", (_, fields, message, causes) => {
    const err = conflictOf(() => applied(created(recorderEvent()), config(fields), 'ops', T1));
    expect(err.message).toBe(message);
    expect(err.details!.causes).toEqual(causes.map((field) => ({ reason: 'FieldManagerConflict', message: 'conflict with "kube-controller-manager" using v1', field })));
  });

  it('given a conflict, when the apply is forced, then the field moves to the applier and the recorder keeps the rest', () => {
    const event = applied(created(recorderEvent()), config({ message: 'mine' }), 'ops', T1, true);
    expect(event.message).toBe('mine');
    expect(owned(event)).toEqual({ 'ops/Apply/v1': '{"f:message":{}}', [`${RECORDER}/Update/v1`]: RECORDER_FIELDS.replace('"f:message":{},', '') });
  });

  it('given an applied Event, when the same configuration is applied again, then nothing changes and the time stays', () => {
    const first = applied(undefined, config({ involvedObject: { kind: 'Service', name: 'web' }, reason: 'Synced' }), 'ops', T0);
    const out = applyConfiguration(
      { live: first, config: config({ involvedObject: { kind: 'Service', name: 'web' }, reason: 'Synced' }), manager: 'ops', subresource: '', force: false, now: T2 },
      CORE_EVENT_MANAGED_KIND,
    );
    expect(out.changed).toBe(false);
    expect(out.managedFields).toEqual(first.metadata.managedFields);
  });

  it('given an Event stored before Events had managedFields, when first applied, then before-first-apply owns what was there', () => {
    const legacy = stored(recorderEvent(), undefined);
    const event = applied(legacy, config({ type: 'Warning' }), 'ops', T1, true);
    expect(owned(event)).toEqual({ 'ops/Apply/v1': '{"f:type":{}}', 'before-first-apply/Update/v1': RECORDER_FIELDS.replace(',"f:type":{}', '') });
  });

  it.each([
    ['a Service', { apiVersion: 'v1', kind: 'Service' }, 'invalid object type: /v1, Kind=Service'],
    ['an events.k8s.io/v1 Event', { apiVersion: 'events.k8s.io/v1', kind: 'Event' }, 'invalid object type: events.k8s.io/v1, Kind=Event'],
  ])('given a configuration of %s, when applied to core/v1 Events, then 400', (_, typeMeta, message) => {
    expect(() => applyConfiguration({ live: undefined, config: { ...typeMeta, metadata: { name: 'e' } }, manager: 'ops', subresource: '', force: false, now: T0 }, CORE_EVENT_MANAGED_KIND)).toThrow(
      new BadRequestError(message),
    );
  });
});

describe('managedFields times of core/v1 Events', () => {
  it('given a write whose only change is newer managedFields times, when checked, then the stored times are kept and the bytes are the stored ones', () => {
    const live = created(recorderEvent());
    const next = { ...live, metadata: { ...live.metadata, managedFields: live.metadata.managedFields!.map((e) => ({ ...e, time: T2 })) } };
    expect(JSON.stringify(ignoreManagedFieldsTimestamps(live, next, CORE_EVENT_MANAGED_KIND))).toBe(JSON.stringify(CORE_EVENT_MANAGED_KIND.encode(live)));
  });

  it('given a write that also changed the Event, when checked, then the new times stay', () => {
    const live = created(recorderEvent());
    const next = written(live, { ...live, count: 2 }, RECORDER, T2);
    expect(times(ignoreManagedFieldsTimestamps(live, next, CORE_EVENT_MANAGED_KIND))).toEqual([`${RECORDER}@${T2}`]);
  });
});
