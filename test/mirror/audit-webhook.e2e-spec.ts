// Actors from kube-apiserver's audit webhook, end to end: a source svctrail behind the fault proxy,
// a mirror recording it (Services and Events about them), and audit events built in the
// audit.k8s.io/v1 format from the source's real answers, posted by a user holding only the
// audit-webhook policy. The join works in both orders (audit event after the recorded write, and
// before it), repeated deliveries change nothing, and history as of before the join does not know
// the actor yet.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { issueCredentials } from '../../src/auth/issue-credentials';
import { openHistory } from '../../src/cli/history-reader';
import { APP_CONFIG, type AppConfig } from '../../src/config/app-config';
import { renderKubeconfig } from '../../src/kubeconfig/kubeconfig';
import { startFaultProxy } from '../helpers/fault-proxy';
import { recorderEvent, repeatBody, STRATEGIC_MERGE_PATCH } from '../helpers/recorder-event';
import type { FaultProxy } from '../helpers/fault-proxy';
import { describeEachBackend } from '../helpers/storage-backends';
import { startTestServer, type TestServer } from '../helpers/test-server';

const H = '/apis/history.svctrail.io/v1alpha1';
const CONTROLLER = 'system:serviceaccount:metallb-system:controller';

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The audit event kube-apiserver sends at level RequestResponse for a status PUT that returned `answer`. */
function auditEvent(auditID: string, answer: any, overrides: Record<string, unknown> = {}) {
  return {
    level: 'RequestResponse',
    auditID,
    stage: 'ResponseComplete',
    requestURI: `/api/v1/namespaces/a/services/${answer.metadata.name}/status`,
    verb: 'update',
    user: { username: CONTROLLER, uid: 'u-1', groups: ['system:serviceaccounts', 'system:serviceaccounts:metallb-system', 'system:authenticated'] },
    sourceIPs: ['10.244.0.12'],
    userAgent: 'controller/v0.14.8 (linux/amd64) kubernetes/v1.32.0',
    objectRef: { resource: 'services', namespace: 'a', name: answer.metadata.name, apiVersion: 'v1', subresource: 'status' },
    responseStatus: { metadata: {}, code: 200 },
    requestObject: answer,
    responseObject: answer,
    requestReceivedTimestamp: '2026-12-01T02:13:00.123456Z',
    stageTimestamp: '2026-12-01T02:13:00.131020Z',
    annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    ...overrides,
  };
}

const eventList = (...items: object[]) => ({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items });

