// The cases: what each one requests (reads, history, time travel, who-had, writes).
import { HEAVY_ADDRESS, ONCE_ADDRESS } from '../generate-data';
import { type Rng } from '../rng';
import { HISTORY, PROTOBUF, CATCH_UP_EVENTS, log } from './options';
import { type Running } from './processes';
import { type RequestSpec } from './load';
import { type Fixture, jsonPut, protobufPut } from './fixture';
import { walkPages, watchResume } from './case-runners';
import { RECORDER_USER_AGENT, STRATEGIC_MERGE_PATCH, newEvent, repeatOf, seedEvents } from './recorder-events';

export type Result = Record<string, unknown>;

export interface CaseResult {
  id: string;
  title: string;
  svctrail?: Result;
  'floor-full'?: Result;
  floor?: Result;
  'svctrail-pg'?: Result;
  'svctrail-pg3'?: Result;
  /** The 1-minute load average around the phase that measured it, when above BUSY_LOAD (load-average.ts). */
  busyLoad?: { before: number; after: number };
}

/** Counts that a median would hide: summed over the runs. */
const SUMMED = new Set(['non2xx', 'errors']);

/**
 * Several runs of one case on one target as one result: every number the median of the runs
 * (counts of failures summed, the server's peak RSS the highest), `spread` its min and max,
 * `runs` the runs themselves; other fields from the last run. One run is returned as it is.
 */
export function mergeRuns(runs: Result[]): Result {
  if (runs.length === 1) return runs[0];
  const out: Result = { ...runs[runs.length - 1] };
  const spread: Record<string, [number, number]> = {};
  for (const key of Object.keys(runs[0])) {
    const values = runs.map((r) => r[key]);
    if (values.every((v) => typeof v === 'boolean')) out[key] = values.every(Boolean);
    if (!values.every((v) => typeof v === 'number' && Number.isFinite(v))) continue;
    const sorted = (values as number[]).slice().sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    out[key] = SUMMED.has(key) ? sorted.reduce((a, b) => a + b, 0) : key === 'serverPeakRssBytes' ? sorted[sorted.length - 1] : median;
    spread[key] = [sorted[0], sorted[sorted.length - 1]];
  }
  return { ...out, spread, runs };
}

export interface LoadCase {
  kind: 'load';
  id: string;
  title: string;
  connections: number;
  next: (rng: Rng, f: Fixture) => RequestSpec;
  /** A probe request; a non-2xx answer marks the case as not served by that target. */
  probe?: (f: Fixture) => string;
  /** Write cases: the 64-connection burst before "after a burst" sends this case's own requests (default: status PUTs of many Services). */
  ownBurst?: boolean;
  /** Write cases: run once on each target before the case's first run (what its requests need to exist). */
  prepare?: (server: Running, f: Fixture) => Promise<void>;
}

interface DriveCase {
  kind: 'drive';
  id: string;
  title: string;
  run: (server: Running, f: Fixture, seed: number) => Promise<Result>;
}

export type CaseDef = LoadCase | DriveCase;

export const putMany = (connections: number, protobuf = false): LoadCase => ({
  kind: 'load',
  id: `put-many-${protobuf ? 'pb-' : ''}${connections}`,
  title: `PUT status${protobuf ? ' (protobuf)' : ''}, many Services, ${connections} conn`,
  connections,
  next: (rng, f) => (protobuf ? protobufPut : jsonPut)(f.lb[rng.int(f.lb.length)]),
});
export const putHot = (connections: number): LoadCase => ({
  kind: 'load',
  id: `put-hot-${connections}`,
  title: `PUT status, one hot Service, ${connections} conn`,
  connections,
  next: (_rng, f) => jsonPut(f.hot),
});

const randomService = (rng: Rng, f: Fixture) => f.all[rng.int(f.all.length)];
const randomNamespace = (rng: Rng, f: Fixture) => f.namespaces[rng.int(f.namespaces.length)];
const randomRv = (rng: Rng, f: Fixture) => 1 + rng.int(f.head);
const randomTime = (rng: Rng, f: Fixture) => new Date(Date.parse(f.firstTime) + rng.next() * (Date.parse(f.lastTime) - Date.parse(f.firstTime))).toISOString();
const get = (path: string, accept?: string): RequestSpec => ({ method: 'GET', path, accept });

export const READ_CASES: CaseDef[] = [
  {
    kind: 'load',
    id: 'get-10',
    title: 'GET one Service, 10 conn',
    connections: 10,
    next: (rng, f) => {
      const s = randomService(rng, f);
      return get(`/api/v1/namespaces/${s.ns}/services/${s.name}`);
    },
  },
  {
    kind: 'load',
    id: 'get-pb-10',
    title: 'GET one Service (protobuf), 10 conn',
    connections: 10,
    next: (rng, f) => {
      const s = randomService(rng, f);
      return get(`/api/v1/namespaces/${s.ns}/services/${s.name}`, PROTOBUF);
    },
  },
  {
    kind: 'load',
    id: 'list-10',
    title: 'LIST a namespace (100 Services), 10 conn',
    connections: 10,
    next: (rng, f) => get(`/api/v1/namespaces/${randomNamespace(rng, f)}/services`),
  },
];

