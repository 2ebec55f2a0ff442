import { DeciderHarness } from '../../../test/helpers/decider-harness';
import { decodeServiceValue } from '../codec/service-decoder';
import { applyServiceDefaults } from '../service-defaults';
import { decide } from '../service.decider';
import type { ServiceEvent } from '../service.events';
import { evolveAll, initialServiceState, type ServiceState } from '../service.evolve';
import type { Service } from '../service.types';
import { decideObserved, observedObject } from './observed-change';

type Json = Record<string, unknown>;

/**
 * A Service as a newer kube-apiserver sends it: known fields in Go order, and fields svctrail does
 * not know at every level, where that version's Go structs put them.
 */
function newerSource(
  change: { top?: string; meta?: string; spec?: string; status?: string; ingress?: string; annotations?: Record<string, string>; conditions?: boolean; noIngress?: boolean } = {},
): Json {
  return {
    metadata: {
      name: 'web',
      namespace: 'a',
      uid: 'uid-1',
      resourceVersion: '900',
      creationTimestamp: '2026-01-02T03:04:05Z',
      newMetadataField: change.meta ?? 'm1',
      labels: { app: 'web' },
      ...(change.annotations ? { annotations: change.annotations } : {}),
    },
    spec: {
      ports: [{ name: 'http', protocol: 'TCP', newPortField: true, port: 80, targetPort: 8080 }],
      clusterIP: '10.0.0.9',
      clusterIPs: ['10.0.0.9'],
      type: 'LoadBalancer',
      sessionAffinity: 'None',
      newSpecField: { mode: change.spec ?? 's1' },
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    },
    status: {
      newStatusFirst: 1,
      loadBalancer: { ...(change.noIngress ? {} : { ingress: [{ ip: '203.0.113.7', newIngressField: change.ingress ?? 'i1', ipMode: 'VIP' }] }), newLoadBalancerField: 'lb1' },
      ...(change.conditions ? { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-02T03:04:06Z', reason: 'Up', message: '', newConditionField: 'c' }] } : {}),
      newStatusField: { phase: change.status ?? 'one' },
    },
    newTopLevelField: change.top ?? 't1',
  };
}

/** What the Services' reflector does with a listed or watched object (reflected-services.ts). */
function observed(source: Json): Service {
  return observedObject(decodeServiceValue({ ...source, kind: 'Service', apiVersion: 'v1' }, { fieldValidation: 'Ignore', keepUnknownFields: true }).object);
}

/** The source's object as svctrail stores and serves it: its own resourceVersion (in place), nothing else changed. */
function asServed(source: Json, rv: number): string {
  const served = JSON.parse(JSON.stringify({ kind: 'Service', apiVersion: 'v1', ...source })) as { metadata: Json };
  served.metadata.resourceVersion = String(rv);
  return JSON.stringify(served);
}

/** The store's part: each write's events as their stored JSON text, folded at its resourceVersion. */
function record(state: ServiceState, events: readonly ServiceEvent[], rv: number): ServiceState {
  return evolveAll(state, JSON.parse(JSON.stringify(events)) as ServiceEvent[], rv);
}

describe('fields svctrail does not know, in mirror mode', () => {
  it('given a newer source, when a Service is first observed, then every field it sent is stored and served as sent (its own places kept), with svctrail’s resourceVersion', () => {
    const decision = decideObserved(initialServiceState, observed(newerSource()));
    const state = record(initialServiceState, decision.events, 7);
    expect(JSON.stringify(state.object)).toBe(asServed(newerSource(), 7));
  });

  it('given a direct decode (no keepUnknownFields), then none of them is kept, as kube-apiserver drops them', () => {
    const { object } = decodeServiceValue({ ...newerSource(), kind: 'Service', apiVersion: 'v1' }, { fieldValidation: 'Ignore' });
    expect(JSON.stringify(object)).not.toMatch(/new[A-Z]/);
  });

  it.each([
    ['status', { status: 'two' }, ['ServiceUnknownFieldsChanged'], 'status'],
    ['status.loadBalancer ingress entry', { ingress: 'i2' }, ['LoadBalancerIngressChanged'], 'status'],
    ['metadata', { meta: 'm2' }, ['ServiceUnknownFieldsChanged'], ''],
    ['top level', { top: 't2' }, ['ServiceUnknownFieldsChanged'], ''],
    ['spec', { spec: 's2' }, ['ServiceSpecChanged'], ''],
  ] as const)(
    'given a recorded Service, when only a field svctrail does not know changes (%s), then it is a recorded change whose fold gives the new object byte for byte',
    (_where, change, types, subresource) => {
      const first = decideObserved(initialServiceState, observed(newerSource()));
      const state = record(initialServiceState, first.events, 7);
      const decision = decideObserved(state, observed(newerSource(change)));
      expect(decision.events.map((e) => e.type)).toEqual(types);
      expect(decision.subresource).toBe(subresource);
      expect(JSON.stringify(record(state, decision.events, 8).object)).toBe(asServed(newerSource(change), 8));
      // Seen again: nothing more to record.
      expect(decideObserved(record(state, decision.events, 8), observed(newerSource(change))).events).toEqual([]);
    },
  );

  it('given a recorded Service, when a known field comes or goes next to them, then their places hold without an event of their own', () => {
    const state = record(initialServiceState, decideObserved(initialServiceState, observed(newerSource())).events, 7);
    // The field after the ingress keeps its place (the ingress's slot) when the ingress goes.
    const cleared = decideObserved(state, observed(newerSource({ noIngress: true })));
    expect(cleared.events.map((e) => e.type)).toEqual(['LoadBalancerIngressChanged']);
    expect(JSON.stringify(record(state, cleared.events, 8).object)).toBe(asServed(newerSource({ noIngress: true }), 8));
    const annotated = decideObserved(state, observed(newerSource({ annotations: { note: 'x' } })));
    expect(annotated.events.map((e) => e.type)).toEqual(['ServiceMetadataChanged']);
    const next = record(state, annotated.events, 8);
    expect(JSON.stringify(next.object)).toBe(asServed(newerSource({ annotations: { note: 'x' } }), 8));
    // Conditions come between the status's known fields and the new one the source puts last.
    const ready = decideObserved(next, observed(newerSource({ annotations: { note: 'x' }, conditions: true })));
    expect(ready.events.map((e) => e.type)).toEqual(['ServiceConditionChanged', 'ServiceUnknownFieldsChanged']);
    expect(JSON.stringify(record(next, ready.events, 9).object)).toBe(asServed(newerSource({ annotations: { note: 'x' }, conditions: true }), 9));
  });

  it('given a log of mirrored writes, when it is folded again from the start (replay, verify), then every stored object comes back byte for byte', () => {
    const sources = [newerSource(), newerSource({ status: 'two' }), newerSource({ status: 'two', conditions: true }), newerSource({ top: 't2', meta: 'm2', conditions: true })];
    const log: { events: ServiceEvent[]; rv: number }[] = [];
    let live = initialServiceState;
    const stored: string[] = [];
    sources.forEach((source, i) => {
      const decision = decideObserved(live, observed(source));
      const events = JSON.parse(JSON.stringify(decision.events)) as ServiceEvent[];
      live = record(live, events, 10 + i);
      log.push({ events, rv: 10 + i });
      stored.push(JSON.stringify(live.object));
    });
    let replayed = initialServiceState;
    const folded = log.map(({ events, rv }) => JSON.stringify((replayed = evolveAll(replayed, events, rv)).object));
    expect(folded).toEqual(stored);
    expect(stored.map((text, i) => text === asServed(sources[i], 10 + i))).toEqual([true, true, true, true]);
  });

  it('given a mirrored object served without --mirror, when a client writes it back directly, then no field svctrail does not know is stored any longer', () => {
    const harness = new DeciderHarness();
    const state = record(initialServiceState, decideObserved(initialServiceState, observed(newerSource())).events, 7);
    // The client sends back what it read, fields it does not know included: decoding drops them.
    const body = JSON.parse(JSON.stringify(state.object)) as Service;
    const { object } = decodeServiceValue({ ...body, metadata: { ...body.metadata, labels: { app: 'web', edited: 'yes' } } }, { fieldValidation: 'Ignore' });
    const decision = decide({ kind: 'ReplaceService', namespace: 'a', name: 'web', object: applyServiceDefaults(object) }, state, harness.context());
    expect(decision.events.map((e) => e.type)).toEqual(expect.arrayContaining(['ServiceMetadataChanged', 'ServiceSpecChanged', 'ServiceUnknownFieldsChanged']));
    const after = record(state, decision.events, 8);
    expect(JSON.stringify(after.object)).not.toMatch(/new[A-Z]/);
    expect(after.object!.metadata.labels).toEqual({ app: 'web', edited: 'yes' });
  });
});
