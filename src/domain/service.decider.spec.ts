import { aService, given } from '../../test/helpers/decider-harness';
import { AlreadyExistsError, ConflictError, InvalidError, NotFoundError } from './errors/domain-errors';
import type { ServiceCommand } from './service.commands';
import type { Service } from './service.types';

const create = (object: Service): ServiceCommand => ({ kind: 'CreateService', namespace: 'default', object });
const replace = (object: Service): ServiceCommand => ({ kind: 'ReplaceService', namespace: 'default', name: object.metadata.name!, object });
const replaceStatus = (object: Service): ServiceCommand => ({
  kind: 'ReplaceServiceStatus',
  namespace: 'default',
  name: object.metadata.name!,
  object,
});
const remove = (name: string, extra: Partial<Extract<ServiceCommand, { kind: 'DeleteService' }>> = {}): ServiceCommand => ({
  kind: 'DeleteService',
  namespace: 'default',
  name,
  ...extra,
});

const withStatus = (object: Service, status: Service['status']): Service => ({ ...structuredClone(object), status });
const lb = (name: string, metadata: Service['metadata'] = {}) => aService(name, { type: 'LoadBalancer' }, metadata);

describe('service decider', () => {
  describe('CreateService', () => {
    it('given nothing, when created, then ServiceCreated carries the allocated, server-filled object', () => {
      given()
        .when(create(aService('web')))
        .then((events, decision) => {
          expect(decision.created).toBe(true);
          expect(events).toHaveLength(1);
          expect(events[0].type).toBe('ServiceCreated');
          const object = (events[0] as Extract<(typeof events)[0], { type: 'ServiceCreated' }>).data.object;
          expect(object.metadata).toMatchObject({ name: 'web', namespace: 'default', creationTimestamp: '2026-01-02T03:04:05Z' });
          expect(object.metadata.uid).toBe('00000000-0000-4000-8000-000000000001');
          expect(object.metadata.resourceVersion).toBeUndefined();
          expect(object.spec.clusterIPs).toEqual([object.spec.clusterIP]);
          expect(object.status).toEqual({ loadBalancer: {} });
        });
    });

    it('given a live Service, when created again, then AlreadyExists', () => {
      given(create(aService('web')))
        .when(create(aService('web')))
        .thenThrows(AlreadyExistsError, 'services "web" already exists');
    });

    it('given nothing, when an invalid Service is created, then Invalid and no events', () => {
      given()
        .when(create(aService('web', { type: 'Foo' })))
        .thenThrows(InvalidError, /spec\.type: Unsupported value: "Foo"/);
    });
  });

  describe('ReplaceServiceStatus', () => {
    it('given an LB Service, when ingress is set, then LoadBalancerIngressChanged with previous and new lists', () => {
      const g = given(create(lb('web')));
      g.when(replaceStatus(withStatus(g.state.object!, { loadBalancer: { ingress: [{ ip: '203.0.113.7', ipMode: 'VIP' }] } }))).then((events) => {
        expect(events).toEqual([{ type: 'LoadBalancerIngressChanged', data: { ingress: [{ ip: '203.0.113.7', ipMode: 'VIP' }], previous: [] } }]);
      });
    });

    it('given conditions, when one changes and one is added, then keyed condition events', () => {
      const ready = { type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Pending', message: '' };
      const g0 = given(create(lb('web')));
      const first = withStatus(g0.state.object!, { loadBalancer: {}, conditions: [ready] });
      const g = given(create(lb('web')), replaceStatus(first));
      const nowReady = { ...ready, status: 'True', reason: 'Up' };
      const healthy = { type: 'Healthy', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Ok', message: 'fine' };
      g.when(replaceStatus(withStatus(g.state.object!, { loadBalancer: {}, conditions: [nowReady, healthy] }))).then((events) => {
        expect(events.map((e) => e.type)).toEqual(['ServiceConditionChanged', 'ServiceConditionChanged']);
        expect(events[0]).toEqual({ type: 'ServiceConditionChanged', data: { condition: nowReady, previous: ready } });
        expect(events[1]).toEqual({ type: 'ServiceConditionChanged', data: { condition: healthy, previous: null } });
      });
    });

    it('given conditions, when they are reordered, then the whole list is recorded', () => {
      const a = { type: 'A', status: 'True', lastTransitionTime: null, reason: '', message: '' };
      const b = { type: 'B', status: 'True', lastTransitionTime: null, reason: '', message: '' };
      const g0 = given(create(lb('web')));
      const g = given(create(lb('web')), replaceStatus(withStatus(g0.state.object!, { loadBalancer: {}, conditions: [a, b] })));
      g.when(replaceStatus(withStatus(g.state.object!, { loadBalancer: {}, conditions: [b, a] }))).then((events) => {
        expect(events).toEqual([{ type: 'ServiceConditionsReplaced', data: { conditions: [b, a], previous: [a, b] } }]);
      });
    });

    it('given a Service, when the same status is written, then no events (no-op keeps the resourceVersion)', () => {
      const g = given(create(lb('web')));
      g.when(replaceStatus(g.state.object!)).then((events, decision) => {
        expect(events).toEqual([]);
        expect(decision.unchanged).toEqual(g.state.object);
      });
    });

    it('given a Service, when the stored resourceVersion is stale, then Conflict', () => {
      const g = given(create(lb('web')));
      const stale = structuredClone(g.state.object!);
      stale.metadata.resourceVersion = '999';
      g.when(replaceStatus(stale)).thenThrows(ConflictError, /the object has been modified/);
    });

    it('given nothing, when a status is written, then NotFound', () => {
      given()
        .when(replaceStatus(lb('web')))
        .thenThrows(NotFoundError, 'services "web" not found');
    });
  });

  describe('ReplaceService', () => {
    it('given a Service, when labels and spec change, then metadata and spec events', () => {
      const g = given(create(aService('web')));
      const next = structuredClone(g.state.object!);
      next.metadata.labels = { tier: 'web' };
      next.spec.selector = { app: 'other' };
      g.when(replace(next)).then((events) => {
        expect(events.map((e) => e.type)).toEqual(['ServiceMetadataChanged', 'ServiceSpecChanged']);
      });
    });

    it('given nothing, when replaced, then it is created (create-on-update)', () => {
      given()
        .when(replace(aService('web')))
        .then((events, decision) => {
          expect(decision.created).toBe(true);
          expect(events[0].type).toBe('ServiceCreated');
        });
    });

    it('given an LB Service with ingress, when its type becomes ClusterIP, then the ingress is cleared too', () => {
      const g0 = given(create(lb('web')));
      const g = given(create(lb('web')), replaceStatus(withStatus(g0.state.object!, { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }] } })));
      const next = aService('web', { type: 'ClusterIP' });
      g.when(replace(next)).then((events) => {
        expect(events.map((e) => e.type)).toEqual(['ServiceSpecChanged', 'LoadBalancerIngressChanged']);
      });
    });
  });

  describe('DeleteService', () => {
    it('given a Service without finalizers, when deleted, then ServiceDeleted and the last stored object is answered', () => {
      const g = given(create(aService('web')));
      g.when(remove('web')).then((events, decision) => {
        expect(events).toEqual([{ type: 'ServiceDeleted', data: {} }]);
        expect(decision.unchanged).toEqual(g.state.object);
      });
    });

    it('given a Service with a finalizer, when deleted, then only ServiceDeletionRequested; removing the finalizer deletes it', () => {
      const g0 = given(create(lb('web', { finalizers: ['service.kubernetes.io/load-balancer-cleanup'] })), remove('web'));
      expect(g0.state.object!.metadata.deletionTimestamp).toBe('2026-01-02T03:04:05Z');
      expect(g0.state.object!.metadata.deletionGracePeriodSeconds).toBe(0);
      const cleared = structuredClone(g0.state.object!);
      delete cleared.metadata.finalizers;
      g0.when(replaceStatus(cleared)).then((events) => {
        expect(events.map((e) => e.type)).toEqual(['ServiceMetadataChanged', 'ServiceDeleted']);
      });
    });

    it('given a deleting Service, when deleted again, then nothing happens', () => {
      given(create(lb('web', { finalizers: ['example.com/x'] })), remove('web'))
        .when(remove('web'))
        .then((events) => expect(events).toEqual([]));
    });

    it('given a Service, when a uid precondition does not match, then Conflict naming the Kind', () => {
      given(create(aService('web')))
        .when(remove('web', { preconditions: { uid: 'nope' } }))
        .thenThrows(ConflictError, /^Operation cannot be fulfilled on Service "web": the UID in the precondition \(nope\)/);
    });

    it('given nothing, when deleted, then NotFound', () => {
      given().when(remove('web')).thenThrows(NotFoundError);
    });
  });
});
