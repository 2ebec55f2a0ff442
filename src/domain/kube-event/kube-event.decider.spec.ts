import fc from 'fast-check';
import { AlreadyExistsError, BadRequestError, ConflictError, InvalidError, NotFoundError } from '../errors/domain-errors';
import type { CreateKubeEvent, DeleteKubeEvent, ExpireKubeEvent, ReplaceKubeEvent } from './kube-event.commands';
import { decideKubeEventCreate, decideKubeEventDelete, decideKubeEventExpiry, decideKubeEventReplace, type KubeEventDecision, type KubeEventDecisionContext } from './kube-event.decider';
import { evolveKubeEvent, initialKubeEventState, type KubeEventState } from './kube-event.evolve';
import type { EventApiVersion, KubeEvent } from './kube-event.types';

type Command = CreateKubeEvent | ReplaceKubeEvent | DeleteKubeEvent | ExpireKubeEvent;

/** A small given/when/then harness: the state is folded from the facts of the `given` commands. */
function given(...commands: Command[]) {
  let clock = Date.parse('2026-12-07T10:00:00Z');
  let uids = 0;
  let position = 0;
  const ctx = (): KubeEventDecisionContext => ({ now: new Date(clock), newUid: () => `00000000-0000-4000-8000-${String(++uids).padStart(12, '0')}`, ttlSeconds: 3600 });
  const decide = (command: Command, state: KubeEventState): KubeEventDecision => {
    switch (command.kind) {
      case 'CreateKubeEvent':
        return decideKubeEventCreate(command, state, ctx());
      case 'ReplaceKubeEvent':
        return decideKubeEventReplace(command, state, ctx());
      case 'DeleteKubeEvent':
        return decideKubeEventDelete(command, state, ctx());
      case 'ExpireKubeEvent':
        return decideKubeEventExpiry(command, state);
    }
  };
  let state = initialKubeEventState;
  const apply = (decision: KubeEventDecision) => {
    if (decision.facts.length) position++;
    for (const fact of decision.facts) state = evolveKubeEvent(state, fact, position);
  };
  for (const command of commands) {
    apply(decide(command, state));
    clock += 1000;
  }
  return {
    get state() {
      return state;
    },
    when(command: Command) {
      const run = () => decide(command, state);
      return {
        then(check: (decision: KubeEventDecision, after: KubeEventState) => void) {
          const decision = run();
          apply(decision);
          check(decision, state);
        },
        thenThrows(type: new (...args: never[]) => Error, message: string | RegExp) {
          expect(run).toThrow(type);
          expect(run).toThrow(message);
        },
      };
    },
  };
}