/** Cases whose cost must not grow with the log: also run on the 10k dataset in the full run. */
export const TIME_TRAVEL_CASES: CaseDef[] = [
  {
    kind: 'load',
    id: 'tt-get-exact-10',
    title: 'time travel: GET at a past RV (Exact), 10 conn',
    connections: 10,
    next: (rng, f) => {
      const p = f.pinned[rng.int(f.pinned.length)];
      return get(`/api/v1/namespaces/${p.ns}/services/${p.name}?resourceVersion=${p.rv}&resourceVersionMatch=Exact`);
    },
  },
  {
    kind: 'load',
    id: 'tt-get-asof-10',
    title: 'time travel: GET asOf a past time, 10 conn',
    connections: 10,
    next: (rng, f) => {
      const p = f.pinned[rng.int(f.pinned.length)];
      return get(`/api/v1/namespaces/${p.ns}/services/${p.name}?asOf=${encodeURIComponent(p.time)}`);
    },
  },
  {
    kind: 'load',
    id: 'tt-list-exact-10',
    title: 'time travel: LIST a namespace at a past RV (Exact), 10 conn',
    connections: 10,
    next: (rng, f) => get(`/api/v1/namespaces/${randomNamespace(rng, f)}/services?resourceVersion=${randomRv(rng, f)}&resourceVersionMatch=Exact`),
  },
  {
    kind: 'load',
    id: 'tt-list-asof-10',
    title: 'time travel: LIST a namespace asOf a past time, 10 conn',
    connections: 10,
    next: (rng, f) => get(`/api/v1/namespaces/${randomNamespace(rng, f)}/services?asOf=${encodeURIComponent(randomTime(rng, f))}`),
  },
  {
    kind: 'drive',
    id: 'tt-list-pages-10',
    title: 'time travel: every page of a LIST at a past RV (limit=10, continue), 10 conn',
    run: (server, f, seed) => walkPages(server, f, seed, (rng) => `/api/v1/namespaces/${randomNamespace(rng, f)}/services?limit=10&resourceVersion=${randomRv(rng, f)}&resourceVersionMatch=Exact`),
  },
  {
    kind: 'drive',
    id: 'list-pages-10',
    title: 'every page of a LIST of a namespace (limit=10, continue), 10 conn',
    run: (server, f, seed) => walkPages(server, f, seed, (rng) => `/api/v1/namespaces/${randomNamespace(rng, f)}/services?limit=10`),
  },
  { kind: 'drive', id: 'watch-resume', title: 'watch resume from an old RV (JSON), 1 conn', run: (server, f) => watchResume(server, f, false) },
  { kind: 'drive', id: 'watch-resume-pb', title: 'watch resume from an old RV (protobuf), 1 conn', run: (server, f) => watchResume(server, f, true) },
];