describeEachBackend('the audit webhook (mirror mode)', (backend) => {
  let source: TestServer;
  let proxy: FaultProxy;
  let mirror: TestServer;
  let dir: string;
  let webhookToken: string;
  let strangerToken: string;
  let webhookKubeconfig: string;

  const post = (body: unknown, token = webhookToken) => mirror.client.withToken(token).post('/audit/v1/events', typeof body === 'string' ? body : JSON.stringify(body));
  const lastChange = async (name: string) => ((await mirror.client.get(`${H}/namespaces/a/services/${name}/changes?limit=500`)).json.items as any[]).at(-1);
  const setIngress = async (name: string, ip: string) => {
    const current = (await source.client.get(`/api/v1/namespaces/a/services/${name}`)).json;
    const res = await source.client.put(`/api/v1/namespaces/a/services/${name}/status`, { ...current, status: { loadBalancer: { ingress: [{ ip }] } } });
    expect(res.status).toBe(200);
    return res.json;
  };
  const mirroredIp = async (name: string) => (await mirror.client.get(`/api/v1/namespaces/a/services/${name}`)).json?.status?.loadBalancer?.ingress?.[0]?.ip;
  const metric = async (line: RegExp) => Number(line.exec((await mirror.client.get('/metrics')).text)?.[1] ?? NaN);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-audit-'));
    const mirrorDataDir = join(dir, 'mirror');
    source = await startTestServer();
    expect((await source.client.post('/api/v1/namespaces/a/services', { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } })).status).toBe(201);
    proxy = await startFaultProxy({ upstream: source.server.url, upstreamCa: source.ca });
    // The webhook's user and policy exist before the mirror starts (the policy file is read at startup).
    const issued = await issueCredentials({ user: 'kube-apiserver-audit', dataDir: mirrorDataDir, method: 'token', policy: 'audit-webhook', server: 'https://127.0.0.1:6443', now: () => new Date() });
    webhookToken = issued.token!;
    webhookKubeconfig = issued.kubeconfigPath;
    strangerToken = (await issueCredentials({ user: 'stranger', dataDir: mirrorDataDir, method: 'token', now: () => new Date() })).token!;
    const kubeconfig = join(dir, 'source.kubeconfig');
    writeFileSync(kubeconfig, renderKubeconfig({ server: proxy.url, caPem: proxy.caPem, user: { token: source.adminToken }, userName: 'admin' }));
    mirror = await backend.start({ dataDir: mirrorDataDir, config: { mirror: kubeconfig, mirrorWatchTimeoutSeconds: 20 } });
    await until(async () => (await mirror.client.get('/readyz')).text === 'ok', 'the mirror to be in sync');
  });

  afterAll(async () => {
    await mirror?.stop();
    await proxy?.close();
    await source?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('issue-credentials --policy audit-webhook prints a kubeconfig whose server is the full webhook URL', () => {
    const config = parse(readFileSync(webhookKubeconfig, 'utf8'));
    expect(config.clusters[0].cluster.server).toBe('https://127.0.0.1:6443/audit/v1/events');
    expect(config.users[0].user.token).toBe(webhookToken);
  });

  it('given a recorded write, when its audit event arrives, then its change names the user, groups, agent, source IPs and audit ID — and history as of before the join does not', async () => {
    const answer = await setIngress('lb', '203.0.113.21');
    await until(async () => (await mirroredIp('lb')) === '203.0.113.21', 'the write to be recorded');
    const before = await lastChange('lb');
    expect(before.actor.user).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const res = await post(eventList(auditEvent('audit-after', answer)));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ kind: 'Status', status: 'Success' });
    const after = await lastChange('lb');
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.actor).toEqual({
      user: CONTROLLER,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:metallb-system', 'system:authenticated'],
      userAgent: 'controller/v0.14.8 (linux/amd64) kubernetes/v1.32.0',
      fieldManager: before.actor.fieldManager,
      requestId: before.actor.requestId,
      sourceIPs: ['10.244.0.12'],
      auditID: 'audit-after',
      identifiedAt: expect.any(String),
    });
    expect(after.actor.identifiedAt > after.time).toBe(true);
    // The change log until the write's own time: the actor was not known yet.
    const asOfWrite = ((await mirror.client.get(`${H}/namespaces/a/services/lb/changes?until=${encodeURIComponent(after.time)}`)).json.items as any[]).at(-1);
    expect(asOfWrite.metadata.resourceVersion).toBe(after.metadata.resourceVersion);
    expect(asOfWrite.actor.user).toBe('');

    // The CLI reads the same actor from the store.
    const config = mirror.server.app.get<AppConfig>(APP_CONFIG);
    const reader = await openHistory(config.storageUrl ? { engine: 'postgres', url: config.storageUrl } : { engine: 'sqlite', dataDir: config.dataDir });
    try {
      const items = ((await reader.changes.list({ namespace: 'a', name: 'lb' }, { limit: '500' })).encoded.object as { items: any[] }).items;
      expect(items.at(-1).actor).toEqual(after.actor);
    } finally {
      await reader.close();
    }

    // The same delivery again (kube-apiserver retries): nothing changes.
    expect((await post(eventList(auditEvent('audit-after', answer)))).status).toBe(200);
    expect(await lastChange('lb')).toEqual(after);
  });

  it('given an audit event that arrives before the watch brings its write, then it waits and is joined when the write is recorded', async () => {
    const pendingBefore = await metric(/^svctrail_mirror_audit_events_total\{outcome="pending"\} (\d+)$/m);
    proxy.holdWatches(true);
    try {
      const answer = await setIngress('lb', '203.0.113.22');
      expect((await post(eventList(auditEvent('audit-first', answer)))).status).toBe(200);
      expect(await metric(/^svctrail_mirror_audit_events_total\{outcome="pending"\} (\d+)$/m)).toBe(pendingBefore + 1);
      expect(await mirroredIp('lb')).toBe('203.0.113.21');
    } finally {
      proxy.holdWatches(false);
    }
    await until(async () => (await lastChange('lb')).actor.auditID === 'audit-first', 'the waiting audit event to be joined');
    const change = await lastChange('lb');
    expect(change).toMatchObject({ actor: { user: CONTROLLER, sourceIPs: ['10.244.0.12'] }, source: { via: 'watch' } });
    expect(change.events[0].data.ingress).toMatchObject([{ ip: '203.0.113.22' }]);
  });

  it('answers 200 and ignores what tells of no successful Service write: other stages, resources and failed requests', async () => {
    const ignoredBefore = await metric(/^svctrail_mirror_audit_events_total\{outcome="ignored"\} (\d+)$/m);
    const answer = (await source.client.get('/api/v1/namespaces/a/services/lb')).json;
    const res = await post(
      eventList(
        auditEvent('i1', answer, { stage: 'RequestReceived' }),
        auditEvent('i2', answer, { objectRef: { resource: 'endpoints', namespace: 'a', name: 'lb' } }),
        auditEvent('i3', answer, { responseStatus: { code: 409 } }),
      ),
    );
    expect(res.status).toBe(200);
    expect(await metric(/^svctrail_mirror_audit_events_total\{outcome="ignored"\} (\d+)$/m)).toBe(ignoredBefore + 3);
  });

  it("joins who wrote an Event about a Service (a recorder's POST and repeat) to its recorded write; an Event about a Pod is ignored", async () => {
    const EVENTS = '/api/v1/namespaces/a/events';
    const eventOccurrences = async () => ((await mirror.client.get(`${H}/namespaces/a/services/lb/events?limit=500`)).json.items as any[]).filter((o) => o.event.name === 'lb.audited');
    const created = await source.client.post(EVENTS, recorderEvent('a', 'lb.audited', { kind: 'Service', name: 'lb' }));
    expect(created.status).toBe(201);
    const repeated = await source.client.request('PATCH', `${EVENTS}/lb.audited`, { body: repeatBody(2), contentType: STRATEGIC_MERGE_PATCH });
    expect(repeated.status).toBe(200);
    await until(async () => (await eventOccurrences()).length === 2, 'the Event writes to be recorded');
    expect((await eventOccurrences()).map((o) => o.actor.user)).toEqual(['', '']);
    const eventAudit = (auditID: string, verb: string, answer: any) =>
      auditEvent(auditID, answer, {
        verb,
        requestURI: `${EVENTS}/lb.audited`,
        user: { username: 'system:serviceaccount:kube-system:service-controller', groups: ['system:serviceaccounts', 'system:authenticated'] },
        userAgent: 'kube-controller-manager/v1.32.0',
        objectRef: { resource: 'events', namespace: 'a', name: 'lb.audited', apiVersion: 'v1' },
      });
    const ignoredBefore = await metric(/^svctrail_mirror_audit_events_total\{outcome="ignored"\} (\d+)$/m);
    const aboutPod = { ...created.json, metadata: { ...created.json.metadata, name: 'web-0.audited' }, involvedObject: { kind: 'Pod', namespace: 'a', name: 'web-0', apiVersion: 'v1' } };
    const res = await post(eventList(eventAudit('ev-create', 'create', created.json), eventAudit('ev-patch', 'patch', repeated.json), eventAudit('ev-pod', 'create', aboutPod)));
    expect(res.status).toBe(200);
    expect(await metric(/^svctrail_mirror_audit_events_total\{outcome="ignored"\} (\d+)$/m)).toBe(ignoredBefore + 1);
    const joined = await eventOccurrences();
    expect(joined.map((o) => [o.happened, o.actor.user, o.actor.auditID, o.actor.userAgent])).toEqual([
      ['created', 'system:serviceaccount:kube-system:service-controller', 'ev-create', 'kube-controller-manager/v1.32.0'],
      ['repeated', 'system:serviceaccount:kube-system:service-controller', 'ev-patch', 'kube-controller-manager/v1.32.0'],
    ]);
  });

  it('refuses a body that is no EventList with a 400 Status, and a user without the policy with 403', async () => {
    const bad = await post('{"kind":"Event"');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect((await post({ kind: 'Pod', apiVersion: 'v1' })).status).toBe(400);
    const forbidden = await post(eventList(), strangerToken);
    expect(forbidden.status).toBe(403);
    // The webhook's own user may do nothing else.
    expect((await mirror.client.withToken(webhookToken).get('/api/v1/services')).status).toBe(403);
  });
});
