// The mirror phase of `npm run bench` (also alone: `npm run bench:mirror`): a source svctrail
// with 10,000 Services, a second svctrail recording it (--mirror), and four figures against
// issue 24's targets:
//   - the time to the first complete list: from starting the mirror until /readyz says it is in
//     sync (process start included; the start of an empty server is measured beside it);
//   - the lag from a source write's answer to the mirror serving it, at 500 status PUTs/s
//     (p50, p99; observed on a watch of the mirror, which sees a write once its transaction, and
//     with it the history, is committed);
//   - a relist of 10,000 Services: the mirror is stopped, the source changes (updates, deletions,
//     creations) and answers the resumed watch with 410 Expired (a small proxy does what a
//     compacted kube-apiserver does), and the mirror is restarted: the time until it is in sync
//     again, and whether it then holds exactly what the source holds (no write lost);
//   - the mirror's peak RSS (VmHWM): of the process that made the first list, read as soon as it
//     is in sync, and of the restarted one over its relist (issue 43: each under 250 MB).
//
// usage: node bench/dist/mirror.js [--services N] [--rate PUTS_PER_S] [--seconds S]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, createServer, request as httpsRequest, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './real';
import { onServingLine } from './run/serving-line';

export interface MirrorFigures {
  services: number;
  emptyStartSeconds: number;
  firstListSeconds: number;
  writeRate: number;
  writesSent: number;
  writesSeen: number;
  lagP50Ms: number;
  lagP99Ms: number;
  relistSeconds: number;
  relistChanges: { updated: number; deleted: number; created: number };
  relistLostWrites: number;
  /** Each reflector's relists after the restart (Events: when the mirror has an Events reflector). */
  relists: { services: number; events?: number };
  /** Watches the proxy answered 410 Expired, by collection path. */
  expiredWatches: Record<string, number>;
  /** VmHWM of the mirror that made the first list, as soon as it was in sync (start and list). */
  firstListPeakRssBytes: number;
  /** VmHWM of the restarted mirror once in sync again (start and relist). */
  peakRssBytes: number;
}

export const MIRROR_TARGETS = { firstListSeconds: 20, lagP99Ms: 1000, relistSeconds: 30, listPeakRssBytes: 250 * 1024 * 1024 };

interface Proc {
  child: ChildProcess;
  url: string;
  dataDir: string;
  exited: Promise<void>;
}

const log = (line: string) => process.stdout.write(`${line}\n`);

function startSvctrail(dataDir: string, extra: string[]): Promise<Proc> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js'), '--port', '0', '--data-dir', dataDir, '--log-level', 'warn', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    onServingLine(child.stdout, (url) => resolve({ child, url, dataDir, exited }));
    void exited.then(() => reject(new Error(`svctrail exited: ${err}`)));
  });
}

/** An HTTPS client of one svctrail (its CA, its admin token), keep-alive. */
class Client {
  readonly agent: Agent;
  readonly token: string;
  readonly ca: string;

  constructor(
    readonly url: string,
    dataDir: string,
  ) {
    this.ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
    this.token = readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0];
    this.agent = new Agent({ keepAlive: true, maxSockets: 64, ca: this.ca });
  }

  request(method: string, path: string, body?: object): Promise<{ status: number; json: any; text: string }> {
    const data = body ? JSON.stringify(body) : undefined;
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        new URL(path, this.url),
        { method, agent: this.agent, headers: { authorization: `Bearer ${this.token}`, accept: 'application/json', ...(data ? { 'content-type': 'application/json' } : {}) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, json, text });
          });
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  }
}