const ownersAt = (address: string, times: (f: Fixture) => string[]) => (rng: Rng, f: Fixture) => {
  const list = times(f);
  return get(`${HISTORY}/ingressowners?address=${address}&at=${encodeURIComponent(list[rng.int(list.length)])}`);
};
export const WHO_HAD_CASES: CaseDef[] = [
  {
    kind: 'load',
    id: 'history-owners-at-heavy-10',
    title: `history: ingressowners at T, an address assigned many times, 10 conn`,
    connections: 10,
    next: ownersAt(HEAVY_ADDRESS, (f) => f.heavyTimes),
    probe: (f) => `${HISTORY}/ingressowners?address=${HEAVY_ADDRESS}&at=${encodeURIComponent(f.heavyTimes[0] ?? f.lastTime)}`,
  },
  {
    kind: 'load',
    id: 'history-owners-at-once-10',
    title: `history: ingressowners at T, an address assigned once, 10 conn`,
    connections: 10,
    next: ownersAt(ONCE_ADDRESS, (f) => f.onceTimes),
    probe: (f) => `${HISTORY}/ingressowners?address=${ONCE_ADDRESS}&at=${encodeURIComponent(f.onceTimes[0] ?? f.lastTime)}`,
  },
  {
    kind: 'load',
    id: 'history-owners-window-10',
    title: 'history: ingressowners over a window (~10 holders), 10 conn',
    connections: 10,
    next: (rng, f) => {
      const [from, to] = f.heavyWindows[rng.int(f.heavyWindows.length)];
      return get(`${HISTORY}/ingressowners?address=${HEAVY_ADDRESS}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    },
  },
];

const CHANGE_ACTORS = ['system:serviceaccount:metallb-system:controller', 'system:serviceaccount:kube-system:cloud-controller-manager', 'alice', 'bob', 'carol', 'admin'];

export const HISTORY_CASES: CaseDef[] = [
  ...['changes', 'conditiontransitions', 'conditionsummaries', 'ingressintervals'].map((kind): LoadCase => ({
    kind: 'load',
    id: `history-${kind}-10`,
    title: `history: ${kind} of one Service${kind === 'conditionsummaries' ? '' : ' (limit 50)'}, 10 conn`,
    connections: 10,
    next: (rng, f) => {
      const s = randomService(rng, f);
      return get(`${HISTORY}/namespaces/${s.ns}/services/${s.name}/${kind}${kind === 'conditionsummaries' ? '' : '?limit=50'}`);
    },
    probe: (f) => `${HISTORY}/namespaces/${f.hot.ns}/services/${f.hot.name}/${kind}?limit=1`,
  })),
  {
    kind: 'load',
    id: 'history-changes-actor-10',
    title: 'history: changes across the cluster by one actor (?actor=, limit 50), 10 conn',
    connections: 10,
    // The generator's actors (bench/generate-data.ts): two controllers and four people.
    next: (rng) => get(`${HISTORY}/changes?actor=${encodeURIComponent(CHANGE_ACTORS[rng.int(CHANGE_ACTORS.length)])}&limit=50`),
    probe: () => `${HISTORY}/changes?actor=alice&limit=1`,
  },
  {
    kind: 'load',
    id: 'history-ingressconflicts-10',
    title: 'history: ingressconflicts of a namespace (limit 50), 10 conn',
    connections: 10,
    next: (rng, f) => get(`${HISTORY}/namespaces/${randomNamespace(rng, f)}/ingressconflicts?limit=50`),
    probe: (f) => `${HISTORY}/namespaces/${f.namespaces[0]}/ingressconflicts?limit=1`,
  },
  ...WHO_HAD_CASES,
  {
    kind: 'load',
    id: 'history-feed-2',
    title: `history: the feed after head−${CATCH_UP_EVENTS} to the head (NDJSON), 2 conn`,
    connections: 2,
    next: (_rng, f) => get(`${HISTORY}/feed?after=${f.resumeFrom}`),
    probe: (f) => `${HISTORY}/feed?after=${f.head}`,
  },
];

/** Each target's copy gets the pool's Events once, through its own API (the same names everywhere). */
const seeded = new Set<string>();
async function seedPool(server: Running, f: Fixture): Promise<void> {
  if (seeded.has(server.dataDir)) return;
  seeded.add(server.dataDir);
  const t0 = performance.now();
  await seedEvents(server.url, f.token, f.eventPool);
  log(`  ${server.target.padEnd(10)} ${f.eventPool.events.length} live Events created for the repeats in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** client-go's event recorder (recorder-events.ts): a new Event about one of many LoadBalancer Services, in every namespace. */
export const eventPost = (connections: number): LoadCase => ({
  kind: 'load',
  id: `event-post-${connections}`,
  title: `POST Event (a new one, the recorder's), many Services, ${connections} conn`,
  connections,
  next: (rng, f) => ({ method: 'POST', ...newEvent(rng, f.eventObjects), userAgent: RECORDER_USER_AGENT }),
  ownBurst: true,
});
/** The recorder's repeat: a strategic-merge PATCH of count, lastTimestamp and message of one of the pool's live Events. */
export const eventPatch = (connections: number): LoadCase => ({
  kind: 'load',
  id: `event-patch-${connections}`,
  title: `PATCH Event (a repeat: count, lastTimestamp, message), many Events, ${connections} conn`,
  connections,
  next: (rng, f) => ({ method: 'PATCH', ...repeatOf(rng, f.eventPool), contentType: STRATEGIC_MERGE_PATCH, userAgent: RECORDER_USER_AGENT }),
  ownBurst: true,
  prepare: seedPool,
});
/** Issue 42: the Event write path, as the status PUTs at 1 and 16 connections. */
export const EVENT_WRITE_CASES: LoadCase[] = [eventPost(1), eventPost(16), eventPatch(1), eventPatch(16)];

export const WRITE_CASES: LoadCase[] = [putMany(1), putMany(16), putMany(64), putHot(1), putHot(16), putHot(64), putMany(1, true), putMany(16, true)];
/** The cases repeated on the 10k dataset in the full run. */
export const FLAT_CASES: CaseDef[] = [...TIME_TRAVEL_CASES, ...WHO_HAD_CASES];
export const FLAT_WRITE_CASES: LoadCase[] = [putMany(64), putHot(64)];
