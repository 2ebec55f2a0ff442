// The Event decisions with field ownership wired in as KubeEventWriteRunner wires it: the
// engine's FieldManager.Update for the API version the write came through (field-management/).
import { formatTime } from '../service.decider';
import { kubeEventManagedKind, updateManagedFields } from '../field-management';
import type { ManagedFieldsEntry } from '../service.types';
import { decideKubeEventCreate, decideKubeEventReplace, type KubeEventDecision, type KubeEventDecisionContext } from './kube-event.decider';
import { evolveKubeEvent, initialKubeEventState, type KubeEventState } from './kube-event.evolve';
import type { EventApiVersion, KubeEvent } from './kube-event.types';

const T0 = Date.parse('2026-12-07T10:00:00Z');

function context(manager: string, at: number): KubeEventDecisionContext {
  const now = new Date(at);
  return {
    now,
    newUid: () => '00000000-0000-4000-8000-000000000001',
    managedFields: (live, updated, api) => updateManagedFields({ live, updated, manager, subresource: '', now: formatTime(now) }, kubeEventManagedKind(api)),
  };
}

function recorded(overrides: Partial<KubeEvent> = {}): KubeEvent {
  return {
    metadata: { name: 'web.1', namespace: 'ev' },
    involvedObject: { kind: 'Service', namespace: 'ev', name: 'web', uid: 'svc-uid', apiVersion: 'v1' },
    reason: 'EnsuringLoadBalancer',
    message: 'Ensuring load balancer',
    source: { component: 'service-controller' },
    firstTimestamp: '2026-12-07T10:00:00Z',
    lastTimestamp: '2026-12-07T10:00:00Z',
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: 'service-controller',
    reportingInstance: '',
    ...overrides,
  };
}

const folded = (state: KubeEventState, decision: KubeEventDecision, position: number) => decision.facts.reduce((s, f) => evolveKubeEvent(s, f, position), state);
const replace = (object: KubeEvent, api: EventApiVersion = 'v1') => ({ kind: 'ReplaceKubeEvent' as const, namespace: 'ev', name: 'web.1', object, api });

/** given: the recorder's Event, created through core/v1 by kube-controller-manager. */
function createdByRecorder(): KubeEventState {
  const decision = decideKubeEventCreate({ kind: 'CreateKubeEvent', namespace: 'ev', object: recorded(), api: 'v1' }, initialKubeEventState, context('kube-controller-manager', T0));
  return folded(initialKubeEventState, decision, 1);
}

describe('Event decisions with field ownership', () => {
  it('given the recorder, when it creates an Event, then the stored fact carries its Update entry', () => {
    const state = createdByRecorder();
    expect(state.object!.metadata.managedFields).toEqual([
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-12-07T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:count': {},
          'f:firstTimestamp': {},
          'f:involvedObject': {},
          'f:lastTimestamp': {},
          'f:message': {},
          'f:reason': {},
          'f:reportingComponent': {},
          'f:source': { 'f:component': {} },
          'f:type': {},
        },
      },
    ]);
  });

  it('given a stored Event, when a PUT echoes it with its managedFields only a minute newer, then nothing is written (the stored times stay)', () => {
    const state = createdByRecorder();
    const live = state.object!;
    const echoed: ManagedFieldsEntry[] = live.metadata.managedFields!.map((e) => ({ ...e, time: '2026-12-07T10:01:00Z' }));
    const decision = decideKubeEventReplace(replace({ ...live, metadata: { ...live.metadata, managedFields: echoed } }), state, context('kube-controller-manager', T0 + 60_000));
    expect(decision.facts).toEqual([]);
    expect(decision.unchanged).toBe(live);
  });

  it('given a stored Event, when another manager changes the message, then the update fact moves the message to it', () => {
    const state = createdByRecorder();
    const decision = decideKubeEventReplace(replace({ ...state.object!, message: 'edited' }), state, context('kubectl-edit', T0 + 5_000));
    const entries = folded(state, decision, 2).object!.metadata.managedFields!;
    expect(entries.map((e) => [e.manager, e.time, Object.keys(e.fieldsV1!)])).toEqual([
      ['kube-controller-manager', '2026-12-07T10:00:00Z', ['f:count', 'f:firstTimestamp', 'f:involvedObject', 'f:lastTimestamp', 'f:reason', 'f:reportingComponent', 'f:source', 'f:type']],
      ['kubectl-edit', '2026-12-07T10:00:05Z', ['f:message']],
    ]);
  });

  it('given a stored Event, when it is written through events.k8s.io/v1, then the entry is recorded under events.k8s.io/v1 in its field names and the core/v1 one is dropped', () => {
    const state = createdByRecorder();
    // Through events.k8s.io/v1 an existing Event may only change its metadata and series (ValidateEventUpdate).
    const live = state.object!;
    const next = { ...live, metadata: { ...live.metadata, labels: { team: 'lb' } }, series: { count: 2, lastObservedTime: '2026-12-07T10:00:05.000000Z' } };
    const decision = decideKubeEventReplace(replace(next, 'events.k8s.io/v1'), state, context('kube-scheduler', T0 + 5_000));
    expect(folded(state, decision, 2).object!.metadata.managedFields).toEqual([
      {
        manager: 'kube-scheduler',
        operation: 'Update',
        apiVersion: 'events.k8s.io/v1',
        time: '2026-12-07T10:00:05Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } }, 'f:series': { '.': {}, 'f:count': {}, 'f:lastObservedTime': {} } },
      },
    ]);
  });

  it('given an events.k8s.io/v1 recorder, when it creates an Event, then it owns the events.k8s.io/v1 fields it set', () => {
    const event = recorded({
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      count: undefined,
      eventTime: '2026-12-07T10:00:00.123456Z',
      action: 'Binding',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-node-1',
    });
    const decision = decideKubeEventCreate({ kind: 'CreateKubeEvent', namespace: 'ev', object: event, api: 'events.k8s.io/v1' }, initialKubeEventState, context('kube-scheduler', T0));
    const [entry] = folded(initialKubeEventState, decision, 1).object!.metadata.managedFields!;
    expect(entry).toMatchObject({ manager: 'kube-scheduler', operation: 'Update', apiVersion: 'events.k8s.io/v1' });
    expect(JSON.stringify(entry.fieldsV1)).toBe('{"f:action":{},"f:eventTime":{},"f:note":{},"f:reason":{},"f:regarding":{},"f:reportingController":{},"f:reportingInstance":{},"f:type":{}}');
  });

  it('given a context without managedFields, when an Event is created, then it keeps none', () => {
    const decision = decideKubeEventCreate({ kind: 'CreateKubeEvent', namespace: 'ev', object: recorded(), api: 'v1' }, initialKubeEventState, { now: new Date(T0), newUid: () => 'u' });
    expect(folded(initialKubeEventState, decision, 1).object!.metadata.managedFields).toBeUndefined();
  });
});
