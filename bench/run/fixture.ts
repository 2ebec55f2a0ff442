// The dataset as the requests need it: the Services, addresses and times the cases pick from.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DatasetManifest, HEAVY_ADDRESS, ONCE_ADDRESS } from '../generate-data';
import { real } from '../real';
import { Rng } from '../rng';
import type { RequestSpec } from './load';
import { CATCH_UP_EVENTS, PROTOBUF } from './options';
import { type EventAbout, type EventPool, eventPool } from './recorder-events';

interface Pinned {
  ns: string;
  name: string;
  rv: number;
  time: string;
}

export interface Fixture {
  dataDir: string;
  manifest: DatasetManifest;
  token: string;
  head: number;
  firstTime: string;
  lastTime: string;
  namespaces: string[];
  all: { ns: string; name: string }[];
  /** LoadBalancer Services outside `default`: PUT body split around the ingress IP. */
  lb: { ns: string; name: string; before: string; after: string; pb: Buffer; pbAt: number }[];
  hot: Fixture['lb'][number];
  /** What the Event cases' Events are about: the same LoadBalancer Services, in every namespace but `default`. */
  eventObjects: EventAbout[];
  /** The live Events the repeat PATCHes patch (created on each target before its first repeat case). */
  eventPool: EventPool;
  /** Revisions sampled over the whole log: a Service that existed at rv / time. */
  pinned: Pinned[];
  /** Times at which HEAVY_ADDRESS / ONCE_ADDRESS were held, and windows over HEAVY_ADDRESS. */
  heavyTimes: string[];
  onceTimes: string[];
  heavyWindows: [string, string][];
  heavyAssignments: number;
  /** Watch resume: from this resourceVersion, `catchUpWrites` watch events reach the head. */
  resumeFrom: number;
  catchUpWrites: number;
}

/** The most live Events the repeat cases patch (per target). */
const EVENT_POOL = 4000;

export const IP_MARK = '100.199.199.199'; // the same length as every nextIP()
let ipCounter = 0;
/** Ingress IPs of one fixed length (15 characters), so a protobuf body can be patched in place. */
export function nextIP(): string {
  const c = ipCounter++;
  return `100.${100 + ((c >> 14) & 63)}.${100 + ((c >> 7) & 127)}.${100 + (c & 127)}`;
}
/** Every nextIP() starts so; nothing else in a Service does (cluster IPs are 10.96.0.0/12). */
export const IP_PREFIX = Buffer.from('100.1');

