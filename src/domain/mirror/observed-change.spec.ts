import fc from 'fast-check';
import { evolveAll, initialServiceState, type ServiceState } from '../service.evolve';
import type { Service } from '../service.types';
import { changedManager, decideObserved, decideObservedDeletion, observedObject, ObservedFoldError } from './observed-change';

/** A Service as a source API server serves it (its own resourceVersion, fields it defaulted). */
function sourceService(overrides: { uid?: string; rv?: string; status?: Service['status']; labels?: Record<string, string>; managedFields?: Service['metadata']['managedFields'] } = {}): Service {
  return {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: {
      name: 'web',
      namespace: 'default',
      uid: overrides.uid ?? 'uid-1',
      resourceVersion: overrides.rv ?? '5001',
      creationTimestamp: '2026-01-02T03:04:05Z',
      ...(overrides.labels ? { labels: overrides.labels } : {}),
      ...(overrides.managedFields ? { managedFields: overrides.managedFields } : {}),
    },
    // Not valid for svctrail's own create (no ports on a LoadBalancer Service, a foreign
    // trafficDistribution): the source accepted it, so the mirror records it as it is.
    spec: { type: 'ClusterIP', clusterIP: '10.0.0.9', clusterIPs: ['10.0.0.9'], trafficDistribution: 'PreferClose', sessionAffinity: 'None' },
    status: overrides.status ?? { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } },
  };
}

/** Records a decision as the store would (the write's resourceVersion) and returns the new state. */
function recorded(state: ServiceState, observed: Service | null, rv: number): ServiceState {
  const decision = decideObserved(state, observed === null ? null : observedObject(observed));
  return evolveAll(decision.created ? initialServiceState : state, decision.events, rv);
}

