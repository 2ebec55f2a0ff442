import fc from 'fast-check';
import { evolveKubeEvent, initialKubeEventState, type KubeEventState } from '../kube-event/kube-event.evolve';
import type { KubeEvent } from '../kube-event/kube-event.types';
import { decodeKubeEventValue } from '../codec/kube-event-decoder';
import { decideObservedKubeEvent, decideObservedKubeEventDeletion, observedKubeEvent } from './observed-kube-event-change';
import { ObservedFoldError } from './observed-change';

/** An Event as a source API server serves it: its own uid, resourceVersion, times and count. */
function sourceEvent(overrides: { uid?: string; rv?: string; count?: number; message?: string; managedFields?: KubeEvent['metadata']['managedFields'] } = {}): KubeEvent {
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: {
      name: 'web.18a2b3c4d5e6f708',
      namespace: 'default',
      uid: overrides.uid ?? 'event-uid-1',
      resourceVersion: overrides.rv ?? '7001',
      creationTimestamp: '2026-01-02T03:04:05Z',
      ...(overrides.managedFields ? { managedFields: overrides.managedFields } : {}),
    },
    involvedObject: { kind: 'Service', namespace: 'default', name: 'web', uid: 'svc-uid', apiVersion: 'v1', resourceVersion: '6000' },
    reason: 'EnsuringLoadBalancer',
    // Longer than the events.k8s.io limit and with an odd type: the source accepted it, so it is kept.
    message: overrides.message ?? 'x'.repeat(1500),
    source: { component: 'service-controller' },
    firstTimestamp: '2026-01-02T03:04:05Z',
    lastTimestamp: '2026-01-02T03:04:05Z',
    count: overrides.count ?? 1,
    type: 'Odd',
    eventTime: null,
    reportingComponent: 'service-controller',
    reportingInstance: '',
  };
}

/** Records a decision as the store would (the write's resourceVersion) and returns the new state. */
function recorded(state: KubeEventState, observed: KubeEvent | null, rv: number): KubeEventState {
  const decision = observed === null ? decideObservedKubeEventDeletion(state, null) : decideObservedKubeEvent(state, observedKubeEvent(observed));
  return decision.fact ? evolveKubeEvent(decision.created ? initialKubeEventState : state, decision.fact, rv) : state;
}

