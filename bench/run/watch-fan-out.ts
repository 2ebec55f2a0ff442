// The watch fan-out case: status PUTs at a fixed rate with and without 100 watchers, and the cross-replica lag.
import { request as httpsRequest } from 'node:https';
import { Rng } from '../rng';
import { PROTOBUF, WATCH_WRITE_RATE, DURATION, WARMUP, log } from './options';
import { type Running, sleep } from './processes';
import { type LoadResult, type RequestSpec, percentile, Samples, load, getJson, drive } from './load';
import { type Fixture, IP_MARK, nextIP, IP_PREFIX, jsonPut } from './fixture';
import type { Result } from './cases';
import { fmtMs } from './format';

interface WatchOptions {
  /** Where the watchers connect (round-robin) and where the PUTs go; default every URL of the server. */
  watchUrls?: string[];
  putUrls?: string[];
  /**
   * Lag from the PUT's answer to the event (cross-replica delivery), rather than from the moment
   * the request was sent: the PUTs are sent by paced loops that note when each was answered.
   */
  fromAnswer?: boolean;
  label?: string;
}

/** 100 watchers on every Service; status PUTs at a fixed rate; delivery lag measured per event. */
export async function runWatch(server: Running, f: Fixture, watchers: number, protobuf: boolean, opts: WatchOptions = {}): Promise<Result> {
  const watchUrls = opts.watchUrls ?? server.urls;
  const putUrls = opts.putUrls ?? server.urls;
  const warm = new Rng(8);
  await load(server, f.token, 16, WARMUP, () => jsonPut(f.lb[warm.int(f.lb.length)]), { overallRate: WATCH_WRITE_RATE, urls: putUrls });
  const head = (await getJson({ ...server, url: putUrls[0] }, f.token, '/api/v1/namespaces/default/services?limit=1')).json.metadata.resourceVersion as string;
  const sentAt = new Map<string, number>();
  const lag = new Samples();
  /** fromAnswer: (ip, arrival) pairs, set against the answers' times once the PUTs are over. */
  const arrivals: [string, number][] = [];
  const seenIPs = new Set<string>();
  let events = 0;
  let bytes = 0;
  let dropped = 0;
  const closers: (() => void)[] = [];
  // Cheap on purpose (the client shares the CPUs with the server): find the IP's bytes, no decoding.
  const record = (buffer: Buffer, start: number, end: number, now: number) => {
    events++;
    const at = buffer.indexOf(IP_PREFIX, start);
    if (at < 0 || at + IP_MARK.length > end) return;
    const ip = buffer.toString('latin1', at, at + IP_MARK.length);
    if (opts.fromAnswer) return void arrivals.push([ip, now]);
    const sent = sentAt.get(ip);
    if (sent !== undefined) {
      lag.push(now - sent);
      seenIPs.add(ip);
    }
  };
  await Promise.all(
    Array.from(
      { length: watchers },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const req = httpsRequest(
            new URL(`/api/v1/services?watch=true&resourceVersion=${head}`, watchUrls[i % watchUrls.length]),
            {
              method: 'GET',
              headers: { authorization: `Bearer ${f.token}`, accept: protobuf ? `${PROTOBUF};stream=watch` : 'application/json' },
              rejectUnauthorized: false,
              agent: false,
            },
            (res) => {
              let pending: Buffer = Buffer.alloc(0);
              let closing = false;
              closers.push(() => {
                closing = true;
                res.destroy();
              });
              res.on('data', (chunk: Buffer) => {
                const now = performance.now();
                bytes += chunk.length;
                pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
                let at = 0;
                if (protobuf) {
                  while (pending.length - at >= 4) {
                    const length = pending.readUInt32BE(at);
                    if (pending.length - at - 4 < length) break;
                    record(pending, at + 4, at + 4 + length, now);
                    at += 4 + length;
                  }
                } else {
                  let nl: number;
                  while ((nl = pending.indexOf(10, at)) >= 0) {
                    record(pending, at, nl, now);
                    at = nl + 1;
                  }
                }
                pending = pending.subarray(at);
              });
              res.on('close', () => {
                if (!closing) dropped++;
              });
              resolve();
            },
          );
          req.on('error', reject);
          req.end();
        }),
    ),
  );
  const rng = new Rng(7);
  const put = () => {
    const s = f.lb[rng.int(f.lb.length)];
    const ip = nextIP();
    sentAt.set(ip, performance.now());
    return jsonPut(s, ip);
  };
  const answeredAt = new Map<string, number>();
  const result = opts.fromAnswer
    ? await pacedPuts(putUrls, f, 16, DURATION, WATCH_WRITE_RATE, put, answeredAt)
    : await load(server, f.token, 16, DURATION, put, { overallRate: WATCH_WRITE_RATE, urls: putUrls });
  await sleep(1000); // let the last events arrive
  for (const close of closers) close();
  for (const [ip, at] of arrivals) {
    const answered = answeredAt.get(ip);
    if (answered === undefined) continue;
    // An event may reach a watcher before the PUT's answer reaches the client: that is no lag.
    lag.push(Math.max(0, at - answered));
    seenIPs.add(ip);
  }
  const sorted = lag.sorted();
  // Completeness of the fan-out: every write some watcher saw should reach all of them.
  const expected = seenIPs.size * watchers;
  const out = {
    watchers,
    protobuf,
    writeRate: WATCH_WRITE_RATE,
    writesPerSecond: result.rps,
    putP50: result.p50,
    putP99: result.p99,
    deliveredPerSecond: lag.length / result.seconds,
    delivered: lag.length,
    expected,
    deliveredFraction: expected ? lag.length / expected : NaN,
    lagP50: percentile(sorted, 50),
    lagP99: percentile(sorted, 99),
    watchersDropped: dropped,
    bytes,
    events,
  };
  log(
    `  ${server.target.padEnd(10)} ${(opts.label ?? `watch-${watchers}${protobuf ? '-pb' : ''}`).padEnd(32)} ${out.writesPerSecond.toFixed(0)} writes/s (p99 ${fmtMs(out.putP99)} ms) → ${out.deliveredPerSecond.toFixed(0)} deliveries/s ` +
      `(${(out.deliveredFraction * 100).toFixed(1)}%), lag p50 ${fmtMs(out.lagP50)} p99 ${fmtMs(out.lagP99)} ms, dropped ${dropped}`,
  );
  return out;
}

