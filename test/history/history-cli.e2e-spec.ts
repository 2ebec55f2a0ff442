// `svctrail history | who-had | conditions` answer exactly what the history API answers.
import { runConditions } from '../../src/cli/conditions.command';
import { runGet } from '../../src/cli/get.command';
import { runHistory } from '../../src/cli/history.command';
import { runOwners } from '../../src/cli/owners.command';
import { runWhoHad } from '../../src/cli/who-had.command';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { LegacyEventRecorder } from './event-recorder';

const NS = '/api/v1/namespaces/cli/services';
const H = '/apis/history.svctrail.io/v1alpha1';

describe('history CLI commands', () => {
  let t: TestServer;
  const run = async (command: (argv: string[], out: (l: string) => void) => Promise<number>, argv: string[]) => {
    const lines: string[] = [];
    const code = await command([...argv, '--data-dir', t.dataDir], (l) => lines.push(l));
    return { code, text: lines.join('\n') };
  };

  beforeAll(async () => {
    t = await startTestServer();
    const created = await t.client.post(NS, { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    const ready = (status: string) => [{ type: 'Ready', status, reason: status === 'True' ? 'Up' : 'Down', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }];
    // A cloud controller's Warning between the writes, repeated after the second.
    const recorder = new LegacyEventRecorder(t.client, 'service-controller');
    const service = { namespace: 'cli', name: 'web', uid: created.json.metadata.uid };
    await recorder.event(service, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer', Date.parse('2026-01-01T00:00:00Z'));
    const one = await t.client.put(`${NS}/web/status`, { ...created.json, status: { loadBalancer: { ingress: [{ ip: '198.51.100.4' }] }, conditions: ready('True') } });
    await recorder.event(service, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer', Date.parse('2026-01-01T00:01:00Z'));
    await t.client.put(`${NS}/web/status`, { ...one.json, status: { loadBalancer: { ingress: [{ ip: '198.51.100.5' }] }, conditions: ready('False') } });
  });
  afterAll(async () => t.stop());

  it("history -o json is the API's changes and Events of the Service, in resourceVersion order", async () => {
    const cli = await run(runHistory, ['cli/web', '-o', 'json']);
    expect(cli.code).toBe(0);
    const changes = (await t.client.get(`${H}/namespaces/cli/services/web/changes`)).json;
    const events = (await t.client.get(`${H}/namespaces/cli/services/web/events`)).json;
    const list = JSON.parse(cli.text);
    expect(list).toMatchObject({ kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: changes.metadata.resourceVersion } });
    expect(list.items.map((i: any) => i.kind)).toEqual(['ServiceChange', 'EventOccurrence', 'ServiceChange', 'EventOccurrence', 'ServiceChange']);
    expect(list.items.filter((i: any) => i.kind === 'ServiceChange')).toEqual(changes.items);
    expect(list.items.filter((i: any) => i.kind === 'EventOccurrence')).toEqual(events.items);
    const human = await run(runHistory, ['cli/web']);
    const lines = human.text.split('\n');
    expect(lines[0]).toMatch(/^RV\s+TIME\s+USER\s+VIA\s+VERB\s+EVENTS\s+CHANGES$/);
    expect(lines[2]).toMatch(/^\d+\s+\S+\s+admin\s+service-controller\s+event created\s+Warning SyncLoadBalancerFailed\s+service-controller: Error syncing load balancer$/);
    expect(lines[4]).toMatch(/\s+event repeated\s+Warning SyncLoadBalancerFailed ×2\s+/);
    expect(human.text).toMatch(/patch|update status\s+LoadBalancerIngressChanged/);
  });

  it('history --actor and --event-type select changes only; --limit counts both together', async () => {
    const byActor = JSON.parse((await run(runHistory, ['cli/web', '--actor', 'admin', '-o', 'json'])).text);
    expect(byActor).toEqual((await t.client.get(`${H}/namespaces/cli/services/web/changes?actor=admin`)).json);
    const byType = JSON.parse((await run(runHistory, ['cli/web', '--event-type', 'ServiceCreated', '-o', 'json'])).text);
    expect(byType.items.map((i: any) => i.kind)).toEqual(['ServiceChange']);
    const two = JSON.parse((await run(runHistory, ['cli/web', '--limit', '2', '-o', 'json'])).text);
    expect(two.items.map((i: any) => i.kind)).toEqual(['ServiceChange', 'EventOccurrence']);
    expect((await run(runHistory, ['cli/web', '--limit', '2'])).text).toMatch(/\(more: raise --limit, or narrow the window with --since\/--until\)$/);
  });

  it("history reads a store written before controllers' Events as one without any", async () => {
    const old = mkdtempSync(join(tmpdir(), 'svctrail-before-events-'));
    try {
      const live = new Database(join(t.dataDir, 'svctrail.db'), { readonly: true });
      live.exec(`VACUUM INTO '${join(old, 'svctrail.db')}'`);
      live.close();
      const copy = new Database(join(old, 'svctrail.db'));
      copy.exec('DROP TABLE kube_event_occurrences');
      copy.close();
      const lines: string[] = [];
      expect(await runHistory(['cli/web', '-o', 'json', '--data-dir', old], (l) => lines.push(l))).toBe(0);
      expect(JSON.parse(lines.join('\n')).items.map((i: any) => i.kind)).toEqual(['ServiceChange', 'ServiceChange', 'ServiceChange']);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });

  it('who-had -o json equals ingressowners; the table names the holder', async () => {
    const cli = await run(runWhoHad, ['198.51.100.4', '-o', 'json']);
    expect(JSON.parse(cli.text)).toEqual((await t.client.get(`${H}/ingressowners?address=198.51.100.4`)).json);
    const human = await run(runWhoHad, ['198.51.100.4']);
    expect(human.text).toMatch(/^cli\/web\s+\S+\s+.*\(rv \d+\)\s+admin\s+.*\(rv \d+\)\s+admin$/m);
    expect((await run(runWhoHad, ['192.0.2.99'])).text).toBe('nobody held 192.0.2.99');
  });

  it('conditions -o json equals the transitions and summaries of the API', async () => {
    const cli = JSON.parse((await run(runConditions, ['cli/web', '-o', 'json'])).text);
    expect(cli.transitions).toEqual((await t.client.get(`${H}/namespaces/cli/services/web/conditiontransitions`)).json);
    expect(cli.summaries.items.map((s: any) => s.conditions.map((c: any) => [c.type, c.status, c.transitions]))).toEqual([[['Ready', 'False', 2]]]);
  });

  it('owners -o json equals fieldownerships; the table names owner, operation and takeover', async () => {
    const cli = await run(runOwners, ['cli/web', '.status.loadBalancer', '-o', 'json']);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.text)).toEqual((await t.client.get(`${H}/namespaces/cli/services/web/fieldownerships?field=.status.loadBalancer`)).json);
    const human = await run(runOwners, ['cli/web', '.status.loadBalancer.ingress']);
    expect(human.text.split('\n')[0]).toMatch(/^FIELD\s+MANAGER\s+OPERATION\s+FROM\s+TO\s+ENDED BY$/);
    expect(human.text).toMatch(/^\.status\.loadBalancer\.ingress\s+\S+\s+Update \(status\)\s+.*\(still owned\)\s*$/m);
    expect((await run(runOwners, ['cli/web', '.spec.nothing'])).text).toBe('no recorded owner of .spec.nothing');
  });

  it('get --resource-version and --at answer what the API answers', async () => {
    const changes = (await t.client.get(`${H}/namespaces/cli/services/web/changes`)).json.items;
    const rv = changes[1].metadata.resourceVersion;
    const api = await t.client.get(`${NS}/web?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    const cli = await run(runGet, ['cli/web', '--resource-version', rv, '-o', 'json']);
    expect(cli.code).toBe(0);
    expect(JSON.stringify(JSON.parse(cli.text))).toBe(api.text);
    const at = changes[1].time;
    expect(JSON.stringify(JSON.parse((await run(runGet, ['cli/web', '--at', at, '-o', 'json'])).text))).toBe((await t.client.get(`${NS}/web?asOf=${encodeURIComponent(at)}`)).text);
    const before = await run(runGet, ['cli/web', '--at', '2000-01-01T00:00:00Z']);
    expect(before.code).toBe(1);
    expect(before.text).toMatch(/^services "web" not found in namespace cli at resourceVersion \d+$/);
  });

  it('only read: no migrations, integrity check or checkpoint, and they answer while a writer holds the write lock', async () => {
    const path = join(t.dataDir, 'svctrail.db');
    const created = await t.client.post(NS, { metadata: { name: 'busy' }, spec: { ports: [{ port: 80 }] } });
    expect(created.status).toBe(201);
    const walBefore = statSync(`${path}-wal`).size;
    expect(walBefore).toBeGreaterThan(0);
    // What a running server's group commit holds while it writes.
    const writer = new Database(path);
    writer.pragma('busy_timeout = 0');
    writer.exec('BEGIN IMMEDIATE');
    const pragma = jest.spyOn(Database.prototype, 'pragma');
    let pragmas: string[];
    try {
      expect((await run(runGet, ['cli/busy', '-o', 'json'])).code).toBe(0);
      expect((await run(runHistory, ['cli/busy'])).code).toBe(0);
      expect((await run(runWhoHad, ['198.51.100.4'])).code).toBe(0);
      expect((await run(runConditions, ['cli/web'])).code).toBe(0);
    } finally {
      pragmas = pragma.mock.calls.map(([source]) => source);
      pragma.mockRestore();
      writer.exec('ROLLBACK');
      writer.close();
    }
    expect(pragmas.filter((p) => /journal_mode|quick_check|integrity_check|wal_checkpoint/.test(p))).toEqual([]);
    // The WAL is as the server left it: nothing checkpointed or truncated it.
    expect(statSync(`${path}-wal`).size).toBe(walBefore);
  });

  it('bad input is a usage error', async () => {
    await expect(run(runHistory, ['not-a-ref'])).rejects.toThrow('expected NAMESPACE/NAME');
    await expect(run(runHistory, ['cli/web', '--since', 'yesterday'])).rejects.toThrow(/since/);
  });
});
