// The mirror survives kill -9 without losing or repeating a state: the mirror runs as a child
// process recording a source (svctrail in the test process, behind the fault proxy) that takes a
// steady stream of status writes and, beside it, of Event writes about the Services (creations,
// count bumps, deletions, and Events about a Pod that are never recorded); it is killed at random
// moments and restarted on the same data directory. Afterwards the mirror's history of each
// Service, and its history of Events, hold every state the source's own histories hold, each once
// and in order, and the mirror listed each resource only once: every restart resumed both watches,
// each from its own stored resourceVersion.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderKubeconfig } from '../../src/kubeconfig/kubeconfig';
import { seededRandom } from '../helpers/decider-harness';
import { startFaultProxy } from '../helpers/fault-proxy';
import { isWatchPath } from '../helpers/fault-proxy';
import { HttpsClient } from '../helpers/https-client';
import { recorderEvent, repeatBody, STRATEGIC_MERGE_PATCH } from '../helpers/recorder-event';
import { buildDist, removeBuild, startServerProcess } from '../helpers/server-process';
import { startTestServer } from '../helpers/test-server';

const CYCLES = Number(process.env.SVCTRAIL_MIRROR_CRASH_CYCLES ?? 4);
const H = '/apis/history.svctrail.io/v1alpha1';
const NAMES = ['lb-0', 'lb-1', 'lb-2'];

/** Each Event write about a Service in a history, oldest first: the Event, what happened, its count, and the source's resourceVersion of it. */
async function eventWrites(client: HttpsClient, sourceRv: (o: any) => string): Promise<string[]> {
  const items = (await client.get(`${H}/namespaces/crash/events?limit=5000`)).json.items as any[];
  return items.filter((o) => o.involvedObject.kind === 'Service').map((o) => `${o.event.name} ${o.happened} ${o.count} ${sourceRv(o)}`);
}

/** The ingress IP after each write of a Service's history, oldest first. */
async function ingressSequence(client: HttpsClient, name: string): Promise<string[]> {
  const items = (await client.get(`${H}/namespaces/crash/services/${name}/changes?limit=5000`)).json.items as any[];
  return items.flatMap((c) => c.events.filter((e: any) => e.type === 'LoadBalancerIngressChanged').map((e: any) => e.data.ingress[0]?.ip ?? ''));
}

