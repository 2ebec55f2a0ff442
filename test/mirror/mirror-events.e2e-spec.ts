// Mirror mode records its source's Events about Services: a real svctrail process-in-test as the
// source cluster (its Events API is what controllers' recorders write to), reached through the
// fault-injecting TLS proxy, and a second svctrail recording it (--mirror). The source keeps its
// own history of every Event write, so each state the mirror should have recorded can be read
// back from it and compared: the same writes, once each, in order, with the source's
// resourceVersions.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderKubeconfig } from '../../src/kubeconfig/kubeconfig';
import { MIRROR_SOURCE_STORE, type MirrorSourceStore } from '../../src/store/ports/mirror-source-store';
import { isWatchPath, startFaultProxy } from '../helpers/fault-proxy';
import type { FaultProxy } from '../helpers/fault-proxy';
import { recorderEvent, repeatBody, STRATEGIC_MERGE_PATCH, type InvolvedObject } from '../helpers/recorder-event';
import { describeEachBackend, type StorageBackend } from '../helpers/storage-backends';
import { startTestServer, type TestServer } from '../helpers/test-server';

const H = '/apis/history.svctrail.io/v1alpha1';
const EVENTS = '/api/v1/namespaces/a/events';
const LB = { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] };
const WEB: InvolvedObject = { kind: 'Service', name: 'web' };

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A source (svctrail) and its mirror on `backend`, each with its --event-ttl, and the proxy between them. */
async function startMirrored(backend: StorageBackend, dir: string, ttl: { source: string; mirror: string }, before?: (source: TestServer) => Promise<void>) {
  const source = await startTestServer({ config: { eventTtl: ttl.source } });
  const created = await source.client.post('/api/v1/namespaces/a/services', { metadata: { name: 'web' }, spec: LB });
  if (created.status !== 201) throw new Error(`source: ${created.status} ${created.text}`);
  await before?.(source);
  const proxy = await startFaultProxy({ upstream: source.server.url, upstreamCa: source.ca });
  const kubeconfig = join(dir, 'source.kubeconfig');
  writeFileSync(kubeconfig, renderKubeconfig({ server: proxy.url, caPem: proxy.caPem, user: { token: source.adminToken }, userName: 'admin', clusterName: 'source' }));
  const mirror = await backend.start({ dataDir: join(dir, 'mirror'), config: { mirror: kubeconfig, mirrorWatchTimeoutSeconds: 20, eventTtl: ttl.mirror } });
  await until(async () => /^svctrail_mirror_synced\{resource="events"\} 1$/m.test((await mirror.client.get('/metrics')).text), 'the first list of Events to be recorded');
  return { source, proxy, mirror };
}

/** What a server's Events history says of one Event's writes, oldest first. */
async function occurrences(server: TestServer, name: string): Promise<any[]> {
  const items = (await server.client.get(`${H}/namespaces/a/events?limit=500`)).json.items as any[];
  return items.filter((o) => o.event.name === name);
}

/** The source's writes of an Event as the mirror should have recorded them: what happened, the count, the source's resourceVersion. */
async function sourceWrites(source: TestServer, name: string): Promise<[string, number, string][]> {
  return (await occurrences(source, name)).map((o) => [o.happened === 'expired' ? 'deleted' : o.happened, o.count, o.metadata.resourceVersion]);
}

async function mirroredWrites(mirror: TestServer, name: string): Promise<[string, number, string][]> {
  return (await occurrences(mirror, name)).map((o) => [o.happened, o.count, o.source?.resourceVersion]);
}

/** The object as served, without the resourceVersion (each server has its own). */
function withoutResourceVersion(event: any): any {
  const { resourceVersion: _rv, ...metadata } = event.metadata;
  return { ...event, metadata };
}

