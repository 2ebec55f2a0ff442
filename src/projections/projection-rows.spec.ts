import { evolveAll, initialServiceState } from '../domain/service.evolve';
import type { ServiceEvent } from '../domain/service.events';
import type { Service } from '../domain/service.types';
import { projectionRows } from './projection-rows';
import type { RowsInput } from './projection-rows';

const created: Service = {
  kind: 'Service',
  apiVersion: 'v1',
  metadata: { name: 'web', namespace: 'default', uid: 'u-1', creationTimestamp: '2026-01-02T03:04:05Z' },
  spec: {
    type: 'LoadBalancer',
    clusterIP: '10.96.0.10',
    clusterIPs: ['10.96.0.10'],
    ports: [{ port: 80, protocol: 'TCP', nodePort: 30080 }],
    externalTrafficPolicy: 'Cluster',
  },
  status: { loadBalancer: {} },
};

/** The write `events` make on `before`, as the live path hands it to the rule. */
function write(before: RowsInput['before'], events: ServiceEvent[]): RowsInput {
  const after = evolveAll(before, events, 7);
  return { before, after, events: events.map((event) => ({ event })), objectJson: after.object ? JSON.stringify(after.object) : null };
}

const condition = (status: 'True' | 'False') => ({ type: 'Ready', status, reason: 'Probe', message: '', lastTransitionTime: '2026-01-02T03:04:06Z', observedGeneration: 1 });

describe('projectionRows: every row a write changes, decided once for every engine', () => {
  const live = evolveAll(initialServiceState, [{ type: 'ServiceCreated', data: { object: created } }], 5);

  it('given no Service, when one is created, then its row, lifetime and revision are added and its cluster IP and node port taken', () => {
    const rows = projectionRows(write(initialServiceState, [{ type: 'ServiceCreated', data: { object: created } }]));
    expect(rows.service.op).toBe('insert');
    expect([rows.born, rows.died]).toEqual([true, false]);
    expect(rows.revision!.patch).toBe(`[{"op":"add","path":"","value":${rows.revision!.object}}]`);
    expect(rows.take).toEqual([
      { kind: 'cluster-ip', value: '10.96.0.10' },
      { kind: 'node-port', value: '30080' },
    ]);
    expect([rows.release, rows.transitions, rows.ingress]).toEqual([[], [], []]);
  });

  it("given no Service, when a mirror records one first seen holding an address and a condition, then the creation opens the address's interval and records the condition's appearance", () => {
    const held: Service = { ...created, status: { loadBalancer: { ingress: [{ ip: '192.0.2.9' }, { hostname: 'lb.example' }] }, conditions: [condition('True')] } };
    const rows = projectionRows(write(initialServiceState, [{ type: 'ServiceCreated', data: { object: held } }]));
    expect(rows.ingress).toEqual([
      { op: 'open', address: '192.0.2.9', addressType: 'ip' },
      { op: 'open', address: 'lb.example', addressType: 'hostname' },
    ]);
    expect(rows.transitions).toEqual([{ conditionType: 'Ready', fromStatus: null, toStatus: 'True', reason: 'Probe', message: '', observedGeneration: 1, lastTransitionTime: '2026-01-02T03:04:06Z' }]);
  });

  it('given a live Service, when its ingress changes, then one address interval closes and one opens, and no allocation moves', () => {
    const withIp = evolveAll(live, [{ type: 'LoadBalancerIngressChanged', data: { previous: [], ingress: [{ ip: '192.0.2.1' }] } }], 6);
    const rows = projectionRows(write(withIp, [{ type: 'LoadBalancerIngressChanged', data: { previous: [{ ip: '192.0.2.1' }], ingress: [{ hostname: 'lb.example' }] } }]));
    expect(rows.service.op).toBe('update');
    expect(rows.ingress).toEqual([
      { op: 'close', address: '192.0.2.1', addressType: 'ip' },
      { op: 'open', address: 'lb.example', addressType: 'hostname' },
    ]);
    expect([rows.take, rows.release, rows.born, rows.died]).toEqual([[], [], false, false]);
    expect(JSON.parse(rows.revision!.patch)).toContainEqual({ op: 'replace', path: '/metadata/resourceVersion', value: '7' });
  });

  it('given a live Service, when a condition flips, then one transition row holds its from and to status', () => {
    const ready = evolveAll(live, [{ type: 'ServiceConditionChanged', data: { condition: condition('True'), previous: null } }], 6);
    const rows = projectionRows(write(ready, [{ type: 'ServiceConditionChanged', data: { condition: condition('False'), previous: condition('True') } }]));
    expect(rows.transitions).toEqual([
      { conditionType: 'Ready', fromStatus: 'True', toStatus: 'False', reason: 'Probe', message: '', observedGeneration: 1, lastTransitionTime: '2026-01-02T03:04:06Z' },
    ]);
  });

  it('given a live Service, when it is deleted, then its row goes, its lifetime ends, its intervals close and its values are released', () => {
    const rows = projectionRows(write(live, [{ type: 'ServiceDeleted', data: {} }]));
    expect(rows.service).toEqual({ op: 'delete' });
    expect([rows.born, rows.died, rows.revision]).toEqual([false, true, undefined]);
    expect(rows.ingress).toEqual([{ op: 'close-all' }]);
    expect(rows.release).toHaveLength(2);
    expect(rows.take).toEqual([]);
  });

  it('given a live Service, when only its metadata changes, then no allocation is released or taken', () => {
    const rows = projectionRows(write(live, [{ type: 'ServiceMetadataChanged', data: { metadata: { labels: { a: 'b' } } } }]));
    expect([rows.release, rows.take]).toEqual([[], []]);
  });
});