describe('mirror under kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svctrail-mirror-kill9-'));
  const dataDir = join(dir, 'mirror');

  beforeAll(() => buildDist(), 120_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    removeBuild();
  });

  it(`records every state of the source's Services and Events once and in order over ${CYCLES} kill/restart cycles, resuming without relisting`, async () => {
    const random = seededRandom(11);
    const source = await startTestServer();
    const proxy = await startFaultProxy({ upstream: source.server.url, upstreamCa: source.ca });
    try {
      const kubeconfig = join(dir, 'source.kubeconfig');
      writeFileSync(kubeconfig, renderKubeconfig({ server: proxy.url, caPem: proxy.caPem, user: { token: source.adminToken }, userName: 'admin' }));
      for (const name of NAMES) {
        const res = await source.client.post('/api/v1/namespaces/crash/services', { metadata: { name }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
        expect(res.status).toBe(201);
      }
      // The source keeps writing across every kill, from the moment the first list is recorded
      // (what happened at the source before a mirror's first list is not observable).
      let writing = true;
      let written = 0;
      const write = async () => {
        for (let i = 1; writing; i++) {
          const name = NAMES[i % NAMES.length];
          const current = (await source.client.get(`/api/v1/namespaces/crash/services/${name}`)).json;
          const res = await source.client.put(`/api/v1/namespaces/crash/services/${name}/status`, {
            ...current,
            status: { loadBalancer: { ingress: [{ ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }] } },
          });
          if (res.status !== 200) throw new Error(`source write: ${res.status} ${res.text}`);
          written++;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      };
      // Each Event about a Service is created, bumped twice, and every other one deleted; every
      // fifth is about a Pod instead.
      let eventsWritten = 0;
      const writeEvents = async () => {
        const ok = (res: { status: number; text: string }) => {
          if (res.status >= 300) throw new Error(`source Event write: ${res.status} ${res.text}`);
          eventsWritten++;
        };
        for (let i = 1; writing; i++) {
          const about = i % 5 === 0 ? { kind: 'Pod', name: 'web-0' } : { kind: 'Service', name: NAMES[i % NAMES.length] };
          // Not 16 hex digits: those name the Events svctrail derives from its Services' log.
          const name = `${about.name}.e${i.toString(16).padStart(8, '0')}`;
          const path = `/api/v1/namespaces/crash/events/${name}`;
          ok(await source.client.post('/api/v1/namespaces/crash/events', recorderEvent('crash', name, about)));
          for (const count of [2, 3]) ok(await source.client.request('PATCH', path, { body: repeatBody(count), contentType: STRATEGIC_MERGE_PATCH }));
          if (i % 2 === 0) ok(await source.client.delete(path));
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      };
      let writer: Promise<void> | undefined;
      let eventWriter: Promise<void> | undefined;

      let mirrorUrl = '';
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const server = await startServerProcess(['--data-dir', dataDir, '--mirror', kubeconfig, '--log-level', 'warn']);
        mirrorUrl = server.url;
        if (cycle === 0) {
          // The first list completes before the first kill: every later start must resume, not list.
          const client = new HttpsClient(server.url, { ca: readFileSync(join(dataDir, 'ca.crt'), 'utf8'), token: readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0] });
          while ((await client.get('/readyz')).text !== 'ok') await new Promise((resolve) => setTimeout(resolve, 50));
          // Readiness does not wait for the Events' first list: this does.
          while (!/^svctrail_mirror_synced\{resource="events"\} 1$/m.test((await client.get('/metrics')).text)) await new Promise((resolve) => setTimeout(resolve, 50));
          writer = write();
          eventWriter = writeEvents();
        }
        await new Promise((resolve) => setTimeout(resolve, 300 + Math.floor(random() * 900)));
        server.child.kill('SIGKILL');
        await server.exited;
      }
      writing = false;
      await writer;
      await eventWriter;
      expect(written).toBeGreaterThan(50);
      expect(eventsWritten).toBeGreaterThan(50);

      // A last, clean run catches up with everything the source wrote.
      const last = await startServerProcess(['--data-dir', dataDir, '--mirror', kubeconfig]);
      try {
        mirrorUrl = last.url;
        const ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
        const token = readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0];
        const mirror = new HttpsClient(mirrorUrl, { ca, token });
        for (const name of NAMES) {
          const expected = await ingressSequence(source.client, name);
          const deadline = Date.now() + 30_000;
          let got = await ingressSequence(mirror, name);
          while (got.length < expected.length && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            got = await ingressSequence(mirror, name);
          }
          expect(got).toEqual(expected);
        }
        // The Events: every write about a Service, once and in order, with the source's resourceVersion of it.
        const expectedEvents = await eventWrites(source.client, (o) => o.metadata.resourceVersion);
        const deadline = Date.now() + 30_000;
        let gotEvents = await eventWrites(mirror, (o) => o.source?.resourceVersion);
        while (gotEvents.length < expectedEvents.length && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          gotEvents = await eventWrites(mirror, (o) => o.source?.resourceVersion);
        }
        expect(gotEvents).toEqual(expectedEvents);
        expect((await mirror.get(`${H}/namespaces/crash/events?limit=5000`)).json.items.filter((o: any) => o.involvedObject.kind !== 'Service')).toEqual([]);
        const lists = proxy.requests.filter((r) => r.method === 'GET' && /^\/api\/v1\/services\?/.test(r.path) && !isWatchPath(r.path));
        expect(lists.length).toBe(1);
        const eventLists = proxy.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/events?') && !isWatchPath(r.path));
        expect(eventLists.length).toBe(1);
      } finally {
        last.child.kill('SIGTERM');
        await last.exited;
      }
    } finally {
      await proxy.close();
      await source.stop();
    }
  }, 240_000);
});
