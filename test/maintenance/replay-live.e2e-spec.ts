// Replay next to a live server: the real HTTPS server keeps taking status writes from concurrent
// clients while `svctrail replay` (a separate process, as an operator runs it) rebuilds every
// projection of a large log and swaps it in. No write may fail or wait out the 5 s busy timeout,
// and the swapped projections must verify.
//
// `npm test` runs it on a small log; `npm run test:replay-live` on 200,000 events
// (SVCTRAIL_REPLAY_LIVE_EVENTS), printing the writes made during the replay, their latencies and
// how long replay held the write lock.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Service } from '../../src/domain/service.types';
import { verifyProjections } from '../../src/maintenance/projection-verifier';
import { silentProgress } from '../../src/maintenance/progress';
import type { ReplayReport } from '../../src/maintenance/projection-replayer';
import { ServiceRepository } from '../../src/store/service-repository';
import { buildDist, built, removeBuild, ROOT } from '../helpers/server-process';
import { handlersOf } from '../helpers/service-handlers';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { as, loadBalancer } from './store-fixture';

const EVENTS = Number(process.env.SVCTRAIL_REPLAY_LIVE_EVENTS ?? 6000);
const SERVICES = Math.max(20, Math.round(EVENTS / 100));
const BUSY_TIMEOUT_MS = 5000;
const WRITERS = 4;

interface Timed {
  status: number;
  started: number;
  ended: number;
}

const exec = promisify(execFile);

/** Writes through the server's own command handlers, many at once so group commit batches them: a large log in seconds. */
async function seed(server: TestServer): Promise<number> {
  const handlers = handlersOf(server.server.app);
  const repository = server.server.app.get(ServiceRepository);
  const names = Array.from({ length: SERVICES }, (_, i) => ({ namespace: `ns-${i % 10}`, name: `svc-${i}` }));
  let head = 0;
  const record = (object: Service) => (head = Math.max(head, Number(object.metadata.resourceVersion)));
  for (let i = 0; i < names.length; i += 50) {
    const created = await Promise.all(names.slice(i, i + 50).map((s) => handlers.execute({ kind: 'CreateService', namespace: s.namespace, object: loadBalancer(s.name, s.namespace) }, as('creator'))));
    created.forEach((w) => record(w.object));
  }
  for (let round = 0; head < EVENTS; round++) {
    const writes = names.map((s, i) => {
      const current = repository.loadLive(s.namespace, s.name).object!;
      const ip = `10.${round % 200}.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      const ready = { type: 'Ready', status: round % 2 ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: `R${round % 3}`, message: `round ${round}` };
      return handlers.execute(
        { kind: 'ReplaceServiceStatus', namespace: s.namespace, name: s.name, object: { ...current, status: { loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] }, conditions: [ready] } } },
        as('lb-controller'),
      );
    });
    (await Promise.all(writes)).forEach((w) => record(w.object));
  }
  return head;
}

describe('replay next to a live server', () => {
  let server: TestServer;

  beforeAll(() => buildDist(), 120000);
  afterAll(async () => {
    await server?.stop();
    removeBuild();
  });

  it(
    `keeps every status write succeeding while a ${EVENTS}-event log is replayed and swapped, and the result verifies`,
    async () => {
      server = await startTestServer();
      const head = await seed(server);
      expect(head).toBeGreaterThanOrEqual(EVENTS);

      const results: Timed[] = [];
      let replaying = true;
      const writer = async (w: number) => {
        // Each writer owns its Services, so its PUTs carry the resourceVersion it was last answered.
        const mine = Array.from({ length: 5 }, (_, i) => `ns-${(w * 5 + i) % 10}/svc-${w * 5 + i}`);
        const objects = new Map<string, any>();
        for (let i = 0; replaying; i++) {
          const key = mine[i % mine.length];
          const [namespace, name] = key.split('/');
          const path = `/api/v1/namespaces/${namespace}/services/${name}`;
          const object = objects.get(key) ?? (await server.client.get(path)).json;
          const started = performance.now();
          const res = await server.client.put(`${path}/status`, { ...object, status: { loadBalancer: { ingress: [{ ip: `192.0.2.${(i % 250) + 1}`, ipMode: 'VIP' }] } } });
          results.push({ status: res.status, started, ended: performance.now() });
          if (res.status !== 200) throw new Error(`PUT ${path}/status answered ${res.status}: ${res.text}`);
          objects.set(key, res.json);
        }
      };
      const replayStarted = performance.now();
      const epoch = Date.now() - replayStarted; // performance.now() → wall clock, to place the swap
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      let replay: { stdout: string; stderr: string };
      try {
        replay = await exec(process.execPath, [built('cli.js'), 'replay', '--data-dir', server.dataDir, '-o', 'json'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
      } finally {
        replaying = false;
        await Promise.all(writers);
      }
      const report = JSON.parse(replay.stdout) as ReplayReport;
      const replayEnded = performance.now();

      const during = results.filter((r) => r.started < replayEnded && r.ended > replayStarted);
      const swapEnd = Date.parse(report.swappedAt) - epoch;
      const swapStart = swapEnd - report.swapMs;
      const aroundSwap = results.filter((r) => r.started <= swapEnd && r.ended >= swapStart);
      const slowest = (rs: Timed[]) => Math.round(Math.max(0, ...rs.map((r) => r.ended - r.started)));
      const worst = during.reduce((a, b) => (b.ended - b.started > a.ended - a.started ? b : a), during[0]);
      process.stdout.write(
        `replay-live: ${report.events} events replayed in ${Math.round(replayEnded - replayStarted)} ms; ${during.length} status writes during the replay ` +
          `(slowest ${slowest(during)} ms, sent ${Math.round((worst?.started ?? 0) - replayStarted)} ms into it), ` +
          `${aroundSwap.length} overlapping the swap (slowest ${slowest(aroundSwap)} ms); ` +
          `swap held the write lock ${report.swapMs} ms folding ${report.swapWrites} writes after ${report.rounds} catch-up rounds ` +
          `(${report.caughtUpWrites} writes caught up); longest of ${report.lock.transactions} write transactions ${report.lock.longestMs} ms (${report.lock.longest}), ${report.lock.totalMs} ms in all\n` +
          `replay phases:\n${replay.stderr}`,
      );

      expect(report.builtAt).toBeGreaterThanOrEqual(head);
      expect(during.length).toBeGreaterThan(0);
      expect(results.filter((r) => r.status !== 200)).toEqual([]);
      expect(results.filter((r) => r.ended - r.started >= BUSY_TIMEOUT_MS)).toEqual([]);
      // Every write acknowledged during the replay is in the swapped projections.
      expect(report.resourceVersion).toBeGreaterThan(report.builtAt);
      const verified = await verifyProjections({ dataDir: server.dataDir, maxDifferences: 5, progress: silentProgress });
      expect(verified.samples).toEqual([]);
      expect(verified.differences).toBe(0);
    },
    Math.max(120000, EVENTS * 10),
  );
});
