// A mirror's store through export and import (SQLite → SQLite, SQLite → PostgreSQL), as an
// operator moves it: a mirror recording a svctrail source behind the fault proxy, with audit
// events joined to its writes (and one still waiting), is exported while it runs; the import is
// served as a mirror of the same source, through a proxy of its own. Every history answer is the
// same bytes, `source` and `actor` included; verify and replay keep it so; and the imported
// store goes on mirroring from where the export stopped — no LIST, each new source write once.
// On SQLite, a point-in-time copy of the mirror answers as the mirror did at its point.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AuditedMirror, auditEventList, startAuditedMirror, until } from '../helpers/audited-mirror';
import { runCliInProcess } from '../helpers/cli-in-process';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { describePostgres } from '../helpers/postgres';
import { recorderEvent, repeatBody, STRATEGIC_MERGE_PATCH } from '../helpers/recorder-event';
import { startTestServer, type TestServer } from '../helpers/test-server';

const H = '/apis/history.svctrail.io/v1alpha1';
const EVENTS = '/api/v1/namespaces/a/events';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answers compared, store against store: every history resource, the feed, and the live APIs. */
const answerPaths = (t: string, from: string, to: string) => [
  '/api/v1/services',
  '/api/v1/namespaces/a/services/web',
  '/api/v1/events',
  EVENTS,
  `${H}/changes?limit=500`,
  `${H}/namespaces/a/services/web/changes`,
  `${H}/namespaces/a/services/web/changes?limit=2`,
  `${H}/namespaces/a/services/web/changes?until=${t}`,
  `${H}/namespaces/a/changes?eventType=LoadBalancerIngressChanged`,
  `${H}/namespaces/a/services/web/conditiontransitions`,
  `${H}/namespaces/a/services/web/fieldownerships?field=.status.loadBalancer.ingress`,
  `${H}/namespaces/a/services/web/ingressintervals`,
  `${H}/ingressintervals?until=${t}`,
  `${H}/ingressowners?address=203.0.113.8`,
  `${H}/ingressowners?address=203.0.113.8&to=${t}`,
  `${H}/ingressowners?address=203.0.113.10`,
  `${H}/ingressconflicts`,
  `${H}/namespaces/a/services/web/events`,
  `${H}/events`,
  `${H}/events?until=${t}`,
  `${H}/namespaces/a/services/web/activitybuckets?since=${from}&until=${to}&buckets=10`,
  `${H}/feed?after=0`,
  `${H}/compactions`,
];

interface Target {
  /** The import's store argument (--data-dir DIR or --storage URL). */
  store(dir: string): string[];
  /** The server config naming that store. */
  config(dir: string): Record<string, unknown>;
  /** The data directory of the server serving it. */
  dataDir(dir: string): string;
}

