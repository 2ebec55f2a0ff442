// One failover of the replicated PostgreSQL (postgres-replication.ts) under svctrail replicas'
// write load, and what it cost, measured as a client sees it:
//
// - status writers on every replica (each on its own Service, a unique ingress IP per attempt, so
//   the log says whether an attempt landed) and an Event writer (each POST a new Event), every
//   answer kept with when it was sent and answered;
// - a watcher on the last replica, resuming as client-go does (from its last resourceVersion
//   when the stream ends, a new LIST after 410 Expired);
// - the failover itself (the old primary's fate, the standby promoted, `moved()` then called,
//   after `moveDelayMs`: where a proxy's address is moved to the new primary);
// - afterwards, read from the new primary: which acknowledged writes are missing, which writes
//   answered "not stored" are there, holes in the log's positions, resourceVersions against
//   real-time order, and whether the watcher's events are exactly the log's.
import type { HttpsClient, RawResponse } from './https-client';
import { movingAddress } from './moving-address';
import { recorderEvent } from './recorder-event';
import type { OldPrimaryFate, ReplicatedPostgres } from './postgres-replication';
import { startReplicas } from './replica-processes';
import { Client } from 'pg';
import { decodeStoredText } from '../../src/store/stored-text-codec';

export interface DrillReplica {
  name: string;
  client: HttpsClient;
}

interface Attempt {
  replica: string;
  kind: 'status' | 'event';
  /** The ingress IP or Event name that only this attempt wrote. */
  mark: string;
  sentAt: number;
  answeredAt: number;
  verdict: 'stored' | 'not-stored' | 'unknown' | 'refused';
  rv?: number;
  status?: number;
}