describeEachBackend("mirror mode records the source's Events about Services", (backend) => {
  let source: TestServer;
  let proxy: FaultProxy;
  let mirror: TestServer;
  let dir: string;

  const write = async (method: string, path: string, body?: unknown, contentType?: string) => {
    const res = await source.client.request(method, path, body === undefined ? {} : { body: body as object, ...(contentType ? { contentType } : {}) });
    if (res.status >= 300) throw new Error(`source ${method} ${path}: ${res.status} ${res.text}`);
    return res.json;
  };
  const post = (name: string, about: InvolvedObject = WEB) => write('POST', EVENTS, recorderEvent('a', name, about));
  const repeat = (name: string, count: number) => write('PATCH', `${EVENTS}/${name}`, repeatBody(count), STRATEGIC_MERGE_PATCH);
  const remove = (name: string) => write('DELETE', `${EVENTS}/${name}`);
  const mirrored = (name: string) => mirror.client.get(`${EVENTS}/${name}`);
  const eventLists = () => proxy.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/events?') && !isWatchPath(r.path)).length;
  const metric = async (pattern: RegExp) => Number(pattern.exec((await mirror.client.get('/metrics')).text)?.[1] ?? NaN);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-mirror-events-'));
    // The mirror's own --event-ttl is short: it must not apply to what it records.
    ({ source, proxy, mirror } = await startMirrored(backend, dir, { source: '1h', mirror: '1s' }, async (s) => {
      source = s;
      await post('web.listed');
      // Not about a core/v1 Service: never recorded.
      await post('pod.listed', { kind: 'Pod', name: 'web-0' });
      await post('knative.listed', { kind: 'Service', name: 'web', apiVersion: 'serving.knative.dev/v1' });
    }));
  });

  afterAll(async () => {
    await mirror?.stop();
    await proxy?.close();
    await source?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the Events about core/v1 Services the first list finds, as the source has them, and no Event about anything else', async () => {
    const original = (await source.client.get(`${EVENTS}/web.listed`)).json;
    const copy = (await mirrored('web.listed')).json;
    expect(withoutResourceVersion(copy)).toEqual(withoutResourceVersion(original));
    expect((await mirrored('pod.listed')).status).toBe(404);
    expect((await mirrored('knative.listed')).status).toBe(404);
    const [created] = await occurrences(mirror, 'web.listed');
    // Its resourceVersion is the mirror's own write's; the source's is kept beside it.
    expect(created).toMatchObject({ happened: 'created', verb: 'create', count: 1, source: { via: 'list', resourceVersion: original.metadata.resourceVersion } });
    expect(created.metadata.resourceVersion).toBe(copy.metadata.resourceVersion);
    expect(created.actor.user).toBe('');
    // No local lease (the mirror's --event-ttl is 1s): the source's lifetime rules.
    expect(created.expiresAt).toBeUndefined();
    expect((await occurrences(source, 'web.listed'))[0].expiresAt).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await mirrored('web.listed')).status).toBe(200);
    // The mirror still derives Events from the Services it records, and only it: the source's own
    // derived Events (reported by svctrail) are not recorded on top of them.
    const listed = (await mirror.client.get(EVENTS)).json.items as any[];
    expect(listed.filter((e) => e.reason === 'Created' && e.involvedObject.name === 'web').map((e) => e.reportingComponent)).toEqual(['svctrail']);
    expect(listed.map((e) => e.metadata.name)).toContain('web.listed');
  });

  it('records each later write from the watch once and in order — POST, every count bump, DELETE — with the source resourceVersion of each', async () => {
    await post('web.watched');
    await repeat('web.watched', 2);
    await post('pod.watched', { kind: 'Pod', name: 'web-0' });
    await repeat('pod.watched', 2);
    await repeat('web.watched', 3);
    await remove('web.watched');
    await until(async () => (await occurrences(mirror, 'web.watched')).length === 4, 'the four writes to be recorded');
    const expected = await sourceWrites(source, 'web.watched');
    expect(expected.map(([happened, count]) => [happened, count])).toEqual([
      ['created', 1],
      ['repeated', 2],
      ['repeated', 3],
      ['deleted', 3],
    ]);
    expect(await mirroredWrites(mirror, 'web.watched')).toEqual(expected);
    const recorded = await occurrences(mirror, 'web.watched');
    expect(recorded.map((o) => [o.verb, o.source.via])).toEqual([
      ['create', 'watch'],
      ['update', 'watch'],
      ['update', 'watch'],
      ['delete', 'watch'],
    ]);
    // Gone from the live API, kept in the history (and the Service's own Events history).
    expect((await mirrored('web.watched')).status).toBe(404);
    const about = (await mirror.client.get(`${H}/namespaces/a/services/web/events?limit=500`)).json.items as any[];
    expect(about.filter((o) => o.event.name === 'web.watched').map((o) => o.happened)).toEqual(['created', 'repeated', 'repeated', 'deleted']);
    expect(await occurrences(mirror, 'pod.watched')).toEqual([]);
  });

  it('answers every write verb on Events (core/v1 and events.k8s.io/v1) with 405 MethodNotAllowed, and changes nothing', async () => {
    const before = (await mirrored('web.listed')).text;
    const body = (await mirrored('web.listed')).json;
    const attempts = [
      mirror.client.post(EVENTS, recorderEvent('a', 'web.client', WEB)),
      mirror.client.put(`${EVENTS}/web.listed`, body),
      mirror.client.request('PATCH', `${EVENTS}/web.listed`, { body: repeatBody(9), contentType: STRATEGIC_MERGE_PATCH }),
      mirror.client.delete(`${EVENTS}/web.listed`),
      mirror.client.delete(EVENTS),
      mirror.client.post('/apis/events.k8s.io/v1/namespaces/a/events', { metadata: { name: 'web.v1' }, regarding: { kind: 'Service', name: 'web', namespace: 'a', apiVersion: 'v1' } }),
      mirror.client.delete('/apis/events.k8s.io/v1/namespaces/a/events/web.listed'),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(405);
      expect(res.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'MethodNotAllowed', code: 405 });
    }
    expect((await mirrored('web.listed')).text).toBe(before);
    expect((await mirrored('web.client')).status).toBe(404);
  });

  it('resumes a closed Events watch from its own stored resume point, without listing again', async () => {
    const listsBefore = eventLists();
    const closedAt = Date.now();
    expect(proxy.closeWatches()).toBeGreaterThanOrEqual(2);
    const resumed = () => proxy.requests.find((r) => r.time >= closedAt && r.path.startsWith('/api/v1/events?') && isWatchPath(r.path));
    await until(async () => resumed() !== undefined, 'the Events watch to be resumed', 10_000);
    const stored = (await mirror.server.app.get<MirrorSourceStore>(MIRROR_SOURCE_STORE).load())!;
    expect(new URL(resumed()!.path, 'https://source').searchParams.get('resourceVersion')).toBe(stored.eventsResourceVersion);
    // Each watch has its own point: the Events' is not the Services' (a Service write moved only the latter).
    await write('PUT', '/api/v1/namespaces/a/services/web/status', {
      ...(await source.client.get('/api/v1/namespaces/a/services/web')).json,
      status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } },
    });
    await post('web.resumed');
    await until(async () => (await mirrored('web.resumed')).status === 200, 'the write after the resume');
    const after = (await mirror.server.app.get<MirrorSourceStore>(MIRROR_SOURCE_STORE).load())!;
    expect(after.eventsResourceVersion).toBe((await occurrences(source, 'web.resumed'))[0].metadata.resourceVersion);
    expect(after.resourceVersion).not.toBe(after.eventsResourceVersion);
    expect(eventLists()).toBe(listsBefore);
  });

  it('holds back nothing it was sent: Event watch data delayed by the source arrives later, every count in order', async () => {
    await post('web.held');
    await until(async () => (await mirrored('web.held')).status === 200, 'the Event to be recorded');
    proxy.holdWatches(true);
    await repeat('web.held', 2);
    await repeat('web.held', 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await mirrored('web.held')).json.count).toBe(1);
    proxy.holdWatches(false);
    await until(async () => (await mirrored('web.held')).json.count === 3, 'the held data to be recorded');
    expect(await mirroredWrites(mirror, 'web.held')).toEqual(await sourceWrites(source, 'web.held'));
  });

  it('relists Events only when the source answers 410 Expired, reconciled: one deleted while away ends, one created appears, one repeated is updated, each marked relist', async () => {
    await post('web.gone');
    await post('web.changed');
    await until(async () => (await mirrored('web.gone')).status === 200 && (await mirrored('web.changed')).status === 200, 'the Events to be recorded');
    const relistsBefore = await metric(/^svctrail_mirror_relists_total\{resource="events"\} (\d+)$/m);
    await proxy.stop();
    await until(async () => (await metric(/^svctrail_mirror_synced\{resource="events"\} (\d+)$/m)) === 0, 'the Events reflector to be out of sync', 15_000);
    await remove('web.gone');
    await repeat('web.changed', 2);
    await post('web.new');
    const head = (await source.client.get(EVENTS)).json.metadata.resourceVersion as string;
    proxy.expireBelow(Number(head) + 1);
    await proxy.start();
    await until(async () => (await mirrored('web.gone')).status === 404 && (await mirrored('web.new')).status === 200 && (await mirrored('web.changed')).json.count === 2, 'the relist to be recorded');
    expect(await metric(/^svctrail_mirror_relists_total\{resource="events"\} (\d+)$/m)).toBeGreaterThan(relistsBefore);
    expect((await occurrences(mirror, 'web.gone')).map((o) => [o.happened, o.source.via, o.source.resourceVersion])).toEqual([
      ['created', 'watch', (await occurrences(source, 'web.gone'))[0].metadata.resourceVersion],
      ['deleted', 'relist', head],
    ]);
    expect((await occurrences(mirror, 'web.new')).map((o) => [o.happened, o.source.via])).toEqual([['created', 'relist']]);
    expect((await occurrences(mirror, 'web.changed')).map((o) => [o.happened, o.count, o.source.via])).toEqual([
      ['created', 1, 'watch'],
      ['repeated', 2, 'relist'],
    ]);
    proxy.expireBelow(null);
    await until(async () => (await metric(/^svctrail_mirror_synced\{resource="events"\} (\d+)$/m)) === 1, 'the Events reflector to be in sync again', 15_000);
    // Unchanged Events were not written again by the relist.
    expect(await occurrences(mirror, 'web.listed')).toHaveLength(1);
  });
});

