// Running one case against one server: a load, a page walk, a watch resume, a write settled or after a burst.
import { type Agent, request as httpsRequest } from 'node:https';
import { cpus } from 'node:os';
import { busyShare } from '../machine-cpu';
import { Rng } from '../rng';
import { PROTOBUF, DURATION, WARMUP, BURST, log } from './options';
import { type Running, diskWrites, walSize, settle } from './processes';
import { Samples, machineCpu, load, call, drive } from './load';
import { type Fixture, jsonPut } from './fixture';
import type { Result, LoadCase } from './cases';
import { fmtMs, fmtNum, fmtMB } from './format';
import { ownCpu } from './own-cpu';

export async function walkPages(server: Running, f: Fixture, seed: number, first: (rng: Rng) => string): Promise<Result> {
  const pages = new Samples();
  const walks = new Samples();
  let pageCount = 0;
  let badPages = 0;
  const walk = async (agent: Agent, rng: Rng) => {
    const t0 = performance.now();
    let path = first(rng);
    const base = path.slice(0, path.indexOf('?'));
    for (let n = 0; n < 1000; n++) {
      const a = await call(server, f.token, path, agent);
      if (a.status !== 200) {
        badPages++;
        throw new Error(`page answered ${a.status}`);
      }
      pages.push(a.ms);
      pageCount++;
      const token = JSON.parse(a.body.toString('utf8')).metadata?.continue as string | undefined;
      if (!token) break;
      path = `${base}?limit=10&continue=${encodeURIComponent(token)}`;
    }
    walks.push(performance.now() - t0);
  };
  const rng0 = new Rng(seed);
  await drive(10, WARMUP, (agent) => walk(agent, rng0), seed + 500);
  pages.length = 0;
  walks.length = 0;
  pageCount = 0;
  const d = await drive(10, DURATION, (agent, rng) => walk(agent, rng), seed);
  const p = pages.summary();
  const w = walks.summary();
  const out = {
    served: true,
    rps: pageCount / d.seconds,
    p50: p.p50,
    p99: p.p99,
    max: p.max,
    walks: w.n,
    walkP50: w.p50,
    walkP99: w.p99,
    pagesPerWalk: pageCount / Math.max(1, w.n),
    errors: d.errors,
    badPages,
  };
  log(
    `  ${server.target.padEnd(10)} ${'pages'.padEnd(32)} ${out.rps.toFixed(0).padStart(7)} pages/s  p50 ${fmtMs(p.p50)}  p99 ${fmtMs(p.p99)} ms; ` +
      `${w.n} walks of ${out.pagesPerWalk.toFixed(1)} pages, p50 ${fmtMs(w.p50)} p99 ${fmtMs(w.p99)} ms${d.errors ? `, ${d.errors} errors` : ''}`,
  );
  return out;
}

/** Opens watches from `resumeFrom` one after the other: time to the first event and to the head. */
export async function watchResume(server: Running, f: Fixture, protobuf: boolean): Promise<Result> {
  const first = new Samples();
  const all = new Samples();
  let incomplete = 0;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const t0 = performance.now();
      let seen = 0;
      let pending: Buffer = Buffer.alloc(0);
      let done = false;
      const req = httpsRequest(
        new URL(`/api/v1/services?watch=true&resourceVersion=${f.resumeFrom}`, server.url),
        {
          method: 'GET',
          headers: { authorization: `Bearer ${f.token}`, accept: protobuf ? `${PROTOBUF};stream=watch` : 'application/json' },
          rejectUnauthorized: false,
          agent: false,
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return reject(new Error(`watch answered ${res.statusCode}`));
          }
          const timer = setTimeout(() => finish(false), 60_000);
          const finish = (complete: boolean) => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            if (complete) all.push(performance.now() - t0);
            else incomplete++;
            res.destroy();
            resolve();
          };
          res.on('data', (chunk: Buffer) => {
            pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
            const before = seen;
            if (protobuf) {
              let at = 0;
              while (pending.length - at >= 4) {
                const length = pending.readUInt32BE(at);
                if (pending.length - at - 4 < length) break;
                at += 4 + length;
                seen++;
              }
              pending = pending.subarray(at);
            } else {
              let nl: number;
              let at = 0;
              while ((nl = pending.indexOf(10, at)) >= 0) {
                at = nl + 1;
                seen++;
              }
              pending = pending.subarray(at);
            }
            if (before === 0 && seen > 0) first.push(performance.now() - t0);
            if (seen >= f.catchUpWrites) finish(true);
          });
          res.on('close', () => finish(false));
        },
      );
      req.on('error', (e) => (done ? resolve() : reject(e)));
      req.end();
    });
  const deadline = performance.now() + DURATION * 1000;
  let errors = 0;
  await once().catch(() => errors++); // warm-up
  first.length = 0;
  all.length = 0;
  do {
    await once().catch(() => errors++);
  } while (performance.now() < deadline);
  const a = first.summary();
  const b = all.summary();
  const out = { served: errors === 0 || b.n > 0, events: f.catchUpWrites, runs: b.n, p50: a.p50, p99: a.p99, catchUpP50: b.p50, catchUpP99: b.p99, incomplete, errors };
  log(
    `  ${server.target.padEnd(10)} ${(protobuf ? 'watch-resume-pb' : 'watch-resume').padEnd(32)} ${b.n} runs of ${f.catchUpWrites} events: ` +
      `first event p50 ${fmtMs(a.p50)} p99 ${fmtMs(a.p99)} ms, all p50 ${fmtMs(b.p50)} p99 ${fmtMs(b.p99)} ms${incomplete || errors ? ` (incomplete ${incomplete}, errors ${errors})` : ''}`,
  );
  return out;
}

