// The zoomed-out history endpoints the UI draws from: activitybuckets (counts per time bucket of
// one Service) and transitionrankings (Services by condition transitions in a window, paged).
import { describeEachBackend } from '../helpers/storage-backends';
import { type HistoryTestServer, putStatus, ready, START, startHistoryTestServer } from './history-test-server';

const H = '/apis/history.svctrail.io/v1alpha1';
const LB = { type: 'LoadBalancer', ports: [{ port: 80 }] };
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describeEachBackend('history.svctrail.io activitybuckets and transitionrankings', (backend) => {
  let t: HistoryTestServer;
  const at = async (minute: number, write: () => Promise<unknown>) => {
    t.clock.advance(START + minute * MIN - t.clock.now().getTime());
    await write();
  };

  beforeAll(async () => {
    t = await startHistoryTestServer([{ name: 'lb' }], backend.start);
    const admin = t.as('admin');
    const lb = t.as('lb');
    await at(1, () => admin.post('/api/v1/namespaces/a/services', { metadata: { name: 'web' }, spec: LB }));
    await at(2, () => admin.post('/api/v1/namespaces/b/services', { metadata: { name: 'api' }, spec: LB }));
    // web: ingress set at 5, Ready flips at 5, 12, 14, 16 (4 transitions); api: one at 20.
    await at(5, () => putStatus(lb, 'a', 'web', { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] }, conditions: [ready('True', 'Up', START + 5 * MIN)] }, 'lb/1'));
    // An Event that happens to be named like the Service (core/v1 names are free): its writes are not the Service's.
    await at(6, async () => {
      const event = {
        metadata: { name: 'web', namespace: 'a' },
        involvedObject: { kind: 'Service', namespace: 'a', name: 'web', apiVersion: 'v1' },
        reason: 'IPAllocated',
        message: 'Assigned IP ["192.0.2.1"]',
        source: { component: 'lb' },
        count: 1,
        type: 'Normal',
        reportingComponent: 'lb',
        reportingInstance: '',
      };
      expect((await lb.post('/api/v1/namespaces/a/events', event)).status).toBe(201);
      expect((await lb.request('PATCH', '/api/v1/namespaces/a/events/web', { body: { count: 2 }, contentType: 'application/strategic-merge-patch+json' })).status).toBe(200);
    });
    for (const [minute, status] of [
      [12, 'False'],
      [14, 'True'],
      [16, 'False'],
    ] as const) {
      await at(minute, () => putStatus(lb, 'a', 'web', { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] }, conditions: [ready(status, 'Flip', START + minute * MIN)] }, 'lb/1'));
    }
    await at(20, () => putStatus(lb, 'b', 'api', { loadBalancer: { ingress: [{ ip: '192.0.2.2' }] }, conditions: [ready('True', 'Up', START + 20 * MIN)] }, 'lb/1'));
    await at(25, async () => {
      const current = (await admin.get('/api/v1/namespaces/a/services/web')).json;
      await admin.put('/api/v1/namespaces/a/services/web', { ...current, metadata: { ...current.metadata, labels: { tier: 'front' } } });
    });
    await at(26, async () => {
      const current = (await admin.get('/api/v1/namespaces/a/services/web')).json;
      await admin.put('/api/v1/namespaces/a/services/web', { ...current, spec: { ...current.spec, ports: [{ port: 8080, protocol: 'TCP' }] } });
    });
  });
  afterAll(async () => t?.stop());

  it('counts writes, spec and metadata changes, transitions and ingress assignments per bucket', async () => {
    const res = await t.client.get(`${H}/namespaces/a/services/web/activitybuckets?since=${iso(START)}&until=${iso(START + 30 * MIN)}&buckets=3`);
    expect(res.status).toBe(200);
    expect(res.json.kind).toBe('ActivityBucketList');
    const counts = res.json.items.map((b: any) => ({
      start: b.start,
      end: b.end,
      changes: b.changes,
      created: b.created,
      specChanges: b.specChanges,
      metadataChanges: b.metadataChanges,
      conditionTransitions: b.conditionTransitions,
      ingressSets: b.ingressSets,
    }));
    expect(counts).toEqual([
      { start: iso(START), end: iso(START + 10 * MIN), changes: 2, created: 1, specChanges: 0, metadataChanges: 0, conditionTransitions: 1, ingressSets: 1 },
      { start: iso(START + 10 * MIN), end: iso(START + 20 * MIN), changes: 3, created: 0, specChanges: 0, metadataChanges: 0, conditionTransitions: 3, ingressSets: 0 },
      { start: iso(START + 20 * MIN), end: iso(START + 30 * MIN), changes: 2, created: 0, specChanges: 1, metadataChanges: 1, conditionTransitions: 0, ingressSets: 0 },
    ]);
  });

  it('bucket edges: a write exactly at a boundary counts in the later bucket, one exactly at until in the last', async () => {
    const items = (await t.client.get(`${H}/namespaces/a/services/web/activitybuckets?since=${iso(START + 5 * MIN)}&until=${iso(START + 16 * MIN)}&buckets=2`)).json.items;
    // Buckets [5, 10.5) and [10.5, 16]: the writes at 5 | 12, 14, 16.
    expect(items.map((b: any) => b.changes)).toEqual([1, 3]);
  });

  it('rejects what it cannot answer with a 400 Status', async () => {
    for (const [path, message] of [
      [`/namespaces/a/services/web/activitybuckets`, 'needs since and until'],
      [`/namespaces/a/services/web/activitybuckets?since=${iso(START + MIN)}&until=${iso(START)}`, 'is not before until'],
      [`/namespaces/a/services/web/activitybuckets?since=${iso(START)}&until=${iso(START + MIN)}&buckets=5000`, 'at most 2000'],
      [`/namespaces/a/activitybuckets?since=${iso(START)}&until=${iso(START + MIN)}`, 'per Service'],
      [`/namespaces/a/services/web/transitionrankings`, 'not one Service'],
      [`/transitionrankings?since=soon`, 'invalid since'],
    ]) {
      const res = await t.client.get(`${H}${path}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ kind: 'Status', code: 400, reason: 'BadRequest' });
      expect(res.json.message).toContain(message);
    }
  });

  it('ranks Services by condition transitions in a window, most first, paged without skips or repeats', async () => {
    const all = (await t.client.get(`${H}/transitionrankings`)).json;
    expect(all.items.map((r: any) => [`${r.service.namespace}/${r.service.name}`, r.transitions])).toEqual([
      ['a/web', 4],
      ['b/api', 1],
    ]);
    expect(all.items[0].lastTransitionAt).toBe(iso(START + 16 * MIN));
    const windowed = (await t.client.get(`${H}/transitionrankings?since=${iso(START + 13 * MIN)}&until=${iso(START + 30 * MIN)}`)).json;
    expect(windowed.items.map((r: any) => [r.service.name, r.transitions])).toEqual([
      ['web', 2],
      ['api', 1],
    ]);
    expect((await t.client.get(`${H}/namespaces/b/transitionrankings`)).json.items.map((r: any) => r.service.name)).toEqual(['api']);
    const first = (await t.client.get(`${H}/transitionrankings?limit=1`)).json;
    expect(first.items.map((r: any) => r.service.name)).toEqual(['web']);
    const second = (await t.client.get(`${H}/transitionrankings?limit=1&continue=${encodeURIComponent(first.metadata.continue)}`)).json;
    expect(second.items.map((r: any) => r.service.name)).toEqual(['api']);
    expect(second.metadata.continue).toBeUndefined();
  });
});