/** Runs `work(i)` for i in [0, n) with at most `concurrency` at once. */
async function pool(n: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/**
 * Whether a source "compacted" below `below` answers this request 410 Expired: a watch (of any
 * collection) from a resourceVersion below it. A kube-apiserver compacts at most up to its head,
 * so the head itself (where a relist's LIST is) stays servable. Never a LIST or a GET.
 */
export function expiredWatch(url: URL, below: number): boolean {
  const rv = Number(url.searchParams.get('resourceVersion') ?? NaN);
  return url.searchParams.get('watch') === 'true' && rv > 0 && rv < below;
}

/**
 * A proxy that answers watches from below `expireBelow` as a compacted kube-apiserver does (410
 * Expired, in-band), on every collection the mirror watches (/api/v1/services and /api/v1/events
 * alike: the check is on the query alone). Everything else, LISTs included, goes to the source.
 */
function expiringProxy(upstream: string, dataDir: string): Promise<{ url: string; server: Server; expireBelow(rv: number): void; expired: Map<string, number> }> {
  const target = new URL(upstream);
  const ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
  let below = 0;
  /** Watches answered 410, by collection path. */
  const expired = new Map<string, number>();
  const server = createServer({ cert: readFileSync(join(dataDir, 'serving.crt')), key: readFileSync(join(dataDir, 'serving.key')) }, (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://x');
    if (expiredWatch(url, below)) {
      const rv = Number(url.searchParams.get('resourceVersion'));
      expired.set(url.pathname, (expired.get(url.pathname) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${rv} (${below})`, reason: 'Expired', code: 410 } })}\n`,
      );
      return;
    }
    const forward = httpsRequest({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, ca, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `https://127.0.0.1:${(server.address() as { port: number }).port}`, server, expireBelow: (rv) => (below = rv), expired })),
  );
}

async function waitReady(client: Client, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.request('GET', '/readyz').catch(() => ({ text: '' }));
    if (res.text === 'ok') return;
    if (Date.now() > deadline) throw new Error(`the mirror was not in sync within ${timeoutMs / 1000} s: ${res.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function vmHwm(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** name → first ingress IP of every Service in namespace `bench`. */
async function snapshot(client: Client): Promise<Map<string, string>> {
  const list = (await client.request('GET', '/api/v1/namespaces/bench/services')).json;
  return new Map((list.items as any[]).map((s) => [s.metadata.name as string, (s.status?.loadBalancer?.ingress?.[0]?.ip as string) ?? '']));
}

const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

export async function mirrorPhase(options: { services: number; rate: number; seconds: number }): Promise<MirrorFigures> {
  const root = mkdtempSync(join(tmpdir(), 'svctrail-bench-mirror-'));
  const procs: Proc[] = [];
  try {
    const source = await startSvctrail(join(root, 'source'), []);
    procs.push(source);
    const src = new Client(source.url, source.dataDir);
    log(`mirror: creating ${options.services.toLocaleString('en-US')} Services at the source`);
    await pool(options.services, 32, async (i) => {
      const res = await src.request('POST', '/api/v1/namespaces/bench/services', {
        metadata: { name: `svc-${i}`, labels: { app: `a${i % 50}` } },
        spec: { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80 }] },
      });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
    });
    const proxy = await expiringProxy(source.url, source.dataDir);
    const kubeconfig = join(root, 'source.kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        'current-context': 'source',
        clusters: [{ name: 'source', cluster: { server: proxy.url, 'certificate-authority-data': Buffer.from(src.ca).toString('base64') } }],
        users: [{ name: 'admin', user: { token: src.token } }],
        contexts: [{ name: 'source', context: { cluster: 'source', user: 'admin' } }],
      }),
    );

    // An empty server's start, for reading the first list's figure.
    let started = Date.now();
    const empty = await startSvctrail(join(root, 'empty'), []);
    const emptyStartSeconds = (Date.now() - started) / 1000;
    empty.child.kill('SIGTERM');
    await empty.exited;

    const mirrorDir = join(root, 'mirror');
    started = Date.now();
    let mirror = await startSvctrail(mirrorDir, ['--mirror', kubeconfig]);
    procs.push(mirror);
    let mir = new Client(mirror.url, mirrorDir);
    await waitReady(mir, 300_000);
    const firstListSeconds = (Date.now() - started) / 1000;
    const firstListPeakRssBytes = vmHwm(mirror.child.pid!);
    log(
      `mirror: first complete list of ${options.services} Services in ${firstListSeconds.toFixed(2)} s (an empty server starts in ${emptyStartSeconds.toFixed(2)} s), peak RSS ${(firstListPeakRssBytes / 1024 / 1024).toFixed(0)} MB`,
    );

    // Lag at `rate` status PUTs per second, seen on a watch of the mirror.
    const head = (await mir.request('GET', '/api/v1/namespaces/bench/services?limit=1')).json.metadata.resourceVersion;
    const answered = new Map<string, number>();
    const lags: number[] = [];
    const early = new Map<string, number>();
    const watch = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpsRequest(
        new URL(`/api/v1/namespaces/bench/services?watch=true&resourceVersion=${head}`, mir.url),
        { headers: { authorization: `Bearer ${mir.token}` }, ca: mir.ca, agent: false },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
    let buffer = '';
    watch.setEncoding('utf8');
    watch.on('data', (chunk: string) => {
      const now = performance.now();
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const event = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        const ip = event.object?.status?.loadBalancer?.ingress?.[0]?.ip as string | undefined;
        if (!ip) continue;
        const at = answered.get(ip);
        if (at === undefined) early.set(ip, now);
        else lags.push(now - at);
      }
    });
    const total = options.rate * options.seconds;
    const objects = (await src.request('GET', '/api/v1/namespaces/bench/services')).json.items as any[];
    log(`mirror: ${total} status PUTs at ${options.rate}/s`);
    const t0 = performance.now();
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / options.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const object = objects[i % objects.length];
      const ip = ipOf(i + 1);
      const write = src
        .request('PUT', `/api/v1/namespaces/bench/services/${object.metadata.name}/status`, {
          ...object,
          metadata: { ...object.metadata, resourceVersion: undefined },
          status: { loadBalancer: { ingress: [{ ip }] } },
        })
        .then((res) => {
          const now = performance.now();
          if (res.status !== 200) throw new Error(`PUT: ${res.status} ${res.text}`);
          answered.set(ip, now);
          // The mirror answered before the source's answer reached us: lag 0.
          if (early.has(ip)) lags.push(Math.max(0, early.get(ip)! - now));
        })
        .finally(() => inFlight.delete(write));
      inFlight.add(write);
      if (inFlight.size >= 256) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    const drainUntil = Date.now() + 30_000;
    while (lags.length < total && Date.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 50));
    watch.destroy();
    const sorted = Float64Array.from(lags).sort();
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
    const lagP50Ms = pct(50);
    const lagP99Ms = pct(99);
    log(`mirror: lag p50 ${lagP50Ms.toFixed(1)} ms, p99 ${lagP99Ms.toFixed(1)} ms (${lags.length}/${total} writes seen)`);

    // A relist: the mirror is down while the source changes and forgets the history since.
    mirror.child.kill('SIGTERM');
    await mirror.exited;
    const changes = { updated: 1000, deleted: 500, created: 500 };
    await pool(changes.updated, 32, async (i) => {
      const object = objects[(i * 7) % objects.length];
      const current = (await src.request('GET', `/api/v1/namespaces/bench/services/${object.metadata.name}`)).json;
      await src.request('PUT', `/api/v1/namespaces/bench/services/${object.metadata.name}/status`, { ...current, status: { loadBalancer: { ingress: [{ ip: ipOf(total + i + 1) }] } } });
    });
    await pool(changes.deleted, 32, async (i) => {
      await src.request('DELETE', `/api/v1/namespaces/bench/services/svc-${options.services - 1 - i}`);
    });
    await pool(changes.created, 32, async (i) => {
      await src.request('POST', '/api/v1/namespaces/bench/services', { metadata: { name: `new-${i}` }, spec: { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80 }] } });
    });
    // The source "compacted" up to its head, as far as a kube-apiserver ever compacts: a watch from
    // below it is answered 410 (the mirror's stored positions, of its Services and of its Events,
    // are all older: it stopped before these writes), a watch from the head itself is served. The
    // relist's LIST is at the head, so the watch after it must be served: expiring the head too
    // (head + 1) sent the mirror from relist to 410 to relist forever.
    const sourceHead = Number((await src.request('GET', '/api/v1/namespaces/bench/services?limit=1')).json.metadata.resourceVersion);
    proxy.expireBelow(sourceHead);
    started = Date.now();
    mirror = await startSvctrail(mirrorDir, ['--mirror', kubeconfig]);
    procs.push(mirror);
    mir = new Client(mirror.url, mirrorDir);
    // In sync again once the relist is recorded (readyz goes ok after the list, the watch follows).
    const expected = await snapshot(src);
    let got = new Map<string, string>();
    for (const deadline = Date.now() + 300_000; Date.now() < deadline;) {
      await waitReady(mir, 300_000);
      got = await snapshot(mir);
      if (got.size === expected.size && [...expected].every(([name, ip]) => got.get(name) === ip)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const relistSeconds = (Date.now() - started) / 1000;
    const relistLostWrites = [...expected].filter(([name, ip]) => got.get(name) !== ip).length + [...got.keys()].filter((name) => !expected.has(name)).length;
    // Each reflector counts its relists under its resource's label (the Events' reflector, when the
    // mirror has one, relists too: its stored position is as old as the Services').
    const metrics = (await mir.request('GET', '/metrics')).text;
    const relistsOf = (resource: string) =>
      Number(new RegExp(`^svctrail_mirror_relists_total\\{[^}]*resource="${resource}"[^}]*\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? /^svctrail_mirror_relists_total (\d+)$/m.exec(metrics)?.[1] ?? NaN);
    const relists = { services: relistsOf('services'), events: metrics.includes('resource="events"') ? relistsOf('events') : undefined };
    if (!(relists.services >= 1)) throw new Error(`the mirror did not relist its Services (svctrail_mirror_relists_total ${relists.services})`);
    const answered410 = [...proxy.expired].map(([path, n]) => `${path} ${n}`).join(', ');
    const peakRssBytes = vmHwm(mirror.child.pid!);
    log(
      `mirror: relist of ${expected.size} Services in ${relistSeconds.toFixed(2)} s; ${relistLostWrites} differences from the source; ` +
        `relists: Services ${relists.services}${relists.events === undefined ? '' : `, Events ${relists.events}`}; watches answered 410: ${answered410 || 'none'}; peak RSS ${(peakRssBytes / 1024 / 1024).toFixed(0)} MB`,
    );
    proxy.server.close();
    return {
      services: options.services,
      emptyStartSeconds,
      firstListSeconds,
      writeRate: options.rate,
      writesSent: total,
      writesSeen: lags.length,
      lagP50Ms,
      lagP99Ms,
      relistSeconds,
      relistChanges: changes,
      relistLostWrites,
      relists,
      expiredWatches: Object.fromEntries(proxy.expired),
      firstListPeakRssBytes,
      peakRssBytes,
    };
  } finally {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    rmSync(root, { recursive: true, force: true });
  }
}