/** What client-go's legacy recorder POSTs (tools/record makeEvent): eventTime null, no reportingInstance. */
function recorded(overrides: Partial<KubeEvent> = {}): KubeEvent {
  return {
    metadata: { name: 'web.187f0e1a2b3c4d5e', namespace: 'default' },
    involvedObject: { kind: 'Service', namespace: 'default', name: 'web', uid: 'svc-uid', apiVersion: 'v1', resourceVersion: '7' },
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

/** What the events.k8s.io recorder sends, converted to core/v1 (tools/events). */
function strict(overrides: Partial<KubeEvent> = {}): KubeEvent {
  return {
    metadata: { name: 'web.187f0e1a2b3c4d5f', namespace: 'default' },
    involvedObject: { kind: 'Service', namespace: 'default', name: 'web', uid: 'svc-uid', apiVersion: 'v1' },
    reason: 'IPAllocated',
    message: 'Assigned IP ["203.0.113.7"]',
    eventTime: '2026-12-07T10:00:00.123456Z',
    action: 'Allocate',
    type: 'Normal',
    reportingComponent: 'metallb-controller',
    reportingInstance: 'metallb-controller-node-1',
    ...overrides,
  };
}

const create = (object: KubeEvent, api: EventApiVersion = 'v1'): CreateKubeEvent => ({ kind: 'CreateKubeEvent', namespace: 'default', object, api });
const replace = (object: KubeEvent, extra: Partial<ReplaceKubeEvent> = {}): ReplaceKubeEvent => ({
  kind: 'ReplaceKubeEvent',
  namespace: 'default',
  name: object.metadata.name!,
  object,
  api: 'v1',
  ...extra,
});
const remove = (name: string, preconditions?: DeleteKubeEvent['preconditions']): DeleteKubeEvent => ({ kind: 'DeleteKubeEvent', namespace: 'default', name, preconditions });

describe('Event decider', () => {
  describe('create', () => {
    it("given nothing, when the legacy recorder's Event is posted, then KubeEventCreated holds it with uid, creation time and a lease", () => {
      given()
        .when(create(recorded()))
        .then((decision, after) => {
          expect(decision.created).toBe(true);
          expect(decision.facts).toHaveLength(1);
          const fact = decision.facts[0];
          expect(fact.type).toBe('KubeEventCreated');
          expect(fact.data.object.metadata).toEqual({ name: 'web.187f0e1a2b3c4d5e', namespace: 'default', uid: '00000000-0000-4000-8000-000000000001', creationTimestamp: '2026-12-07T10:00:00Z' });
          expect(fact.type === 'KubeEventCreated' && fact.data.expiresAt).toBe('2026-12-07T11:00:00.000Z');
          // Canonical Go encoding: kind and apiVersion first, reportingInstance kept though empty.
          expect(Object.keys(fact.data.object).slice(0, 2)).toEqual(['kind', 'apiVersion']);
          expect(fact.data.object.reportingInstance).toBe('');
          expect(after.object?.metadata.resourceVersion).toBe('1');
        });
    });

    it('given nothing, when the body names another namespace, then 400 BadRequest', () => {
      given()
        .when({ ...create(recorded()), namespace: 'team-a' })
        .thenThrows(BadRequestError, 'the namespace of the provided object does not match the namespace sent on the request');
    });

    it("given nothing, when involvedObject.namespace differs from the Event's, then 422 with kube-apiserver's cause", () => {
      given()
        .when(create(recorded({ involvedObject: { kind: 'Service', namespace: 'other', name: 'web' } })))
        .thenThrows(InvalidError, 'Event "web.187f0e1a2b3c4d5e" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace');
    });

    it('given nothing, when a legacy Event has an empty reason and type, then it is accepted (legacy events are not checked)', () => {
      given()
        .when(create(recorded({ reason: '', type: 'Odd' })))
        .then((decision) => expect(decision.created).toBe(true));
    });

    it('given nothing, when an Event with eventTime lacks reportingController, instance, action and reason, then 422 with each required (and the empty controller is no qualified name either)', () => {
      const run = () =>
        decideKubeEventCreate(create(strict({ reportingComponent: '', reportingInstance: '', action: '', reason: '' })), initialKubeEventState, { now: new Date(0), newUid: () => 'u' });
      expect(run).toThrow(InvalidError);
      try {
        run();
      } catch (error) {
        expect((error as InvalidError).details?.causes?.map((c) => c.field)).toEqual(['reportingController', 'reportingController', 'reportingController', 'reportingInstance', 'action', 'reason']);
        expect((error as InvalidError).message).toContain('reportingController: Invalid value: "": name part must be non-empty');
      }
    });

    // The kind is core's whichever API was called (BeforeCreate names the internal type's first kind).
    it('given nothing, when an events.k8s.io Event sets the deprecated fields, then 422 for each, naming the kind Event', () => {
      given()
        .when(create(strict({ count: 3, firstTimestamp: '2026-12-07T10:00:00Z', source: { component: 'x' } }), 'events.k8s.io/v1'))
        .thenThrows(
          InvalidError,
          /^Event "web.187f0e1a2b3c4d5f" is invalid: \[firstTimestamp: Invalid value: "": needs to be unset, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset\]/,
        );
    });

    it('given nothing, when an events.k8s.io Event has no eventTime and an unknown type, then 422', () => {
      given()
        .when(create(strict({ eventTime: null, type: 'Odd' }), 'events.k8s.io/v1'))
        .thenThrows(InvalidError, /eventTime: Required value.*type: Invalid value: "": has invalid value: Odd/);
    });

    it('given nothing, when a note is longer than 1024 characters, then 422', () => {
      given()
        .when(create(strict({ message: 'x'.repeat(1025) })))
        .thenThrows(InvalidError, 'message: Invalid value: "": can have at most 1024 characters');
    });

    it("given nothing, when an Event's name has a slash, then 422 from the generic path-segment check", () => {
      given()
        .when(create(recorded({ metadata: { name: 'a%b', namespace: 'default' } })))
        .thenThrows(InvalidError, `metadata.name: Invalid value: "a%b": may not contain '%'`);
    });

    it('given a live Event, when it is posted again, then 409 AlreadyExists', () => {
      given(create(recorded())).when(create(recorded())).thenThrows(AlreadyExistsError, 'events "web.187f0e1a2b3c4d5e" already exists');
    });
  });

  describe('replace and patch', () => {
    it("given a live Event, when the recorder's repeat sets count, lastTimestamp and message, then KubeEventUpdated renews the lease", () => {
      const g = given(create(recorded()));
      const next = { ...g.state.object!, count: 2, lastTimestamp: '2026-12-07T10:00:01Z', message: 'Ensuring load balancer (again)' };
      g.when(replace(next, { patch: true })).then((decision, after) => {
        expect(decision.facts.map((f) => f.type)).toEqual(['KubeEventUpdated']);
        const fact = decision.facts[0];
        expect(fact.type === 'KubeEventUpdated' && fact.data.expiresAt).toBe('2026-12-07T11:00:01.000Z');
        expect(after.object).toMatchObject({ count: 2, message: 'Ensuring load balancer (again)', metadata: { resourceVersion: '2', creationTimestamp: '2026-12-07T10:00:00Z' } });
      });
    });

    it('given a live Event, when the same object is written, then nothing is written and the lease is not renewed', () => {
      const g = given(create(recorded()));
      g.when(replace(g.state.object!)).then((decision) => {
        expect(decision.facts).toEqual([]);
        expect(decision.unchanged).toBe(g.state.object);
      });
    });

    it('given nothing, when a PATCH names an Event, then 404 (the recorder then POSTs)', () => {
      given()
        .when(replace(recorded(), { patch: true }))
        .thenThrows(NotFoundError, 'events "web.187f0e1a2b3c4d5e" not found');
    });

    it('given nothing, when a PUT names an Event, then it is created (AllowCreateOnUpdate)', () => {
      given()
        .when(replace(recorded()))
        .then((decision) => {
          expect(decision.created).toBe(true);
          expect(decision.facts[0].type).toBe('KubeEventCreated');
        });
    });

    it('given a live Event, when a PUT carries an older resourceVersion, then 409 Conflict', () => {
      const g = given(create(recorded()), replace({ ...recorded(), count: 2 }));
      g.when(replace({ ...g.state.object!, count: 3, metadata: { ...g.state.object!.metadata, resourceVersion: '1' } })).thenThrows(
        ConflictError,
        'Operation cannot be fulfilled on events "web.187f0e1a2b3c4d5e": the object has been modified',
      );
    });

    it('given an events.k8s.io Event, when an update changes its reason through events.k8s.io, then 422 field is immutable', () => {
      const g = given(create(strict(), 'events.k8s.io/v1'));
      g.when(replace({ ...g.state.object!, reason: 'Other' }, { api: 'events.k8s.io/v1' })).thenThrows(InvalidError, 'reason: Invalid value: "Other": field is immutable');
    });

    // The generic store names the request's group and resource (qualifiedResourceFromContext).
    it('given an events.k8s.io write, when it is refused by the store, then its errors name events.events.k8s.io', () => {
      const api = 'events.k8s.io/v1';
      given(create(strict(), api)).when(create(strict(), api)).thenThrows(AlreadyExistsError, 'events.events.k8s.io "web.187f0e1a2b3c4d5f" already exists');
      given()
        .when(replace(strict(), { api, patch: true }))
        .thenThrows(NotFoundError, 'events.events.k8s.io "web.187f0e1a2b3c4d5f" not found');
      const g = given(create(strict(), api), replace({ ...strict(), series: { count: 2, lastObservedTime: '2026-12-07T10:05:00.000001Z' } }, { api }));
      const stale = { ...g.state.object!, metadata: { ...g.state.object!.metadata, resourceVersion: '1' } };
      g.when(replace(stale, { api })).thenThrows(ConflictError, 'Operation cannot be fulfilled on events.events.k8s.io "web.187f0e1a2b3c4d5f": the object has been modified');
      let conflict: ConflictError | undefined;
      try {
        g.when(replace(stale, { api })).then(() => undefined);
      } catch (error) {
        conflict = error as ConflictError;
      }
      expect(conflict?.details).toEqual({ name: 'web.187f0e1a2b3c4d5f', group: 'events.k8s.io', kind: 'events' });
    });

    it('given an events.k8s.io Event, when its series moves on, then the update is accepted', () => {
      const g = given(create(strict(), 'events.k8s.io/v1'));
      g.when(replace({ ...g.state.object!, series: { count: 2, lastObservedTime: '2026-12-07T10:05:00.000001Z' } }, { api: 'events.k8s.io/v1', patch: true })).then((decision) =>
        expect(decision.facts[0].type).toBe('KubeEventUpdated'),
      );
    });
  });

  describe('delete and expiry', () => {
    it('given a live Event, when deleted, then KubeEventDeleted holds it as it was and it ends', () => {
      const g = given(create(recorded()));
      g.when(remove('web.187f0e1a2b3c4d5e')).then((decision, after) => {
        expect(decision.ended).toBe(true);
        expect(decision.facts[0].type).toBe('KubeEventDeleted');
        expect(decision.facts[0].data.object.message).toBe('Ensuring load balancer');
        expect(after.object).toBeNull();
      });
    });

    it('given nothing, when deleted, then 404', () => {
      given().when(remove('gone')).thenThrows(NotFoundError, 'events "gone" not found');
    });

    it('given a live Event, when deleted with a stale resourceVersion precondition, then 409', () => {
      given(create(recorded()))
        .when(remove('web.187f0e1a2b3c4d5e', { resourceVersion: '99' }))
        .thenThrows(ConflictError, 'the ResourceVersion in the precondition (99) does not match the ResourceVersion in record (1)');
    });

    it('given an Event with a finalizer, when deleted, then it waits with a deletionTimestamp, and removing the finalizer ends it', () => {
      const g = given(create(recorded({ metadata: { name: 'held', namespace: 'default', finalizers: ['example.com/keep'] } })), remove('held'));
      expect(g.state.object?.metadata.deletionTimestamp).toBe('2026-12-07T10:00:01Z');
      const { finalizers: _finalizers, ...metadata } = g.state.object!.metadata;
      g.when(replace({ ...g.state.object!, metadata })).then((decision, after) => {
        expect(decision.facts.map((f) => f.type)).toEqual(['KubeEventDeleted']);
        expect(after.object).toBeNull();
      });
    });

    it('given a live Event, when the lease of its latest write runs out, then KubeEventExpired', () => {
      given(create(recorded()))
        .when({ kind: 'ExpireKubeEvent', namespace: 'default', name: 'web.187f0e1a2b3c4d5e', resourceVersion: '1' })
        .then((decision, after) => {
          expect(decision.facts.map((f) => f.type)).toEqual(['KubeEventExpired']);
          expect(after.object).toBeNull();
        });
    });

    it('given an Event written again after the lease was read, when that lease runs out, then nothing (the new write renewed it)', () => {
      given(create(recorded()), replace({ ...recorded(), count: 2 }))
        .when({ kind: 'ExpireKubeEvent', namespace: 'default', name: 'web.187f0e1a2b3c4d5e', resourceVersion: '1' })
        .then((decision) => expect(decision.facts).toEqual([]));
    });
  });

  it('property: folding the facts of any sequence of repeats reproduces each object the decider produced', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ count: fc.integer({ min: 1, max: 1000 }), message: fc.string({ maxLength: 40 }) }), { maxLength: 12 }), (repeats) => {
        const g = given(create(recorded()));
        for (const repeat of repeats) {
          const before = g.state;
          g.when(replace({ ...before.object!, ...repeat }, { patch: true })).then((decision, after) => {
            if (decision.facts.length === 0) {
              expect(after).toBe(before);
              return;
            }
            const { resourceVersion: _rv, ...meta } = after.object!.metadata;
            expect({ ...after.object, metadata: meta }).toEqual(decision.facts[0].data.object);
            expect(after.object?.count).toBe(repeat.count);
            // message is omitempty: an empty one is absent.
            expect(after.object?.message ?? '').toBe(repeat.message);
          });
        }
      }),
      { numRuns: 50 },
    );
  });
});