/**
 * `connections` loops sending the PUTs `next` makes, together at `rate` per second, round-robin
 * over `urls`; the time each was answered (2xx) is noted by its ingress IP.
 */
async function pacedPuts(urls: string[], f: Fixture, connections: number, seconds: number, rate: number, next: () => RequestSpec, answeredAt: Map<string, number>): Promise<LoadResult> {
  const latencies = new Samples();
  const statusCodes: Record<string, number> = {};
  const interval = (1000 * connections) / rate;
  let ok = 0;
  let loop = 0;
  const d = await drive(
    connections,
    seconds,
    async (agent) => {
      const url = urls[loop++ % urls.length];
      const t0 = performance.now();
      const spec = next();
      const ip = /100\.\d+\.\d+\.\d+/.exec(typeof spec.body === 'string' ? spec.body : '')?.[0];
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpsRequest(
          new URL(spec.path, url),
          { method: spec.method, headers: { authorization: `Bearer ${f.token}`, accept: 'application/json', 'content-type': 'application/json' }, rejectUnauthorized: false, agent },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(spec.body);
      });
      const now = performance.now();
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      if (status >= 200 && status < 300) {
        ok++;
        latencies.push(now - t0);
        if (ip) answeredAt.set(ip, now);
      }
      await sleep(Math.max(0, interval - (now - t0)));
    },
    17,
  );
  const s = latencies.summary();
  return {
    connections,
    seconds: d.seconds,
    ok,
    non2xx: Object.entries(statusCodes)
      .filter(([c]) => Number(c) >= 300)
      .reduce((a, [, n]) => a + n, 0),
    errors: d.errors,
    rps: ok / d.seconds,
    p50: s.p50,
    p99: s.p99,
    max: s.max,
    statusCodes,
  };
}