export interface DrillReport {
  promotedAt: number;
  /** Per replica: ms from the promotion to its first write acknowledged after it. */
  firstWriteMs: Record<string, number | undefined>;
  acknowledged: number;
  /** Acknowledged writes the new primary does not hold. */
  lost: Attempt[];
  /** Writes answered "not stored" that the new primary holds. */
  storedThoughRefused: Attempt[];
  /** Answers that were neither a success, a conflict nor a retryable refusal (a 500 that is not one). */
  unexpected: string[];
  /** Positions missing between the log's first and last. */
  holes: number[];
  /** Pairs of acknowledged writes whose resourceVersions contradict real-time order. */
  outOfOrder: string[];
  watch: {
    events: number;
    /** 410 Expired the watcher got (a rewound log) and listed again after. */
    expired: number;
    /** Stored resourceVersions of the watched namespace the watcher never got, or got out of order / not in the log, after its last LIST. */
    problems: string[];
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const withIngress = (object: any, ip: string) => ({ ...object, status: { loadBalancer: { ingress: [{ ip }] } } });
const lb = (name: string) => ({ metadata: { name }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });

function verdict(response: RawResponse): Attempt['verdict'] {
  if (response.status >= 200 && response.status < 300) return 'stored';
  const message = String(response.json?.message ?? '');
  if (/may or may not have been stored/.test(message)) return 'unknown';
  if (/was not stored/.test(message) || response.json?.reason === 'ServerTimeout') return 'not-stored';
  return 'refused';
}

/** A watcher that resumes as client-go's reflector does; its segments start at a LIST (or the first watch). */
function resumingWatch(replica: DrillReplica, namespace: string, from: number) {
  const segments: { start: number; events: { rv: number; ip?: string }[] }[] = [{ start: from, events: [] }];
  let expired = 0;
  let stopped = false;
  let last = from;
  const running = (async () => {
    while (!stopped) {
      let stream;
      try {
        stream = await replica.client.stream(`/api/v1/namespaces/${namespace}/services?watch=1&resourceVersion=${last}`);
      } catch {
        await sleep(200);
        continue;
      }
      if (stream.status !== 200) {
        stream.close();
        await sleep(200);
        continue;
      }
      for (;;) {
        const event = await stream.next(300);
        if (event === undefined) {
          if (stream.ended || stopped) break;
          continue;
        }
        if (event.type === 'ERROR') {
          if (event.object?.code === 410) {
            expired++;
            for (;;) {
              const list = await replica.client.get(`/api/v1/namespaces/${namespace}/services`).catch(() => undefined);
              if (list?.status === 200) {
                last = Number(list.json.metadata.resourceVersion);
                break;
              }
              await sleep(200);
            }
            segments.push({ start: last, events: [] });
          }
          break;
        }
        const rv = Number(event.object.metadata.resourceVersion);
        segments[segments.length - 1].events.push({ rv, ip: event.object.status?.loadBalancer?.ingress?.[0]?.ip });
        last = rv;
      }
      stream.close();
    }
  })();
  return {
    segments,
    get expired() {
      return expired;
    },
    get last() {
      return last;
    },
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

/**
 * Runs the load, fails over with `fate`, calls `moved` once the standby is promoted, and keeps the
 * load until every replica wrote after the promotion (at most 30 s) and 2 s more.
 */
export async function failoverDrill(
  replicas: DrillReplica[],
  database: ReplicatedPostgres,
  options: { namespace: string; fate: OldPrimaryFate; moved?: () => void; moveDelayMs?: number; lagMs?: number; writersPerReplica?: number },
): Promise<DrillReport> {
  const { namespace: ns, fate } = options;
  const writers = options.writersPerReplica ?? 3;
  const attempts: Attempt[] = [];
  const unexpected: string[] = [];
  const names = replicas.flatMap((r) => Array.from({ length: writers }, (_, i) => ({ replica: r, name: `${r.name}-${i}` })));
  let startRv = 0;
  for (const { replica, name } of names) {
    const created = await replica.client.post(`/api/v1/namespaces/${ns}/services`, lb(name));
    if (created.status !== 201) throw new Error(`creating ${name}: ${created.status} ${created.text}`);
    startRv = Math.max(startRv, Number(created.json.metadata.resourceVersion));
  }
  const watcher = resumingWatch(replicas[replicas.length - 1], ns, startRv);
  let stopped = false;
  let n = 0;
  const record = (replica: DrillReplica, kind: Attempt['kind'], mark: string, sentAt: number, response: RawResponse | undefined) => {
    const attempt: Attempt = { replica: replica.name, kind, mark, sentAt, answeredAt: Date.now(), verdict: response ? verdict(response) : 'unknown', status: response?.status };
    if (response && attempt.verdict === 'stored') attempt.rv = Number(response.json.metadata.resourceVersion);
    if (response && attempt.verdict === 'refused' && response.status !== 409) unexpected.push(`${replica.name} ${kind}: ${response.status} ${response.text.slice(0, 200)}`);
    attempts.push(attempt);
  };
  const statusWriters = names.map(async ({ replica, name }, w) => {
    const path = `/api/v1/namespaces/${ns}/services/${name}`;
    while (!stopped) {
      const current = await replica.client.get(path, { timeoutMs: 20_000 }).catch(() => undefined);
      if (current?.status !== 200) {
        await sleep(100);
        continue;
      }
      const ip = `10.${w}.${(n >> 8) & 255}.${n++ & 255}`;
      const sentAt = Date.now();
      const response = await replica.client.put(`${path}/status`, withIngress(current.json, ip), { timeoutMs: 20_000 }).catch(() => undefined);
      record(replica, 'status', ip, sentAt, response);
      if (!response || response.status >= 500) await sleep(100);
    }
  });
  const eventWriter = (async () => {
    const replica = replicas[0];
    for (let i = 0; !stopped; i++) {
      const name = `drill-${i}`;
      const sentAt = Date.now();
      const response = await replica.client.post(`/api/v1/namespaces/${ns}/events`, recorderEvent(ns, name, { kind: 'Service', name: names[0].name }), { timeoutMs: 20_000 }).catch(() => undefined);
      record(replica, 'event', name, sentAt, response);
      await sleep(response && response.status < 500 ? 50 : 100);
    }
  })();

  await sleep(1_500);
  // The standby falls behind for lagMs before the old primary dies (what asynchronous replication can lose).
  if (options.lagMs) {
    database.holdReplication(true);
    await sleep(options.lagMs);
  }
  const { promotedAt } = await database.failover(fate);
  // A proxy or a Service may follow the promotion late: meanwhile the address leads to the old primary.
  if (options.moveDelayMs) await sleep(options.moveDelayMs);
  options.moved?.();
  const wroteAfter = (replica: string) => attempts.some((a) => a.replica === replica && a.verdict === 'stored' && a.answeredAt > promotedAt);
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && !replicas.every((r) => wroteAfter(r.name));) await sleep(100);
  await sleep(2_000);
  stopped = true;
  await Promise.all([...statusWriters, eventWriter]);

  const db = new Client({ connectionString: database.primary().url });
  await db.connect();
  try {
    // Every status write stores one revision whose object holds its IP; an Event write, its name.
    const revisions = new Map<number, string>();
    for (const row of (await db.query<{ rv: number; object: Buffer }>('SELECT resource_version::int AS rv, object FROM service_revisions WHERE namespace = $1', [ns])).rows) {
      revisions.set(row.rv, decodeStoredText(row.object));
    }
    const eventsAt = new Map<number, string>();
    for (const row of (await db.query<{ rv: number; name: string }>("SELECT resource_version::int AS rv, name FROM events WHERE namespace = $1 AND type LIKE 'KubeEvent%'", [ns])).rows) {
      eventsAt.set(row.rv, row.name);
    }
    const holds = (a: Attempt) => (a.kind === 'status' ? revisions.get(a.rv!)?.includes(`"ip":"${a.mark}"`) === true : eventsAt.get(a.rv!) === a.mark);
    const anywhere = (a: Attempt) => (a.kind === 'status' ? [...revisions.values()].some((text) => text.includes(`"ip":"${a.mark}"`)) : [...eventsAt.values()].includes(a.mark));
    const acknowledged = attempts.filter((a) => a.verdict === 'stored');
    const lost = acknowledged.filter((a) => !holds(a));
    const storedThoughRefused = attempts.filter((a) => a.verdict === 'not-stored' && anywhere(a));

    const positions = (await db.query<{ p: number }>('SELECT position::int AS p FROM events ORDER BY position')).rows.map((r) => r.p);
    const holes: number[] = [];
    for (let i = 1; i < positions.length; i++) for (let p = positions[i - 1] + 1; p < positions[i]; p++) holes.push(p);

    // A write invoked after another was acknowledged must come after it in the log.
    const kept = acknowledged.filter((a) => !lost.includes(a));
    const byAnswer = [...kept].sort((a, b) => a.answeredAt - b.answeredAt);
    const outOfOrder: string[] = [];
    let j = 0;
    let newestBefore: Attempt | undefined;
    for (const b of [...kept].sort((x, y) => x.sentAt - y.sentAt)) {
      while (j < byAnswer.length && byAnswer[j].answeredAt < b.sentAt) {
        if (!newestBefore || byAnswer[j].rv! > newestBefore.rv!) newestBefore = byAnswer[j];
        j++;
      }
      if (newestBefore && newestBefore.rv! >= b.rv!) outOfOrder.push(`${b.mark} (rv ${b.rv}) was sent after ${newestBefore.mark} (rv ${newestBefore.rv}) was acknowledged`);
    }

    // The watcher: after its last LIST (or its start), exactly the stored writes of the namespace, in order.
    const newest = Math.max(...revisions.keys(), 0);
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && watcher.last < newest;) await sleep(100);
    await watcher.stop();
    const problems: string[] = [];
    const segment = watcher.segments[watcher.segments.length - 1];
    const expected = [...revisions.keys()].filter((rv) => rv > segment.start).sort((a, b) => a - b);
    const got = segment.events.map((e) => e.rv);
    if (got.join(',') !== expected.join(',')) {
      const missing = expected.filter((rv) => !got.includes(rv));
      const extra = got.filter((rv) => !revisions.has(rv));
      problems.push(
        `after resourceVersion ${segment.start} the watcher got ${got.length} events, the log holds ${expected.length}: missing ${missing.slice(0, 10).join(',')}; not in the log ${extra.slice(0, 10).join(',')}`,
      );
    }
    for (const e of segment.events) if (e.ip && revisions.get(e.rv)?.includes(`"ip":"${e.ip}"`) === false) problems.push(`the watcher got ${e.ip} at ${e.rv}, the log holds another write there`);
    // Before a 410 the watcher may have heard of writes the failover lost; it must have been told.
    const heardLost = watcher.segments.slice(0, -1).flatMap((s) => s.events.filter((e) => e.ip && revisions.get(e.rv)?.includes(`"ip":"${e.ip}"`) !== true));
    if (heardLost.length && watcher.expired === 0) problems.push(`the watcher heard of ${heardLost.length} lost writes and was never told (410)`);

    const firstWriteMs: Record<string, number | undefined> = {};
    for (const r of replicas) {
      const first = attempts.filter((a) => a.replica === r.name && a.verdict === 'stored' && a.answeredAt > promotedAt).sort((a, b) => a.answeredAt - b.answeredAt)[0];
      firstWriteMs[r.name] = first && first.answeredAt - promotedAt;
    }
    return {
      promotedAt,
      firstWriteMs,
      acknowledged: acknowledged.length,
      lost,
      storedThoughRefused,
      unexpected,
      holes,
      outOfOrder,
      watch: { events: watcher.segments.reduce((sum, s) => sum + s.events.length, 0), expired: watcher.expired, problems },
    };
  } finally {
    await db.end();
  }
}

export type Addressing = 'multi-host' | 'moving address';

export interface FailoverCase {
  addressing: Addressing;
  fate: OldPrimaryFate;
  /** How long the moving address still leads to the old primary after the promotion. */
  moveDelayMs?: number;
  /** How long the standby receives nothing before the old primary is killed. */
  lagMs?: number;
}

export const caseTitle = (c: FailoverCase) =>
  `${c.lagMs ? `the standby ${c.lagMs / 1000} s behind, ` : ''}${c.addressing === 'multi-host' ? 'a multi-host URL (target_session_attrs=read-write)' : `one address moved to the new primary${c.moveDelayMs ? ` ${c.moveDelayMs / 1000} s late` : ''}`}, the old primary ${c.fate === 'read-only' ? 'back read-only at its address' : c.fate}`;

/** Two replicas on the case's address, one drill, the replicas stopped; the report and a line for the log. */
export async function failoverCase(database: ReplicatedPostgres, c: FailoverCase, namespace: string): Promise<{ report: DrillReport; summary: string }> {
  const proxy = c.addressing === 'moving address' ? await movingAddress(database.primary().port) : undefined;
  const url = proxy ? `postgres://postgres@127.0.0.1:${proxy.port}/postgres` : database.multiHostUrl;
  try {
    const set = await startReplicas(url, ['a', 'b']);
    try {
      const report = await failoverDrill(set.replicas, database, {
        namespace,
        fate: c.fate,
        moved: proxy && (() => proxy.moveTo(database.primary().port)),
        moveDelayMs: c.moveDelayMs,
        lagMs: c.lagMs,
      });
      const first = Object.entries(report.firstWriteMs).map(([name, ms]) => `${name} ${ms === undefined ? 'never' : `${(ms / 1000).toFixed(2)} s`}`);
      const summary =
        `failover (${caseTitle(c)}): first write after the promotion: ${first.join(', ')}; ${report.acknowledged} writes acknowledged, ${report.lost.length} lost` +
        `${report.lost.length ? ` (acknowledged ${report.lost.map((a) => `${report.promotedAt - a.answeredAt} ms`).join(', ')} before the promotion)` : ''}; ` +
        `watcher: ${report.watch.events} events, ${report.watch.expired} × 410 Expired`;
      return { report, summary };
    } finally {
      await set.stop();
    }
  } finally {
    await proxy?.close();
  }
}