describe('decideObservedKubeEvent (mirror mode)', () => {
  it('given nothing recorded, when an Event is observed, then KubeEventCreated holds the source Event (uid, times, count) without its resourceVersion and without a lease', () => {
    const decision = decideObservedKubeEvent(initialKubeEventState, observedKubeEvent(sourceEvent()));
    expect(decision).toMatchObject({ created: true, verb: 'create', streamId: 'event-uid-1', replaced: false });
    expect(decision.fact?.type).toBe('KubeEventCreated');
    const object = decision.fact!.data.object;
    expect(object.metadata).toEqual({ name: 'web.18a2b3c4d5e6f708', namespace: 'default', uid: 'event-uid-1', creationTimestamp: '2026-01-02T03:04:05Z' });
    expect(object).toMatchObject({ type: 'Odd', count: 1, reportingComponent: 'service-controller', message: 'x'.repeat(1500) });
    expect('expiresAt' in decision.fact!.data).toBe(false);
  });

  it('given a recorded Event, when the same state is observed again (a resumed watch, a relist), then no fact', () => {
    const state = recorded(initialKubeEventState, sourceEvent(), 7);
    const decision = decideObservedKubeEvent(state, observedKubeEvent(sourceEvent({ rv: '9999' })));
    expect(decision.fact).toBeUndefined();
    expect(decision).toMatchObject({ created: false, streamId: 'event-uid-1', replaced: false });
  });

  it('given a recorded Event, when its count is bumped at the source (a recorder PATCH), then KubeEventUpdated holds the whole Event after it', () => {
    const state = recorded(initialKubeEventState, sourceEvent(), 7);
    const decision = decideObservedKubeEvent(state, observedKubeEvent(sourceEvent({ rv: '7002', count: 2, message: 'again' })));
    expect(decision).toMatchObject({ created: false, verb: 'update', streamId: 'event-uid-1', replaced: false });
    expect(decision.fact).toEqual({ type: 'KubeEventUpdated', data: { object: observedKubeEvent(sourceEvent({ count: 2, message: 'again' })) } });
  });

  it('given a recorded Event, when the source shows another uid under its name, then the recorded one is deleted first (replaced), and the observed one is created after', () => {
    const state = recorded(initialKubeEventState, sourceEvent(), 7);
    const decision = decideObservedKubeEvent(state, observedKubeEvent(sourceEvent({ uid: 'event-uid-2' })));
    expect(decision).toMatchObject({ verb: 'delete', streamId: 'event-uid-1', replaced: true, created: false });
    expect(decision.fact?.type).toBe('KubeEventDeleted');
    const ended = evolveKubeEvent(state, decision.fact!, 8);
    expect(ended.object).toBeNull();
    expect(decideObservedKubeEvent(ended, observedKubeEvent(sourceEvent({ uid: 'event-uid-2' })))).toMatchObject({ created: true, streamId: 'event-uid-2' });
  });

  it('given a recorded Event, when the watch says DELETED (a DELETE or the TTL: the same etcd delete), then KubeEventDeleted holds the Event as the source last had it', () => {
    const state = recorded(initialKubeEventState, sourceEvent(), 7);
    const lastKnown = observedKubeEvent(sourceEvent({ rv: '7010', count: 3 }));
    const decision = decideObservedKubeEventDeletion(state, lastKnown);
    expect(decision).toMatchObject({ verb: 'delete', streamId: 'event-uid-1', created: false, replaced: false });
    expect(decision.fact).toEqual({ type: 'KubeEventDeleted', data: { object: lastKnown } });
  });

  it('given a recorded Event, when a relist no longer finds it, then KubeEventDeleted holds the recorded Event', () => {
    const state = recorded(initialKubeEventState, sourceEvent({ count: 4 }), 7);
    expect(decideObservedKubeEventDeletion(state, null).fact).toEqual({ type: 'KubeEventDeleted', data: { object: observedKubeEvent(sourceEvent({ count: 4 })) } });
  });

  it('given nothing recorded, or another incarnation recorded, when a deletion is observed, then no fact', () => {
    expect(decideObservedKubeEventDeletion(initialKubeEventState, observedKubeEvent(sourceEvent())).fact).toBeUndefined();
    const state = recorded(initialKubeEventState, sourceEvent({ uid: 'event-uid-2' }), 7);
    expect(decideObservedKubeEventDeletion(state, observedKubeEvent(sourceEvent())).fact).toBeUndefined();
  });

  it('names the manager whose managedFields entry the write changed, as a hint of who wrote', () => {
    const first = [{ manager: 'service-controller', operation: 'Update', apiVersion: 'v1', time: '2026-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:count': {} } }];
    const state = recorded(initialKubeEventState, sourceEvent({ managedFields: first }), 7);
    const second = [{ ...first[0], manager: 'metallb-controller', time: '2026-01-02T03:05:00Z' }];
    expect(decideObservedKubeEvent(state, observedKubeEvent(sourceEvent({ count: 2, managedFields: second }))).fieldManager).toBe('metallb-controller');
  });

  it('refuses an observed Event without a uid: it has no stream to record into', () => {
    const event = sourceEvent();
    delete event.metadata.uid;
    expect(() => decideObservedKubeEvent(initialKubeEventState, observedKubeEvent(event))).toThrow(ObservedFoldError);
  });

  it('folds any sequence of observed states back to each of them (the mirror serves what the source had), one fact per change and none for a repeat', () => {
    const observation = fc.oneof(
      fc.constant(null),
      fc
        .record({ uid: fc.constantFrom('u1', 'u2'), count: fc.integer({ min: 1, max: 3 }), message: fc.constantFrom('a', 'b') })
        .map((o) => sourceEvent({ uid: o.uid, count: o.count, message: o.message })),
    );
    fc.assert(
      fc.property(fc.array(observation, { maxLength: 12 }), (observations) => {
        let state = initialKubeEventState;
        let rv = 0;
        for (const observed of observations) {
          const before = state.object;
          let facts = 0;
          for (;;) {
            const decision = observed === null ? decideObservedKubeEventDeletion(state, null) : decideObservedKubeEvent(state, observedKubeEvent(observed));
            if (decision.fact) {
              facts++;
              state = evolveKubeEvent(decision.created ? initialKubeEventState : state, decision.fact, ++rv);
            }
            if (!decision.replaced) break;
          }
          if (observed === null) {
            expect(state.object).toBeNull();
            expect(facts).toBe(before ? 1 : 0);
          } else {
            expect(observedKubeEvent(state.object!)).toEqual(observedKubeEvent(observed));
            expect(state.object!.metadata.resourceVersion).toBe(String(rv));
            const same = before !== null && JSON.stringify(observedKubeEvent(before)) === JSON.stringify(observedKubeEvent(observed));
            const replaced = before !== null && before.metadata.uid !== observed.metadata.uid;
            expect(facts).toBe(same ? 0 : replaced ? 2 : 1);
          }
        }
      }),
    );
  });
  it('given a newer source, when an Event with fields svctrail does not know is observed and then only they change, then they are stored where the source had them and the change is a fact', () => {
    /** As the Events' reflector reads it (reflected-kube-events.ts): lenient, fields svctrail does not know kept. */
    const observed = (newer: string) => {
      const { metadata, ...rest } = sourceEvent();
      const source = { metadata: { ...metadata, newMetadataField: newer }, ...rest, newEventField: { series: newer } };
      return observedKubeEvent(decodeKubeEventValue({ ...source, kind: 'Event', apiVersion: 'v1' }, { fieldValidation: 'Ignore', keepUnknownFields: true }).object);
    };
    const first = decideObservedKubeEvent(initialKubeEventState, observed('a'));
    const state = evolveKubeEvent(initialKubeEventState, first.fact!, 9);
    const served = JSON.stringify(state.object);
    expect(served).toContain('"creationTimestamp":"2026-01-02T03:04:05Z","newMetadataField":"a"}');
    expect(served.endsWith('"reportingInstance":"","newEventField":{"series":"a"}}')).toBe(true);
    expect(decideObservedKubeEvent(state, observed('a')).fact).toBeUndefined();
    const changed = decideObservedKubeEvent(state, observed('b'));
    expect(changed.fact?.type).toBe('KubeEventUpdated');
    expect(JSON.stringify(evolveKubeEvent(state, changed.fact!, 10).object)).toBe(served.replaceAll('"a"', '"b"').replace('"resourceVersion":"9"', '"resourceVersion":"10"'));
  });
});
