// Acknowledged writes survive kill -9: the real server runs as a child process, takes concurrent
// writes, is killed at a random moment, restarted on the same data directory, and every write it
// acknowledged must be in the log with exactly the object it answered; the projections must equal
// a fold of the log.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpsClient } from '../helpers/https-client';
import { foldLogAndCompare } from '../helpers/log-fold';
import { seededRandom } from '../helpers/decider-harness';
import { buildDist, removeBuild, startServerProcess } from '../helpers/server-process';

// `npm test` runs 6 cycles; `npm run test:crash` runs the full-size 50 (SVCTRAIL_CRASH_CYCLES).
const CYCLES = Number(process.env.SVCTRAIL_CRASH_CYCLES ?? 6);

describe('durability under kill -9', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svctrail-kill9-'));

  beforeAll(() => buildDist(), 120000);

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    removeBuild();
  });

  it(
    `loses no acknowledged write over ${CYCLES} kill/restart cycles`,
    async () => {
      const random = seededRandom(7);
      const acknowledged: { rv: number; text: string }[] = [];
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const { child, url, exited } = await startServerProcess(['--data-dir', dataDir]);
        const ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
        const token = readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0];
        const client = new HttpsClient(url, { ca, token });
        let stop = false;
        const worker = async (w: number) => {
          for (let i = 0; !stop; i++) {
            const name = `c${cycle}-w${w}-${i}`;
            try {
              const created = await client.post('/api/v1/namespaces/crash/services', {
                metadata: { name },
                spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
              });
              if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
              acknowledged.push({ rv: Number(created.json.metadata.resourceVersion), text: created.text });
              const status = await client.put(`/api/v1/namespaces/crash/services/${name}/status`, {
                ...created.json,
                status: { loadBalancer: { ingress: [{ ip: `203.0.113.${(i % 250) + 1}` }] } },
              });
              if (status.status !== 200) throw new Error(`status: ${status.status} ${status.text}`);
              acknowledged.push({ rv: Number(status.json.metadata.resourceVersion), text: status.text });
            } catch (error) {
              if (stop) return;
              // A connection cut by the kill is expected; anything else is a failure.
              if (!/ECONNRESET|ECONNREFUSED|socket hang up|EPIPE/.test(String(error))) throw error;
              return;
            }
          }
        };
        const workers = [0, 1, 2, 3].map(worker);
        await new Promise((r) => setTimeout(r, 150 + Math.floor(random() * 600)));
        child.kill('SIGKILL');
        stop = true;
        await Promise.all(workers);
        await exited;
      }
      expect(acknowledged.length).toBeGreaterThan(CYCLES * 4);

      // A restart must open the database cleanly (integrity check, migrations) and serve it.
      const restarted = await startServerProcess(['--data-dir', dataDir]);
      restarted.child.kill('SIGTERM');
      await restarted.exited;

      const report = foldLogAndCompare(join(dataDir, 'svctrail.db'));
      expect(report.differences).toEqual([]);
      for (const ack of acknowledged) {
        const answered = JSON.parse(ack.text);
        expect(report.revisions.get(ack.rv)).toBe(JSON.stringify(answered));
      }
      process.stdout.write(`kill -9: ${CYCLES} cycles, ${acknowledged.length} acknowledged writes, ${report.events} events, all present\n`);
    },
    60000 + CYCLES * 15000,
  );
});
