// Mirror mode keeps every field a newer source sends: a real svctrail as the source, and the fault
// proxy in front of it rewriting its JSON (LIST bodies and watch lines) the way a newer
// kube-apiserver would write it, with fields svctrail's schema does not know at every level of a
// Service and of an Event. The mirror must serve them back as sent, record a change of one of them
// alone, answer them by time travel, leave them out of protobuf, and replay to the same bytes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { encodeKubeEvent } from '../../src/domain/codec/kube-event-encoder';
import { encodeKubeObject } from '../../src/domain/codec/protobuf/kube-object-protobuf';
import { encodeService } from '../../src/domain/codec/service-encoder';
import type { KubeEvent } from '../../src/domain/kube-event/kube-event.types';
import type { Service } from '../../src/domain/service.types';
import { APP_CONFIG, type AppConfig } from '../../src/config/app-config';
import { renderKubeconfig } from '../../src/kubeconfig/kubeconfig';
import { runCliInProcess } from '../helpers/cli-in-process';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { PROTOBUF } from '../helpers/protobuf-client';
import { recorderEvent } from '../helpers/recorder-event';
import { describeEachBackend } from '../helpers/storage-backends';
import { startTestServer, type TestServer } from '../helpers/test-server';

const H = '/apis/history.svctrail.io/v1alpha1';
const WEB = '/api/v1/namespaces/a/services/web';
const EVENT = '/api/v1/namespaces/a/events/web.e1';
const MERGE_PATCH = 'application/merge-patch+json';
/** The annotation that sets, at the source, the value of the one newer field that changes. */
const NEWER = 'newer.test/value';

type Json = Record<string, any>;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `object` with `key` right after `anchor` (null: first). */
function insertAfter(object: Json, anchor: string | null, key: string, value: unknown): Json {
  const out: Json = anchor === null ? { [key]: value } : {};
  for (const [k, v] of Object.entries(object)) {
    out[k] = v;
    if (k === anchor) out[key] = value;
  }
  return out;
}

/** The value NEWER gives, and the metadata without it and without managedFields (which would move with it). */
function newerMetadata(metadata: Json): { value: string; metadata: Json } {
  const { managedFields: _managedFields, annotations = {}, ...rest } = metadata;
  const { [NEWER]: value = 'v1', ...kept } = annotations as Record<string, string>;
  const withAnnotations = Object.keys(kept).length ? { ...rest, annotations: kept } : rest;
  return { value, metadata: insertAfter(withAnnotations, 'creationTimestamp', 'newMetadataField', 'm') };
}

/** A Service as a newer kube-apiserver would send it: new fields at every level, where its structs put them. */
function newerService(service: Json): Json {
  const { value, metadata } = newerMetadata(service.metadata);
  const ports = (service.spec.ports as Json[] | undefined)?.map((port) => insertAfter(port, 'port', 'newPortField', true));
  const spec = insertAfter({ ...service.spec, ...(ports ? { ports } : {}) }, 'type', 'newSpecField', { mode: 's' });
  const ingress = (service.status.loadBalancer?.ingress as Json[] | undefined)?.map((entry) => insertAfter(entry, 'ip', 'newIngressField', 'i'));
  const status = insertAfter({ ...service.status, loadBalancer: { ...(ingress ? { ingress } : {}), newLoadBalancerField: 'lb' } }, null, 'newStatusField', { phase: value });
  return { ...service, metadata, spec, status, newTopLevelField: 't' };
}

function newerEvent(event: Json): Json {
  const { value, metadata } = newerMetadata(event.metadata);
  return { ...event, metadata, newEventField: { series: value } };
}

/** The proxy's rewrite: every Service and every Event the source sends, in a LIST, a GET or a watch line. */
function newerJson(body: unknown, path: string): unknown {
  const newer = path.split('?')[0].includes('/events') ? newerEvent : newerService;
  const one = (object: Json | undefined) => (object?.metadata?.uid ? newer(object) : object);
  const value = body as Json;
  if (value.type && value.object) return { ...value, object: one(value.object) };
  if (Array.isArray(value.items)) return { ...value, items: value.items.map(one) };
  return one(value);
}

/** JSON text of `object` with the resourceVersion the mirror gave it, in its place. */
function withResourceVersion(object: Json, resourceVersion: string): string {
  const copy = JSON.parse(JSON.stringify(object)) as Json;
  copy.metadata.resourceVersion = resourceVersion;
  return JSON.stringify(copy);
}