function roundTrip(target: () => Target, options: { pointInTime: boolean }) {
  let dir: string;
  let m: AuditedMirror;
  let original: TestServer;
  let imported: FaultProxy;
  let copy: TestServer;
  let beforeJoin: string;
  let paths: string[];

  const sourceRequest = async (method: string, path: string, body?: unknown, contentType?: string) => {
    const res = await m.source.client.request(method, path, body === undefined ? {} : { body: body as object, ...(contentType ? { contentType } : {}) });
    if (res.status >= 300) throw new Error(`source ${method} ${path}: ${res.status} ${res.text}`);
    return res.json;
  };
  const setIngress = (name: string, ip: string, fieldManager: string, conditions?: object[]) => m.setIngress('a', name, ip, fieldManager, conditions);
  const ingressOf = async (server: TestServer, name: string) => (await server.client.get(`/api/v1/namespaces/a/services/${name}`)).json?.status?.loadBalancer?.ingress?.[0]?.ip;
  const occurrences = async (server: TestServer) => (await server.client.get(`${H}/namespaces/a/services/web/events?limit=500`)).json.items as any[];
  const changes = async (server: TestServer) => (await server.client.get(`${H}/namespaces/a/services/web/changes?limit=500`)).json.items as any[];
  const listsThrough = (through: FaultProxy) => through.requests.filter((r) => r.method === 'GET' && /^\/api\/v1\/(services|events)\?/.test(r.path) && !/[?&]watch=(true|1)/.test(r.path));
  const answers = async (server: TestServer) => {
    const out: { path: string; status: number; text: string }[] = [];
    for (const path of paths) {
      const res = await server.client.get(path);
      out.push({ path, status: res.status, text: res.text });
    }
    return out;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-mirror-round-trip-'));
    m = await startAuditedMirror(async (source) => {
      for (const name of ['web', 'api', 'old']) {
        expect((await source.client.post('/api/v1/namespaces/a/services', { metadata: { name }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } })).status).toBe(201);
      }
      const current = (await source.client.get('/api/v1/namespaces/a/services/web')).json;
      expect(
        (await source.client.put('/api/v1/namespaces/a/services/web/status?fieldManager=metallb-controller', { ...current, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } })).status,
      ).toBe(200);
      expect((await source.client.post(EVENTS, recorderEvent('a', 'web.ensuring', { kind: 'Service', name: 'web' }))).status).toBe(201);
    });
    original = m.mirror;
    await until(async () => (await ingressOf(original, 'web')) === '203.0.113.7' && (await occurrences(original)).length === 1, 'the first lists to be recorded');

    // From the watch: an address whose audit event is joined after the write; a condition; a
    // second Service taking the address (a conflict, no audit event); a deletion; an Event
    // repeated (its audit event joined) and another one; the first address given up for another
    // (audited); and an audit event whose write never comes.
    const set = await setIngress('web', '203.0.113.8', 'metallb-controller');
    await pause(10);
    beforeJoin = new Date().toISOString();
    await pause(10);
    expect(await m.postAudit(auditEventList('audit-web', set, { resource: 'services', subresource: 'status' }))).toBe(200);
    await setIngress('web', '203.0.113.8', 'metallb-controller', [{ type: 'Ready', status: 'True', reason: 'Up', message: '', lastTransitionTime: '2026-12-01T02:14:00Z' }]);
    await setIngress('api', '203.0.113.8', 'kube-vip');
    await sourceRequest('DELETE', '/api/v1/namespaces/a/services/old');
    const repeated = await sourceRequest('PATCH', `${EVENTS}/web.ensuring`, repeatBody(2), STRATEGIC_MERGE_PATCH);
    await sourceRequest('POST', EVENTS, recorderEvent('a', 'web.ensured', { kind: 'Service', name: 'web' }, { reason: 'EnsuredLoadBalancer' }));
    const moved = await setIngress('web', '203.0.113.10', 'kube-vip');
    await until(
      async () =>
        (await occurrences(original)).length === 3 && (await original.client.get('/api/v1/namespaces/a/services/old')).status === 404 && (await ingressOf(original, 'web')) === '203.0.113.10',
      'the watch to bring every write',
    );
    expect(await m.postAudit(auditEventList('audit-event', repeated, { resource: 'events' }, 'patch'))).toBe(200);
    expect(await m.postAudit(auditEventList('audit-move', moved, { resource: 'services', subresource: 'status' }))).toBe(200);
    const unseen = { ...set, metadata: { ...set.metadata, resourceVersion: '999999' } };
    expect(await m.postAudit(auditEventList('audit-waiting', unseen, { resource: 'services', subresource: 'status' }))).toBe(200);
    await until(async () => (await occurrences(original)).some((o) => o.actor.auditID === 'audit-event'), 'the Event write to be audited');
    await until(async () => (await changes(original)).some((c) => c.actor.auditID === 'audit-move'), 'the move to be audited');

    const times = (await changes(original)).map((c) => c.time as string);
    paths = answerPaths(encodeURIComponent(beforeJoin), encodeURIComponent(times[0]), encodeURIComponent(new Date(Date.parse(times.at(-1)!) + 1000).toISOString()));

    // Exported while the mirror runs, imported, and served as a mirror of the same source through a proxy of its own.
    const file = join(dir, 'mirror.ndjson');
    const exported = await runCliInProcess(['export', '--data-dir', original.dataDir, '--out', file]);
    expect(exported).toMatchObject({ code: 0, stdout: expect.stringMatching(/^exported \d+ events \(resourceVersions 1\.\.\d+\) and \d+ facts of the mirror to /) });
    const into = target();
    const importedRun = await runCliInProcess(['import', ...into.store(join(dir, 'copy')), file]);
    expect(importedRun).toMatchObject({ code: 0, stdout: expect.stringMatching(/ and \d+ facts of the mirror into /) });
    imported = await startFaultProxy({ upstream: m.source.server.url, upstreamCa: m.source.ca });
    copy = await startTestServer({
      dataDir: into.dataDir(join(dir, 'copy')),
      config: { ...into.config(join(dir, 'copy')), mirror: m.kubeconfigThrough(imported, 'copy.kubeconfig'), mirrorWatchTimeoutSeconds: 20 },
    });
    await until(async () => (await copy.client.get('/readyz')).text === 'ok', 'the imported mirror to be in sync');
  }, 120_000);

  afterAll(async () => {
    await copy?.stop();
    await imported?.close();
    await m?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers every history question with the same bytes, source and actor included', async () => {
    const before = await answers(original);
    expect(before.every((a) => a.status === 200)).toBe(true);
    // What the answers hold: sources, joined actors, a field manager's hint, the waiting audit event's absence.
    const all = before.map((a) => a.text).join('\n');
    const held = ['"via":"watch"', '"via":"list"', '"auditID":"audit-web"', '"auditID":"audit-event"', '"setByKind":"audit"', '"setByKind":"fieldManager"', '"clearedByKind":"audit"'];
    expect(held.filter((h) => !all.includes(h))).toEqual([]);
    const after = await answers(copy);
    for (const [i, answer] of after.entries()) expect(answer).toEqual(before[i]);
  });

  it('prints the same history and holders from the command line', async () => {
    const originalStore = ['--data-dir', original.dataDir];
    const copyStore = target().store(join(dir, 'copy'));
    for (const command of [
      ['history', 'a/web'],
      ['history', 'a/web', '-o', 'json'],
      ['who-had', '203.0.113.8'],
      ['owners', 'a/web', '.status.loadBalancer.ingress'],
    ]) {
      const mine = await runCliInProcess([...command, ...originalStore]);
      expect(mine.code).toBe(0);
      expect({ command, stdout: (await runCliInProcess([...command, ...copyStore])).stdout }).toEqual({ command, stdout: mine.stdout });
    }
  });

  it("verifies clean with the mirror's facts checked, and a replay changes no row of them or of any answer", async () => {
    const copyStore = target().store(join(dir, 'copy'));
    const verified = await runCliInProcess(['verify', ...copyStore, '-o', 'json']);
    expect(verified.code).toBe(0);
    const tables = JSON.parse(verified.stdout).tables as { table: string; liveRows: number; differences: number }[];
    expect(tables.filter((t) => ['observed_writes', 'audit_actors'].includes(t.table)).map((t) => [t.table, t.differences])).toEqual([
      ['observed_writes', 0],
      ['audit_actors', 0],
    ]);
    expect(tables.find((t) => t.table === 'audit_actors')!.liveRows).toBe(3);
    const replayed = await runCliInProcess(['replay', ...copyStore, '-o', 'json']);
    expect(replayed.code).toBe(0);
    expect((JSON.parse(replayed.stdout).tables as { changed: number }[]).every((t) => t.changed === 0)).toBe(true);
    const after = await answers(copy);
    for (const [i, answer] of (await answers(original)).entries()) expect(after[i]).toEqual(answer);
  });

  if (options.pointInTime) {
    it('a point-in-time copy of the mirror, served without --mirror, answers as the mirror did at its point', async () => {
      const out = join(dir, 'pit');
      expect((await runCliInProcess(['replay', '--data-dir', original.dataDir, '--until', beforeJoin, '--out', out])).code).toBe(0);
      const pit = await startTestServer({ dataDir: out });
      try {
        const t = encodeURIComponent(beforeJoin);
        for (const [path, asked] of [
          [`${H}/namespaces/a/services/web/changes`, `${H}/namespaces/a/services/web/changes?until=${t}`],
          [`${H}/namespaces/a/services/web/conditiontransitions`, `${H}/namespaces/a/services/web/conditiontransitions?until=${t}`],
          [`${H}/namespaces/a/services/web/events`, `${H}/namespaces/a/services/web/events?until=${t}`],
        ]) {
          const then = (await original.client.get(asked)).json.items;
          expect({ path, items: (await pit.client.get(path)).json.items }).toEqual({ path, items: then });
        }
        // (The condition came after the point: no transition then.)
        expect((await pit.client.get(`${H}/namespaces/a/services/web/changes`)).json.items.map((c: any) => c.source.via)).toEqual(['list', 'watch']);
        expect((await pit.client.get(`${H}/namespaces/a/services/web/events`)).json.items.map((o: any) => o.happened)).toEqual(['created']);
        // Who set the address, as known then: not yet the audit event's user.
        const [owner] = (await pit.client.get(`${H}/ingressowners?address=203.0.113.8`)).json.items;
        const [ownerThen] = (await original.client.get(`${H}/ingressowners?address=203.0.113.8&to=${t}`)).json.items;
        expect(owner.from).toEqual(ownerThen.from);
        expect(owner.from).toMatchObject({ source: { via: 'watch' } });
        expect(owner.from.setByKind).not.toBe('audit');
      } finally {
        await pit.stop();
      }
    });
  }

  it('goes on mirroring the same source from where the export stopped: no LIST, each new source write recorded once', async () => {
    expect(listsThrough(imported)).toEqual([]);
    const watches = imported.requests.filter((r) => /[?&]watch=(true|1)/.test(r.path));
    expect(watches.some((r) => r.path.startsWith('/api/v1/services?'))).toBe(true);
    expect(watches.some((r) => r.path.startsWith('/api/v1/events?'))).toBe(true);
    // One at a time, so that both mirrors record them in one order (their two watches run side by side).
    const written = await setIngress('web', '203.0.113.9', 'metallb-controller');
    for (const server of [original, copy]) await until(async () => (await ingressOf(server, 'web')) === '203.0.113.9', 'the new address to be recorded');
    await sourceRequest('POST', EVENTS, recorderEvent('a', 'web.moved', { kind: 'Service', name: 'web' }, { reason: 'IPAllocated' }));
    for (const server of [original, copy]) await until(async () => (await occurrences(server)).some((o) => o.event.name === 'web.moved'), 'the new Event to be recorded');
    const mine = await changes(original);
    const theirs = await changes(copy);
    expect(theirs.filter((c) => c.source?.resourceVersion === written.metadata.resourceVersion)).toMatchObject([{ source: { via: 'watch' }, verb: 'update' }]);
    expect(theirs.map((c) => [c.metadata.resourceVersion, c.source.resourceVersion, c.source.via, c.events])).toEqual(
      mine.map((c) => [c.metadata.resourceVersion, c.source.resourceVersion, c.source.via, c.events]),
    );
    expect((await occurrences(copy)).filter((o) => o.event.name === 'web.moved')).toMatchObject([{ happened: 'created', source: { via: 'watch' } }]);
    expect(listsThrough(imported)).toEqual([]);
    expect((await copy.client.get('/metrics')).text).toMatch(/^svctrail_mirror_relists_total\{resource="services"\} 0$/m);
  });
}

describe('a mirror store exported and imported, SQLite → SQLite', () =>
  roundTrip(
    () => ({
      store: (dir) => ['--data-dir', dir],
      config: () => ({}),
      dataDir: (dir) => dir,
    }),
    { pointInTime: true },
  ));

describePostgres('a mirror store exported and imported, SQLite → PostgreSQL', (database) =>
  roundTrip(
    () => ({
      store: () => ['--storage', database().url],
      config: () => ({ storageUrl: database().url }),
      dataDir: (dir) => dir,
    }),
    { pointInTime: false },
  ),
);