export function readFixture(dataDir: string, manifest: DatasetManifest): Fixture {
  const { encodeKubeObject } = real.protobufObject();
  const db = new Database(join(dataDir, 'svctrail.db'), { readonly: true });
  const rows = db.prepare('SELECT namespace AS ns, name, object FROM services ORDER BY namespace, name').all() as { ns: string; name: string; object: string }[];
  const head = db.prepare('SELECT max(position) FROM events').pluck().get() as number;
  // Writes per Service, through the events' (namespace, name, position) index.
  const revisionsOf = db.prepare('SELECT count(*) FROM events WHERE namespace = ? AND name = ?').pluck();
  const lb: Fixture['lb'] = [];
  const eventObjects: EventAbout[] = [];
  for (const row of rows) {
    const object = JSON.parse(row.object);
    if (object.spec.type !== 'LoadBalancer' || row.ns === 'default') continue;
    eventObjects.push({ ns: row.ns, name: row.name, uid: object.metadata.uid, rv: object.metadata.resourceVersion });
    delete object.metadata.resourceVersion;
    object.status.loadBalancer = { ingress: [{ ip: IP_MARK, ipMode: 'VIP' }] };
    const [before, after] = JSON.stringify(object).split(IP_MARK);
    const pb = Buffer.from(encodeKubeObject('Service', object));
    lb.push({ ns: row.ns, name: row.name, before, after, pb, pbAt: pb.indexOf(IP_MARK, 0, 'latin1') });
  }
  // The hot Service: the LoadBalancer Service with the longest history (hot ones got 30% of writes).
  let hot = lb[0];
  let longest = -1;
  for (const candidate of lb.slice(0, 400)) {
    const n = revisionsOf.get(candidate.ns, candidate.name) as number;
    if (n > longest) [hot, longest] = [candidate, n];
  }
  // Revisions sampled uniformly by rowid: GET at R / asOf T of a Service that existed then.
  const maxRowid = db.prepare('SELECT max(rowid) FROM service_revisions').pluck().get() as number;
  const revision = db.prepare('SELECT namespace AS ns, name, resource_version AS rv, recorded_at AS time FROM service_revisions WHERE rowid = ?');
  const sampler = new Rng(99);
  const pinned: Pinned[] = [];
  for (let i = 0; pinned.length < 2000 && i < 20_000; i++) {
    const r = revision.get(1 + sampler.int(maxRowid)) as Pinned | undefined;
    if (r && r.ns !== 'default') pinned.push(r);
  }
  const intervalsOf = db.prepare('SELECT from_time AS fromTime FROM ingress_intervals WHERE address = ? ORDER BY from_resource_version').pluck();
  const heavy = intervalsOf.all(HEAVY_ADDRESS) as string[];
  const once = intervalsOf.all(ONCE_ADDRESS) as string[];
  const heavyTimes = Array.from({ length: Math.min(200, heavy.length) }, () => heavy[sampler.int(heavy.length)]);
  const heavyWindows = Array.from({ length: Math.min(200, heavy.length) }, (): [string, string] => {
    const i = sampler.int(Math.max(1, heavy.length - 10));
    return [heavy[i], heavy[Math.min(heavy.length - 1, i + 10)]];
  });
  const resumeFrom = Math.max(0, head - CATCH_UP_EVENTS);
  const catchUpWrites = db.prepare('SELECT count(*) FROM events WHERE position > ? AND position = resource_version').pluck().get(resumeFrom) as number;
  // recorded_at grows with position (and has no index): the first and the last row hold the bounds.
  const firstTime = db.prepare('SELECT recorded_at FROM events ORDER BY position LIMIT 1').pluck().get() as string;
  const lastTime = db.prepare('SELECT recorded_at FROM events ORDER BY position DESC LIMIT 1').pluck().get() as string;
  db.close();
  const token = readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split('\n')[0].split(',')[0];
  const namespaces = [...new Set(rows.filter((r) => r.ns !== 'default').map((r) => r.ns))];
  return {
    dataDir,
    manifest,
    token,
    head,
    firstTime,
    lastTime,
    namespaces,
    all: rows.map(({ ns, name }) => ({ ns, name })),
    lb,
    hot,
    eventObjects,
    // Up to two live Events per LoadBalancer Service, at most EVENT_POOL: the Events a service
    // controller keeps repeating within the hour of --event-ttl.
    eventPool: eventPool(eventObjects, EVENT_POOL),
    pinned,
    heavyTimes,
    onceTimes: once,
    heavyWindows,
    heavyAssignments: heavy.length,
    resumeFrom,
    catchUpWrites,
  };
}

/** A status PUT of one of the fixture's LoadBalancer Services, with a fresh ingress address. */
const statusPath = (s: { ns: string; name: string }) => `/api/v1/namespaces/${s.ns}/services/${s.name}/status`;
export const jsonPut = (s: Fixture['lb'][number], ip = nextIP()): RequestSpec => ({ method: 'PUT', path: statusPath(s), body: s.before + ip + s.after });
export const protobufPut = (s: Fixture['lb'][number], ip = nextIP()): RequestSpec => {
  const body = Buffer.from(s.pb);
  body.write(ip, s.pbAt, 'latin1');
  return { method: 'PUT', path: statusPath(s), body, contentType: PROTOBUF, accept: PROTOBUF };
};