describeEachBackend('mirror mode: Events that expire at the source', (backend) => {
  let source: TestServer;
  let proxy: FaultProxy;
  let mirror: TestServer;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-mirror-event-ttl-'));
    ({ source, proxy, mirror } = await startMirrored(backend, dir, { source: '2s', mirror: '1h' }));
  });

  afterAll(async () => {
    await mirror?.stop();
    await proxy?.close();
    await source?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes an Event from the live API when the source expires it (its watch says DELETED), and keeps every fact of it', async () => {
    const created = await source.client.post(EVENTS, recorderEvent('a', 'web.expiring', WEB));
    expect(created.status).toBe(201);
    const repeated = await source.client.request('PATCH', `${EVENTS}/web.expiring`, { body: repeatBody(2), contentType: STRATEGIC_MERGE_PATCH });
    expect(repeated.status).toBe(200);
    await until(async () => (await mirror.client.get(`${EVENTS}/web.expiring`)).json?.count === 2, 'the repeat to be recorded', 10_000);
    // The source's TTL runs out 2 s after the repeat: its watch says DELETED, the mirror ends the Event.
    await until(async () => (await source.client.get(`${EVENTS}/web.expiring`)).status === 404, 'the source to expire the Event', 15_000);
    await until(async () => (await mirror.client.get(`${EVENTS}/web.expiring`)).status === 404, 'the mirror to end the Event', 15_000);
    expect(((await mirror.client.get(EVENTS)).json.items as any[]).map((e) => e.metadata.name)).not.toContain('web.expiring');
    const expected = await sourceWrites(source, 'web.expiring');
    expect((await occurrences(source, 'web.expiring')).map((o) => o.happened)).toEqual(['created', 'repeated', 'expired']);
    // Recorded as a deletion: a TTL expiry and a DELETE are the same DELETED at the source.
    expect(await mirroredWrites(mirror, 'web.expiring')).toEqual(expected);
    const ended = (await occurrences(mirror, 'web.expiring')).at(-1);
    expect(ended).toMatchObject({ happened: 'deleted', verb: 'delete', count: 2, source: { via: 'watch' } });
  });
});