/**
 * A case's warm-up, as long for each replica as for one: the load is split over the replicas, and
 * V8 optimises each process's code from that process's own calls, so a warm-up of one replica's
 * length left each of three with a third of the requests and a case measured their compiling
 * (about a fifth of each replica's CPU in a quick run's first PostgreSQL write case, issue 45).
 */
function warmUpSeconds(server: Running): number {
  return WARMUP * server.urls.length;
}

export async function runLoadCase(server: Running, f: Fixture, def: LoadCase, seed: number, opts: { warmup?: boolean; label?: string } = {}): Promise<Result> {
  if (def.probe) {
    const probe = await call(server, f.token, def.probe(f), false);
    if (probe.status < 200 || probe.status >= 300) {
      log(`  ${server.target.padEnd(10)} ${(opts.label ?? def.id).padEnd(32)} not served (${probe.status})`);
      return { served: false, probeStatus: probe.status };
    }
  }
  const rng = new Rng(seed);
  if (opts.warmup !== false) await load(server, f.token, def.connections, warmUpSeconds(server), () => def.next(rng, f));
  // The measured window on the monotonic clock V8's profiler stamps its samples with (µs).
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  const own = await ownCpu([server.child.pid!, ...server.replicas.map((r) => r.child.pid!)], server.pgUrl);
  const cpuBefore = machineCpu();
  const result = await load(server, f.token, def.connections, DURATION, () => def.next(rng, f));
  const cpuBusy = busyShare(cpuBefore, machineCpu());
  const spent = own.stop();
  // The case's own processes' CPU per answered request: replicas, the database's sessions, the load generator.
  const ownCpuMsPerRequest = result.ok > 0 ? (spent.servers + spent.database + spent.loadGenerator) / result.ok : undefined;
  const windowUs = [fromUs, Number(process.hrtime.bigint() / 1000n)];
  // All the machine's CPU time per answered request: the load generator, the server(s) and PostgreSQL.
  const cpuMsPerRequest = cpuBusy !== undefined && result.rps > 0 ? (cpuBusy * cpus().length * 1000) / result.rps : undefined;
  log(
    `  ${server.target.padEnd(10)} ${(opts.label ?? def.id).padEnd(32)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${fmtMs(result.p50)}  p99 ${fmtMs(result.p99)} ms` +
      (cpuBusy !== undefined ? `  CPUs ${(cpuBusy * 100).toFixed(0)}% busy, ${fmtMs(cpuMsPerRequest)} CPU ms/req` : '') +
      (server.pgUrl && result.ok
        ? ` (own ${fmtMs(ownCpuMsPerRequest)}: svctrail ${fmtMs(spent.servers / result.ok)}, PostgreSQL sessions ${fmtMs(spent.database / result.ok)}, load ${fmtMs(spent.loadGenerator / result.ok)})`
        : '') +
      (result.non2xx || result.errors ? `  (non-2xx ${result.non2xx}, errors ${result.errors}: ${JSON.stringify(result.statusCodes)})` : ''),
  );
  return { served: true, ...result, windowUs, cpuBusy, cpuMsPerRequest, ...(server.pgUrl ? { ownCpuMsPerRequest, ownCpuMs: spent } : {}) };
}

/** A write case, measured with the disk bytes written per write and the WAL left behind. */
export async function runWriteCase(server: Running, f: Fixture, def: LoadCase, seed: number, variant: 'settled' | 'burst', opts: { quiet?: Running[]; run?: string } = {}): Promise<Result> {
  const pid = server.child.pid!;
  let pre: Result;
  if (variant === 'settled') {
    // The other servers of the run (interleaved phases) must be quiet too: none of their
    // checkpoints or writeback may overlap this measurement.
    const [s] = await Promise.all([settle(server), ...(opts.quiet ?? []).map(settle)]);
    pre = { settleMs: s.settleMs, settled: s.settled, walBeforeBytes: walSize(server.dataDir) };
  } else {
    const spread = new Rng(seed + 10_000);
    const burst = await load(server, f.token, 64, BURST, () => (def.ownBurst ? def.next(spread, f) : jsonPut(f.lb[spread.int(f.lb.length)])));
    pre = { burstRps: burst.rps, burstWrites: burst.ok, walBeforeBytes: walSize(server.dataDir) };
  }
  if (variant === 'settled') {
    // The warm-up's writes are not the case's: disk bytes and WAL are counted from after it.
    const warm = new Rng(seed + 20_000);
    await load(server, f.token, def.connections, warmUpSeconds(server), () => def.next(warm, f));
    pre.walBeforeBytes = walSize(server.dataDir);
  }
  let walMax = walSize(server.dataDir);
  const poll = setInterval(() => (walMax = Math.max(walMax, walSize(server.dataDir))), 200);
  const written0 = diskWrites(pid);
  try {
    const r = await runLoadCase(server, f, def, seed, { warmup: false, label: `${def.id} ${variant === 'settled' ? '(settled)' : '(after burst)'}${opts.run ? ` run ${opts.run}` : ''}` });
    const written = diskWrites(pid) - written0;
    const walBytes = walSize(server.dataDir);
    log(
      `  ${''.padEnd(10)} ${''.padEnd(32)} WAL ${fmtMB(walBytes)} (max ${fmtMB(walMax)}), ${fmtNum(written / Math.max(1, r.ok as number))} disk bytes/write` +
        (variant === 'settled' ? `, settled after ${fmtNum(pre.settleMs)} ms${pre.settled ? '' : ' (gave up)'}` : `, burst ${fmtNum(pre.burstRps)} req/s`),
    );
    return { ...r, ...pre, walBytes, walMaxBytes: Math.max(walMax, walBytes), diskBytesWritten: written, diskBytesPerWrite: written / Math.max(1, r.ok as number) };
  } finally {
    clearInterval(poll);
  }
}
