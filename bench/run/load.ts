// Load generation: keep-alive HTTPS requests over N connections, latency samples, one-off calls.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { readCpuTimes } from '../machine-cpu';
import { Rng } from '../rng';
import { type Running } from './processes';

export interface LoadResult {
  connections: number;
  seconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  statusCodes: Record<string, number>;
}

export interface RequestSpec {
  method: 'GET' | 'PUT' | 'POST' | 'PATCH';
  path: string;
  body?: string | Buffer;
  /** Accept and Content-Type (default JSON). */
  accept?: string;
  contentType?: string;
  /** The client's User-Agent (none by default; svctrail names a write's field manager after it). */
  userAgent?: string;
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export class Samples {
  private data = new Float64Array(1 << 12);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort();
  }
  summary(): { n: number; p50: number; p99: number; max: number } {
    const s = this.sorted();
    return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s.length ? s[s.length - 1] : NaN };
  }
}

/**
 * Load on every URL of `server` at once: one autocannon per replica URL, the connections (and
 * the overall rate) split between them as evenly as they divide, so three replicas share one
 * load round-robin by connection. Latencies and answers are merged into one result.
 */
export const machineCpu = () => readCpuTimes(() => readFileSync('/proc/stat', 'utf8'));

export function load(server: Running, token: string, connections: number, seconds: number, next: () => RequestSpec, extra: { overallRate?: number; urls?: string[] } = {}): Promise<LoadResult> {
  const latencies = new Samples();
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  // Fewer connections than replicas: the first replicas only (a 1-connection case stays one connection).
  const urls = (extra.urls ?? server.urls).slice(0, Math.max(1, connections));
  const shares = urls.map((_, i) => Math.floor(connections / urls.length) + (i < connections % urls.length ? 1 : 0));
  const base = { authorization: `Bearer ${token}` };
  const one = (url: string, share: number) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url,
          connections: share,
          duration: seconds,
          pipelining: 1,
          timeout: 30,
          ...(extra.overallRate ? { overallRate: Math.max(1, Math.round((extra.overallRate * share) / connections)) } : {}),
          headers: { ...base, accept: 'application/json', 'content-type': 'application/json' },
          requests: [
            {
              setupRequest: (req: any) => {
                const spec = next();
                const headers: Record<string, string> = { ...base, accept: spec.accept ?? 'application/json', 'content-type': spec.contentType ?? 'application/json' };
                if (spec.userAgent) headers['user-agent'] = spec.userAgent;
                return { ...req, method: spec.method, path: spec.path, body: spec.body, headers };
              },
            },
          ],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
        statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
        if (statusCode >= 200 && statusCode < 300) {
          ok++;
          latencies.push(responseTime);
        }
      });
    });
  return Promise.all(urls.map((url, i) => one(url, shares[i]))).then((all) => {
    const sorted = latencies.sorted();
    const elapsed = Math.max(...all.map((r) => r.duration || seconds));
    return {
      connections,
      seconds: elapsed,
      ok,
      non2xx: all.reduce((a, r) => a + r.non2xx, 0),
      errors: all.reduce((a, r) => a + r.errors + r.timeouts, 0),
      rps: ok / elapsed,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.length ? sorted[sorted.length - 1] : NaN,
      statusCodes,
    };
  });
}

interface Answer {
  status: number;
  body: Buffer;
  ms: number;
}

/** One request on a keep-alive agent; the whole answer is read. */
export function call(server: Running, token: string, path: string, agent: Agent | false, accept = 'application/json'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = httpsRequest(new URL(path, server.url), { method: 'GET', headers: { authorization: `Bearer ${token}`, accept }, rejectUnauthorized: false, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function getJson(server: Running, token: string, path: string): Promise<{ status: number; json: any }> {
  const a = await call(server, token, path, false);
  let json: unknown;
  try {
    json = JSON.parse(a.body.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: a.status, json };
}

/**
 * `connections` loops, each running `step` again and again for `seconds`; `step` records its own
 * samples (requests whose answer is not 2xx count as errors).
 */
export async function drive(connections: number, seconds: number, step: (agent: Agent, rng: Rng) => Promise<void>, seed: number): Promise<{ seconds: number; errors: number; loops: number }> {
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let errors = 0;
  let loops = 0;
  await Promise.all(
    Array.from({ length: connections }, async (_, i) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
      const rng = new Rng(seed * 1000 + i);
      try {
        while (performance.now() < deadline) {
          try {
            await step(agent, rng);
            loops++;
          } catch {
            errors++;
          }
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, errors, loops };
}
