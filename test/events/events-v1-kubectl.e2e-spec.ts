// The default kubectl on events.k8s.io: `get events.events.k8s.io` (the server's Table),
// `get events.v1.events.k8s.io NAME -o yaml`, `explain --api-version=events.k8s.io/v1` (the v3
// document), `create -f` with server-side field validation, and `delete`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { findKubectl, kubectl, kubectlVersion } from '../helpers/kubectl';
import { startTestServer, type TestServer } from '../helpers/test-server';

const binary = findKubectl();
const describeIfKubectl = binary ? describe : describe.skip;
if (!binary) process.stdout.write('SKIPPED events.k8s.io kubectl e2e: kubectl is not on the PATH\n');

const NS = 'kev';

function recorded(name: string, reason: string) {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: '2026-12-07T10:00:00.123456Z',
    reportingController: 'example.com/lb-controller',
    reportingInstance: 'lb-controller-node-1',
    action: 'Allocate',
    reason,
    regarding: { kind: 'Service', namespace: NS, name: 'web', apiVersion: 'v1' },
    note: `${reason} for web`,
    type: 'Normal',
  };
}

describeIfKubectl('kubectl on events.k8s.io/v1', () => {
  let t: TestServer;
  let work: string;
  const run = (...args: string[]) => kubectl(binary!, t.server.kubeconfigPath, [`--cache-dir=${join(work, 'cache')}`, '-n', NS, ...args]);

  beforeAll(async () => {
    t = await startTestServer();
    work = mkdtempSync(join(tmpdir(), 'svctrail-kubectl-events-'));
    process.stdout.write(`events.k8s.io kubectl e2e with ${binary} (${kubectlVersion(binary!)})\n`);
    await t.client.post(`/api/v1/namespaces/${NS}/services`, { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    expect((await t.client.post(`/apis/events.k8s.io/v1/namespaces/${NS}/events`, recorded('web.188a0e1a2b3c4d01', 'IPAllocated'))).status).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('given Events, when `get events.events.k8s.io`, then the Table of the written and the derived ones', async () => {
    const res = await run('get', 'events.events.k8s.io');
    expect(res.stderr).toBe('');
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
    expect(lines.some((l) => /Normal\s+IPAllocated\s+service\/web\s+IPAllocated for web$/.test(l))).toBe(true);
    expect(lines.some((l) => /Normal\s+Created\s+service\/web\s+Service kev\/web created by admin$/.test(l))).toBe(true);
  });

  it('given an Event, when `get events.v1.events.k8s.io NAME -o yaml`, then the events.k8s.io/v1 object', async () => {
    const res = await run('get', 'events.v1.events.k8s.io', 'web.188a0e1a2b3c4d01', '-o', 'yaml');
    expect(res.stderr).toBe('');
    const object = parseYaml(res.stdout);
    expect(object).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'web.188a0e1a2b3c4d01', namespace: NS },
      eventTime: '2026-12-07T10:00:00.123456Z',
      reportingController: 'example.com/lb-controller',
      regarding: { kind: 'Service', name: 'web' },
      note: 'IPAllocated for web',
    });
    expect(object.message).toBeUndefined();
  });

  it('given the OpenAPI documents, when `explain events --api-version=events.k8s.io/v1`, then the events.k8s.io Event schema', async () => {
    const res = await run('explain', 'events.regarding', '--api-version=events.k8s.io/v1');
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/GROUP:\s+events\.k8s\.io/);
    expect(res.stdout).toMatch(/KIND:\s+Event/);
    expect(res.stdout).toMatch(/VERSION:\s+v1/);
    expect(res.stdout).toMatch(/FIELD:\s+regarding <ObjectReference>/);
    expect(res.stdout).toContain('regarding contains the object this Event is about');
  });

  it('given manifests, when `create -f`, then validation happens on the server (strict decoding), and `delete` names the group', async () => {
    const file = (name: string, object: object) => {
      const path = join(work, name);
      writeFileSync(path, JSON.stringify(object));
      return path;
    };
    const created = await run('create', '-f', file('event.json', recorded('web.188a0e1a2b3c4d02', 'Synced')));
    expect(created).toMatchObject({ status: 0, stdout: 'event.events.k8s.io/web.188a0e1a2b3c4d02 created\n' });
    const bad = await run('create', '-f', file('bad.json', { ...recorded('web.188a0e1a2b3c4d03', 'Synced'), message: 'core/v1 name' }));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('strict decoding error: unknown field "message"');
    const deleted = await run('delete', 'events.events.k8s.io', 'web.188a0e1a2b3c4d02');
    expect(deleted).toMatchObject({ status: 0, stdout: 'event.events.k8s.io "web.188a0e1a2b3c4d02" deleted\n' });
    // (kubectl's own NotFound text comes from its follow-up GET of the namespace, which svctrail does not serve.)
    const gone = await t.client.get(`/apis/events.k8s.io/v1/namespaces/${NS}/events/web.188a0e1a2b3c4d02`);
    expect(gone.json.message).toBe('events.events.k8s.io "web.188a0e1a2b3c4d02" not found');
  });
});