/** The phase's rows for a results table: figure, value, target, met. */
export function mirrorRows(f: MirrorFigures): string[] {
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
  return [
    '| mirror figure | svctrail | target | met |',
    '| --- | --- | --- | --- |',
    `| first complete list of ${f.services.toLocaleString('en-US')} Services (process start included; an empty server starts in ${f.emptyStartSeconds.toFixed(2)} s) | ${f.firstListSeconds.toFixed(2)} s | ≤ ${MIRROR_TARGETS.firstListSeconds} s | ${yes(f.firstListSeconds <= MIRROR_TARGETS.firstListSeconds)} |`,
    `| lag from the source's answer to the mirror serving the write, ${f.writeRate} PUT/s: p50 | ${f.lagP50Ms.toFixed(1)} ms | – | – |`,
    `| … p99 (${f.writesSeen}/${f.writesSent} writes seen) | ${f.lagP99Ms.toFixed(1)} ms | ≤ ${MIRROR_TARGETS.lagP99Ms} ms | ${yes(f.lagP99Ms <= MIRROR_TARGETS.lagP99Ms && f.writesSeen === f.writesSent)} |`,
    `| relist of ${f.services.toLocaleString('en-US')} Services after 410 (${f.relistChanges.updated} updated, ${f.relistChanges.deleted} deleted, ${f.relistChanges.created} created meanwhile), restart included | ${f.relistSeconds.toFixed(2)} s | ≤ ${MIRROR_TARGETS.relistSeconds} s | ${yes(f.relistSeconds <= MIRROR_TARGETS.relistSeconds)} |`,
    `| … Services differing from the source after it (lost writes) | ${f.relistLostWrites} | 0 | ${yes(f.relistLostWrites === 0)} |`,
    `| … relists (the reflectors' own counts; watches the proxy answered 410: ${Object.entries(f.expiredWatches ?? {})
      .map(([path, n]) => `${path} ${n}`)
      .join(', ')}) | Services ${f.relists?.services ?? '–'}${f.relists?.events === undefined ? '' : `, Events ${f.relists.events}`} | – | – |`,
    `| mirror's peak RSS (VmHWM) over the first list, read when in sync | ${mb(f.firstListPeakRssBytes)} | < ${mb(MIRROR_TARGETS.listPeakRssBytes)} | ${yes(f.firstListPeakRssBytes < MIRROR_TARGETS.listPeakRssBytes)} |`,
    `| … over the restart and relist | ${mb(f.peakRssBytes)} | < ${mb(MIRROR_TARGETS.listPeakRssBytes)} | ${yes(f.peakRssBytes < MIRROR_TARGETS.listPeakRssBytes)} |`,
  ];
}

if (require.main === module) {
  const { values } = parseArgs({ options: { services: { type: 'string' }, rate: { type: 'string' }, seconds: { type: 'string' } } });
  mirrorPhase({ services: Number(values.services ?? 10_000), rate: Number(values.rate ?? 500), seconds: Number(values.seconds ?? 20) }).then(
    (figures) => {
      log('');
      for (const line of mirrorRows(figures)) log(line);
    },
    (error: unknown) => {
      process.stderr.write(`bench mirror: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