describeEachBackend('mirror mode keeps the fields a newer source sends that svctrail does not know', (backend) => {
  let source: TestServer;
  let proxy: FaultProxy;
  let mirror: TestServer;
  let dir: string;

  const sourceWrite = async (method: string, path: string, body: object, contentType?: string) => {
    const res = await source.client.request(method, path, { body, ...(contentType ? { contentType } : {}) });
    if (res.status >= 300) throw new Error(`source ${method} ${path}: ${res.status} ${res.text}`);
    return res.json as Json;
  };
  const setNewer = (path: string, value: string) => sourceWrite('PATCH', path, { metadata: { annotations: { [NEWER]: value } } }, MERGE_PATCH);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-mirror-newer-'));
    source = await startTestServer();
    await sourceWrite('POST', '/api/v1/namespaces/a/services', { metadata: { name: 'web', labels: { app: 'web' } }, spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] } });
    const current = (await source.client.get(WEB)).json as Json;
    await sourceWrite('PUT', `${WEB}/status`, { ...current, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7', ipMode: 'VIP' }] } } });
    await sourceWrite('POST', '/api/v1/namespaces/a/events', recorderEvent('a', 'web.e1', { kind: 'Service', name: 'web' }));
    proxy = await startFaultProxy({ upstream: source.server.url, upstreamCa: source.ca });
    proxy.rewriteJson(newerJson);
    const kubeconfig = join(dir, 'source.kubeconfig');
    writeFileSync(kubeconfig, renderKubeconfig({ server: proxy.url, caPem: proxy.caPem, user: { token: source.adminToken }, userName: 'admin', clusterName: 'source' }));
    mirror = await backend.start({ dataDir: join(dir, 'mirror'), config: { mirror: kubeconfig, mirrorWatchTimeoutSeconds: 20 } });
    await until(async () => (await mirror.client.get(WEB)).status === 200 && (await mirror.client.get(EVENT)).status === 200, 'the first lists to be recorded');
  });

  afterAll(async () => {
    await mirror?.stop();
    await proxy?.close();
    await source?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a Service as the newer source sent it, every field in its place, in JSON (GET and LIST) and YAML', async () => {
    const sent = newerService((await source.client.get(WEB)).json as Json);
    const served = await mirror.client.get(WEB);
    const rv = (served.json as Json).metadata.resourceVersion as string;
    expect(served.text).toBe(withResourceVersion(sent, rv));
    expect(served.text).toContain('"creationTimestamp":"');
    const yaml = await mirror.client.request('GET', WEB, { accept: 'application/yaml' });
    expect(parseYaml(yaml.text)).toEqual(JSON.parse(served.text));
    expect(Object.keys(parseYaml(yaml.text) as Json)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status', 'newTopLevelField']);
    const list = await mirror.client.get('/api/v1/namespaces/a/services');
    const { kind: _kind, apiVersion: _apiVersion, ...item } = JSON.parse(served.text) as Json;
    expect(list.text).toContain(JSON.stringify(item));
  });

  it('records a change of such a field alone, with its diff; time travel answers the object before it', async () => {
    const before = await mirror.client.get(WEB);
    const beforeRv = (before.json as Json).metadata.resourceVersion as string;
    const written = await setNewer(WEB, 'v2');
    await until(async () => (await mirror.client.get(WEB)).json?.status?.newStatusField?.phase === 'v2', 'the change to be recorded');
    const after = await mirror.client.get(WEB);
    const afterRv = (after.json as Json).metadata.resourceVersion as string;
    expect(after.text).toBe(before.text.replace('"phase":"v1"', '"phase":"v2"').replace(`"resourceVersion":"${beforeRv}"`, `"resourceVersion":"${afterRv}"`));
    const last = ((await mirror.client.get(`${H}/namespaces/a/services/web/changes?limit=500`)).json as Json).items.at(-1) as Json;
    expect(last).toMatchObject({ verb: 'update', subresource: 'status', source: { resourceVersion: written.metadata.resourceVersion, via: 'watch' } });
    expect(last.events).toEqual([{ type: 'ServiceUnknownFieldsChanged', data: { fields: expect.objectContaining({ status: [{ after: null, key: 'newStatusField', value: { phase: 'v2' } }] }) } }]);
    expect(last.patch).toContainEqual({ op: 'replace', path: '/status/newStatusField/phase', value: 'v2' });
    expect(last.patch.filter((op: Json) => !op.path.startsWith('/metadata/resourceVersion'))).toEqual([{ op: 'replace', path: '/status/newStatusField/phase', value: 'v2' }]);
    // Time travel: by resourceVersion and by time, GET and LIST, the bytes served before.
    expect((await mirror.client.get(`${WEB}?resourceVersion=${beforeRv}&resourceVersionMatch=Exact`)).text).toBe(before.text);
    const changedAt = Date.parse(last.time as string);
    expect((await mirror.client.get(`${WEB}?asOf=${new Date(changedAt - 1).toISOString()}`)).json.status.newStatusField).toEqual({ phase: 'v1' });
    const listed = (await mirror.client.get(`/api/v1/namespaces/a/services?resourceVersion=${beforeRv}&resourceVersionMatch=Exact`)).json as Json;
    expect(listed.items.find((s: Json) => s.metadata.name === 'web').status.newStatusField).toEqual({ phase: 'v1' });
    // A watch from before it delivers the change as stored.
    const stream = await mirror.client.stream(`${WEB.replace('/web', '')}?watch=true&resourceVersion=${beforeRv}&fieldSelector=metadata.name%3Dweb`);
    try {
      expect(JSON.stringify((await stream.next(10_000)).object)).toBe(after.text);
    } finally {
      stream.response.destroy();
    }
  });

  it('answers protobuf with the known fields alone: protobuf has no field numbers for the others', async () => {
    const json = (await mirror.client.get(WEB)).json as Service;
    const answer = await mirror.client.request('GET', WEB, { accept: PROTOBUF });
    expect(String(answer.headers['content-type'])).toMatch(/^application\/vnd\.kubernetes\.protobuf/);
    const known = encodeService(json);
    expect(JSON.stringify(known)).not.toMatch(/new[A-Z]/);
    expect(answer.bytes.equals(Buffer.from(encodeKubeObject('Service', known)))).toBe(true);
    const event = (await mirror.client.get(EVENT)).json as KubeEvent;
    const eventAnswer = await mirror.client.request('GET', EVENT, { accept: PROTOBUF });
    expect(eventAnswer.bytes.equals(Buffer.from(encodeKubeObject('Event', encodeKubeEvent(event))))).toBe(true);
  });

  it("keeps an Event's fields the same way, and records a change of them alone as the Event's next write", async () => {
    const sent = newerEvent((await source.client.get(EVENT)).json as Json);
    const served = await mirror.client.get(EVENT);
    expect(served.text).toBe(withResourceVersion(sent, (served.json as Json).metadata.resourceVersion as string));
    expect(parseYaml((await mirror.client.request('GET', EVENT, { accept: 'application/yaml' })).text)).toEqual(served.json);
    const written = await setNewer(EVENT, 'e2');
    await until(async () => (await mirror.client.get(EVENT)).json?.newEventField?.series === 'e2', "the Event's change to be recorded");
    const changed = await mirror.client.get(EVENT);
    expect(changed.text).toBe(withResourceVersion(newerEvent((await source.client.get(EVENT)).json as Json), (changed.json as Json).metadata.resourceVersion as string));
    const occurrences = ((await mirror.client.get(`${H}/namespaces/a/events?limit=500`)).json as Json).items.filter((o: Json) => o.event.name === 'web.e1');
    expect(occurrences.map((o: Json) => [o.happened, o.source?.resourceVersion])).toEqual([
      ['created', expect.any(String)],
      ['repeated', written.metadata.resourceVersion],
    ]);
  });

  it('replays and verifies to the very bytes it serves', async () => {
    const config = mirror.server.app.get<AppConfig>(APP_CONFIG);
    const store = config.storageUrl ? ['--storage', config.storageUrl] : ['--data-dir', config.dataDir];
    const verified = await runCliInProcess(['verify', ...store, '-o', 'json']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ differences: 0 });
  });

  it('keeps kube-apiserver’s rules for a direct write: such fields are rejected by Strict field validation, dropped otherwise', async () => {
    const body = { metadata: { name: 'direct', newMetadataField: 'x' }, spec: { type: 'ClusterIP', ports: [{ port: 80, newPortField: true }], newSpecField: { mode: 's' } }, newTopLevelField: 't' };
    const strict = await source.client.request('POST', '/api/v1/namespaces/a/services?fieldValidation=Strict', { body });
    expect(strict.status).toBe(400);
    expect(strict.json.message).toMatch(/strict decoding error: unknown field "metadata.newMetadataField"/);
    const ignored = await source.client.request('POST', '/api/v1/namespaces/a/services?fieldValidation=Ignore', { body });
    expect(ignored.status).toBe(201);
    expect(ignored.text).not.toMatch(/new[A-Z]/);
    expect((await source.client.get('/api/v1/namespaces/a/services/direct')).text).not.toMatch(/new[A-Z]/);
  });
});
