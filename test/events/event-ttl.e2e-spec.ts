// --event-ttl: a written Event leaves the live API that long after its LAST write (every write
// renews its lease, as kube-apiserver's etcd lease per write does); watchers see DELETED; the
// log keeps every fact, the expiry included.
import Database from 'better-sqlite3';
import { repeatedText } from '../../src/store/sql/event-columns';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/test-server';

const EVENTS = '/api/v1/namespaces/ttl/events';

function recorderEvent(name: string) {
  return {
    metadata: { name, namespace: 'ttl' },
    involvedObject: { kind: 'Service', namespace: 'ttl', name: 'web', uid: 'svc-uid', apiVersion: 'v1' },
    reason: 'SyncLoadBalancerFailed',
    message: 'Error syncing load balancer',
    source: { component: 'service-controller' },
    firstTimestamp: '2026-12-07T10:00:00Z',
    lastTimestamp: '2026-12-07T10:00:00Z',
    count: 1,
    type: 'Warning',
    reportingComponent: 'service-controller',
    reportingInstance: '',
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('core/v1 Events expire --event-ttl after their last write', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ config: { eventTtl: '3s' } });
  });
  afterAll(async () => t.stop());

  it('given an Event, when its TTL runs out, then watchers see DELETED, GET is 404, and the log keeps its facts', async () => {
    const created = await t.client.post(EVENTS, recorderEvent('web.1800000000000001'));
    expect(created.status).toBe(201);
    const watch = await t.client.stream(`${EVENTS}?watch=true&resourceVersion=${created.json.metadata.resourceVersion}`);
    const deleted = await watch.next(15_000);
    watch.response.destroy();
    expect(deleted).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'web.1800000000000001', uid: created.json.metadata.uid } } });
    expect(Number(deleted.object.metadata.resourceVersion)).toBeGreaterThan(Number(created.json.metadata.resourceVersion));
    expect((await t.client.get(`${EVENTS}/web.1800000000000001`)).status).toBe(404);
    // The live LIST no longer has it; the log has the creation and the expiry, recorded as kube-apiserver's doing.
    expect((await t.client.get(EVENTS)).json.items.map((e: any) => e.metadata.name)).not.toContain('web.1800000000000001');
    const db = new Database(join(t.dataDir, 'svctrail.db'), { readonly: true });
    try {
      const facts = db.prepare(`SELECT type, ${repeatedText('actor_user')} AS user, position FROM events WHERE stream_id = ? ORDER BY position`).all(created.json.metadata.uid);
      expect(facts).toEqual([
        { type: 'KubeEventCreated', user: 'admin', position: Number(created.json.metadata.resourceVersion) },
        { type: 'KubeEventExpired', user: 'system:apiserver', position: Number(deleted.object.metadata.resourceVersion) },
      ]);
    } finally {
      db.close();
    }
  });

  it('given an Event repeated before its TTL runs out, when the first lease would have ended, then it is still live (the repeat renewed it)', async () => {
    await t.client.post(EVENTS, recorderEvent('web.1800000000000002'));
    await sleep(2000);
    const repeat = await t.client.request('PATCH', `${EVENTS}/web.1800000000000002`, { body: JSON.stringify({ count: 2 }), contentType: 'application/strategic-merge-patch+json' });
    expect(repeat.status).toBe(200);
    await sleep(2000);
    // Past the creation's lease (4 s after it), within the repeat's (2 s after it): alive.
    expect((await t.client.get(`${EVENTS}/web.1800000000000002`)).json.count).toBe(2);
    await sleep(3000);
    expect((await t.client.get(`${EVENTS}/web.1800000000000002`)).status).toBe(404);
  });
});