describe('decideObserved (mirror mode)', () => {
  it('given nothing recorded, when a Service is observed, then ServiceCreated carries the source object (uid, creation time, status) without its resourceVersion', () => {
    const decision = decideObserved(initialServiceState, observedObject(sourceService()));
    expect(decision).toMatchObject({ created: true, verb: 'create', streamId: 'uid-1', replaced: false });
    expect(decision.events).toHaveLength(1);
    const created = decision.events[0] as Extract<(typeof decision.events)[0], { type: 'ServiceCreated' }>;
    expect(created.data.object.metadata).toMatchObject({ uid: 'uid-1', creationTimestamp: '2026-01-02T03:04:05Z' });
    expect(created.data.object.metadata.resourceVersion).toBeUndefined();
    expect(created.data.object.spec.trafficDistribution).toBe('PreferClose');
    expect(created.data.object.status.loadBalancer?.ingress).toEqual([{ ip: '203.0.113.7' }]);
  });

  it('given a recorded Service, when the same state is observed again (resumed watch, relist), then no events', () => {
    const state = recorded(initialServiceState, sourceService(), 7);
    const decision = decideObserved(state, observedObject(sourceService({ rv: '9999' })));
    expect(decision.events).toEqual([]);
  });

  it('given a recorded Service, when its ingress changes at the source, then LoadBalancerIngressChanged as a direct status write would record it', () => {
    const state = recorded(initialServiceState, sourceService(), 7);
    const decision = decideObserved(state, observedObject(sourceService({ rv: '5002', status: { loadBalancer: { ingress: [{ ip: '203.0.113.8' }] } } })));
    expect(decision.events).toEqual([{ type: 'LoadBalancerIngressChanged', data: { ingress: [{ ip: '203.0.113.8' }], previous: [{ ip: '203.0.113.7' }] } }]);
    expect(decision.folded?.metadata.resourceVersion).toBe('7');
  });

  it('given a recorded Service, when the source shows another uid under the name, then the recorded one is deleted first (replaced)', () => {
    const state = recorded(initialServiceState, sourceService(), 7);
    const decision = decideObserved(state, observedObject(sourceService({ uid: 'uid-2' })));
    expect(decision).toMatchObject({ replaced: true, streamId: 'uid-1', events: [{ type: 'ServiceDeleted', data: {} }] });
  });

  it('given a recorded Service, when it is gone at the source, then ServiceDeleted; given nothing, then no events', () => {
    const state = recorded(initialServiceState, sourceService(), 7);
    expect(decideObserved(state, null).events).toEqual([{ type: 'ServiceDeleted', data: {} }]);
    expect(decideObserved(initialServiceState, null).events).toEqual([]);
  });

  it('given a recorded Service, when a DELETED event carries a final state, then its changes and the deletion are one write', () => {
    const state = recorded(initialServiceState, sourceService(), 7);
    const decision = decideObservedDeletion(state, observedObject(sourceService({ labels: { gone: 'yes' } })));
    expect(decision.events.map((e) => e.type)).toEqual(['ServiceMetadataChanged', 'ServiceDeleted']);
    expect(decision.verb).toBe('delete');
  });

  it('given a recorded Service, when the source starts a graceful deletion, then ServiceDeletionRequested with the source time', () => {
    const state = recorded(initialServiceState, sourceService(), 7);
    const deleting = observedObject(sourceService());
    deleting.metadata.deletionTimestamp = '2026-01-02T04:00:00Z';
    deleting.metadata.deletionGracePeriodSeconds = 0;
    deleting.metadata.finalizers = ['example.com/hold'];
    const decision = decideObserved(state, deleting);
    expect(decision.events.map((e) => e.type)).toEqual(['ServiceMetadataChanged', 'ServiceDeletionRequested']);
  });

  it('given a Service being deleted, when the source shows it without its deletionTimestamp, then the change is refused as inexpressible', () => {
    const deleting = observedObject(sourceService());
    deleting.metadata.deletionTimestamp = '2026-01-02T04:00:00Z';
    deleting.metadata.finalizers = ['example.com/hold'];
    const state = recorded(initialServiceState, deleting, 7);
    expect(() => decideObserved(state, observedObject(sourceService()))).toThrow(ObservedFoldError);
  });

  it('names the manager whose managedFields entry the write changed, and the status subresource when that entry is for status', () => {
    const before = [{ manager: 'kubectl', operation: 'Update', time: '2026-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }];
    const after = [...before, { manager: 'metallb-controller', operation: 'Update', subresource: 'status', time: '2026-01-02T03:05:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': {} } }];
    expect(changedManager(before, after)?.manager).toBe('metallb-controller');
    expect(changedManager(after, after)).toBeUndefined();
    const state = recorded(initialServiceState, sourceService({ managedFields: before }), 7);
    const decision = decideObserved(state, observedObject(sourceService({ managedFields: after, status: { loadBalancer: {} } })));
    expect(decision).toMatchObject({ fieldManager: 'metallb-controller', subresource: 'status', verb: 'update' });
  });

  it('property: for any sequence of observed states of one object, the recorded fold equals the last observed state', () => {
    const ingress = fc.array(fc.record({ ip: fc.constantFrom('203.0.113.1', '203.0.113.2', '198.51.100.9') }), { maxLength: 2 });
    const condition = fc.record({
      type: fc.constantFrom('Ready', 'Synced'),
      status: fc.constantFrom('True', 'False', 'Unknown'),
      reason: fc.constantFrom('A', 'B'),
      message: fc.constant(''),
      lastTransitionTime: fc.constant('2026-01-02T03:04:05Z'),
    });
    const observedState = fc.record({
      labels: fc.option(fc.dictionary(fc.constantFrom('app', 'tier'), fc.constantFrom('x', 'y')), { nil: undefined }),
      ingress,
      conditions: fc.array(condition, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(observedState, { minLength: 1, maxLength: 6 }), (states) => {
        let state = initialServiceState;
        let rv = 1;
        for (const s of states) {
          const status: Service['status'] = { loadBalancer: s.ingress.length ? { ingress: s.ingress } : {}, ...(s.conditions.length ? { conditions: s.conditions } : {}) };
          state = recorded(state, sourceService({ labels: s.labels, status }), ++rv);
          const expected = observedObject(sourceService({ labels: s.labels, status }));
          const got = { ...state.object!, metadata: { ...state.object!.metadata } };
          delete got.metadata.resourceVersion;
          expect(got).toEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('decideObserved: the subresource of a change managedFields do not explain', () => {
  it('given a recorded Service, when only its status changes and no managedFields entry moved, then the write is a status write', () => {
    const state = recorded(initialServiceState, sourceService(), 7);
    const decision = decideObserved(state, observedObject(sourceService({ status: { loadBalancer: { ingress: [{ ip: '203.0.113.99' }] } } })));
    expect(decision.subresource).toBe('status');
    const labelled = decideObserved(state, observedObject(sourceService({ labels: { a: 'b' } })));
    expect(labelled.subresource).toBe('');
  });
});
