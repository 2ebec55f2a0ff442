import fc from 'fast-check';
import { encodeService } from './codec/service-encoder';
import { diffService } from './service-diff';
import type { ServiceEvent } from './service.events';
import { evolveAll, initialServiceState, type ServiceState } from './service.evolve';
import type { Service } from './service.types';

/** Freezes a tree, so a fold that changes its input in place throws (specs run in strict mode). */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) frozen(v);
  }
  return value;
}

interface Variant {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  managed: boolean;
  deleting: boolean;
  ingress: { ip: string }[];
  conditions: { type: string; status: string; reason: string; message: string; lastTransitionTime: string }[];
  port: number;
}

/** A Service in canonical form (as every decision and every stored text holds it), written in a scrambled key order first. */
function service(v: Variant, resourceVersion: string): Service {
  return encodeService({
    status: { ...(v.conditions.length ? { conditions: v.conditions } : {}), loadBalancer: v.ingress.length ? { ingress: v.ingress } : {} },
    spec: { ports: [{ port: v.port, protocol: 'TCP', targetPort: v.port }], type: 'LoadBalancer', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] },
    metadata: {
      ...(v.managed ? { managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2026-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }] } : {}),
      ...(v.deleting ? { deletionTimestamp: '2026-01-02T03:05:00Z', deletionGracePeriodSeconds: 0 } : {}),
      ...(v.finalizers ? { finalizers: v.finalizers } : {}),
      ...(v.annotations ? { annotations: v.annotations } : {}),
      ...(v.labels ? { labels: v.labels } : {}),
      creationTimestamp: '2026-01-02T03:04:05Z',
      resourceVersion,
      uid: 'uid-1',
      namespace: 'default',
      name: 'web',
    },
    apiVersion: 'v1',
    kind: 'Service',
  });
}

const variant: fc.Arbitrary<Variant> = fc.record({
  labels: fc.option(fc.dictionary(fc.constantFrom('app', 'tier', 'zone'), fc.constantFrom('x', 'y'), { minKeys: 1 }), { nil: undefined }),
  annotations: fc.option(fc.dictionary(fc.constantFrom('note', 'owner'), fc.constantFrom('a', 'b'), { minKeys: 1 }), { nil: undefined }),
  finalizers: fc.option(fc.constantFrom(['example.com/hold'], ['a/b', 'c/d']), { nil: undefined }),
  managed: fc.boolean(),
  deleting: fc.boolean(),
  ingress: fc.array(fc.record({ ip: fc.constantFrom('203.0.113.1', '203.0.113.2', '198.51.100.9') }), { maxLength: 2 }),
  conditions: fc.uniqueArray(
    fc.record({
      type: fc.constantFrom('Ready', 'Synced', 'Healthy'),
      status: fc.constantFrom('True', 'False'),
      reason: fc.constantFrom('A', 'B'),
      message: fc.constant(''),
      lastTransitionTime: fc.constant('2026-01-02T03:04:05Z'),
    }),
    { maxLength: 3, selector: (c) => c.type },
  ),
  port: fc.constantFrom(80, 443),
});

describe('evolveAll', () => {
  it('given a Service without labels and with managedFields, when a write adds labels, then the folded object has them in Go key order', () => {
    const before: ServiceState = { object: frozen(service({ managed: true, deleting: false, ingress: [], conditions: [], port: 80 }, '7')), streamVersion: 1, deleted: false };
    const after = service({ labels: { app: 'web' }, managed: true, deleting: false, ingress: [], conditions: [], port: 80 }, '8');
    const folded = evolveAll(before, frozen(diffService(before.object!, after)), 8).object!;
    expect(Object.keys(folded.metadata)).toEqual(Object.keys(after.metadata));
    expect(JSON.stringify(folded)).toBe(JSON.stringify(after));
  });

  it('given a created Service without a resourceVersion, when folded, then the resourceVersion takes its place in metadata, not the end', () => {
    const created = service({ labels: { app: 'web' }, managed: true, deleting: false, ingress: [], conditions: [], port: 80 }, '');
    const folded = evolveAll(initialServiceState, frozen([{ type: 'ServiceCreated', data: { object: created } }]), 3).object!;
    expect(JSON.stringify(folded)).toBe(JSON.stringify(encodeService(folded)));
    expect(folded.metadata.resourceVersion).toBe('3');
  });

  it('property: the fold of the events between any two canonical states is the second, byte for byte, in canonical form, and changes neither input', () => {
    fc.assert(
      fc.property(fc.array(variant, { minLength: 1, maxLength: 5 }), (variants) => {
        let state: ServiceState = initialServiceState;
        let rv = 1;
        for (const v of variants) {
          rv++;
          const old = state.object;
          // A deletion once requested stays (an update cannot take it back).
          const next = service({ ...v, deleting: v.deleting || Boolean(old?.metadata.deletionTimestamp) }, String(rv));
          const events: ServiceEvent[] = old ? diffService(old, next) : [{ type: 'ServiceCreated', data: { object: next } }];
          const { deletionTimestamp, deletionGracePeriodSeconds = 0 } = next.metadata;
          if (old && !old.metadata.deletionTimestamp && deletionTimestamp) events.push({ type: 'ServiceDeletionRequested', data: { deletionTimestamp, deletionGracePeriodSeconds } });
          if (!events.length) continue;
          state = evolveAll(frozen(state), frozen(events), rv);
          expect(JSON.stringify(state.object)).toBe(JSON.stringify(next));
          expect(JSON.stringify(state.object)).toBe(JSON.stringify(encodeService(state.object!)));
        }
      }),
      { numRuns: 300 },
    );
  });
});
