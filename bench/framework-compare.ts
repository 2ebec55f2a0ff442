// `npm run bench:framework`: GET of one Service at 10 connections on svctrail, on
// framework-floor (the floor's statement on svctrail's fixed stack: NestJS on Fastify with its
// authentication and authorization hooks) and on the plain floor, one after the other on fresh
// copies of one dataset. It splits GET's gap to the floor into what the stack costs
// (framework-floor ÷ floor) and what svctrail's own code costs (svctrail ÷ framework-floor).
//
// usage: node bench/dist/framework-compare.js [--dataset 1m|10k] [--duration SECONDS]
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { ROOT } from './real';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<{ requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }>;

const { values } = parseArgs({ options: { dataset: { type: 'string', default: '1m' }, duration: { type: 'string', default: '8' } } });
const source = join(ROOT, 'bench', 'data', values.dataset!);
const DURATION = Number(values.duration);

const TARGETS = [
  { name: 'svctrail', script: join(ROOT, 'dist', 'main.js'), extra: [] as string[] },
  { name: 'framework-floor', script: join(ROOT, 'bench', 'dist', 'framework-floor.js'), extra: [] },
  { name: 'floor', script: join(ROOT, 'bench', 'dist', 'floor-server.js'), extra: ['--drop-unused-indexes'] },
];

function copyDataset(): string {
  const dir = mkdtempSync(join(ROOT, 'bench', 'data', 'framework-'));
  for (const file of readdirSync(source)) if (!/-shm$|-wal$|\.lock$/.test(file)) copyFileSync(join(source, file), join(dir, file));
  return dir;
}

function start(script: string, dataDir: string, extra: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script, '--port', '0', '--data-dir', dataDir, ...extra], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${out}`)), 120_000);
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving (https:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}: ${out}`)));
  });
}

async function main(): Promise<void> {
  const token = readFileSync(join(source, 'tokens.csv'), 'utf8').split(',')[0];
  const db = new Database(join(source, 'svctrail.db'), { readonly: true });
  const names = db.prepare(`SELECT namespace, name FROM services WHERE namespace LIKE 'team-%' ORDER BY namespace, name LIMIT 500`).all() as { namespace: string; name: string }[];
  db.close();
  const requests = names.map((n) => ({ method: 'GET', path: `/api/v1/namespaces/${n.namespace}/services/${n.name}` }));
  const rows: { target: string; rps: number; p50: number; p99: number; non2xx: number }[] = [];
  for (const target of TARGETS) {
    const dir = copyDataset();
    const started = await start(target.script, dir, target.extra).catch((error: unknown) => {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    });
    const { child, url } = started;
    try {
      const options = { url, connections: 10, headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, tls: { rejectUnauthorized: false }, requests };
      await autocannon({ ...options, duration: 2 });
      const r = await autocannon({ ...options, duration: DURATION });
      rows.push({ target: target.name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors });
      process.stdout.write(`  ${target.name.padEnd(16)} ${r.requests.average.toFixed(0)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx + r.errors}\n`);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const by = Object.fromEntries(rows.map((r) => [r.target, r]));
  const ratio = (a: string, b: string) => (by[a].rps / by[b].rps).toFixed(2);
  const table = [
    `GET one Service, 10 connections, ${values.dataset} dataset, ${DURATION} s each`,
    '',
    '| target | req/s | p50 ms | p99 ms |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.target} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} |`),
    '',
    `svctrail ÷ floor ${ratio('svctrail', 'floor')}; framework-floor ÷ floor ${ratio('framework-floor', 'floor')} (the fixed stack); svctrail ÷ framework-floor ${ratio('svctrail', 'framework-floor')} (svctrail's own code)`,
  ].join('\n');
  process.stdout.write(`\n${table}\n`);
  const results = join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, `${new Date().toISOString().replace(/[:.]/g, '-')}-framework.md`), `${table}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
