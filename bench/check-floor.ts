// Keeps the floor honest: asks svctrail and the floor the same read requests (each on its own
// fresh copy of a dataset) and compares the answers — status codes always; bodies byte for byte
// where both serve stored JSON (GET, LIST items, time travel, protobuf GET, watch resume);
// history items field by field, minus what the floor computes differently (bench/README.md:
// the `continue` tokens, the summaries' window end, which is "now").
// Then floor-full (floor-server.js --variant storage) gets the same status PUTs as svctrail
// (JSON and protobuf; new ingress addresses, cleared ingress, condition changes, additions and
// removals; with and without a fieldManager): the answers must be the same bytes, and the rows
// both wrote (events, services, service_revisions, condition_transitions, ingress_intervals and
// the R-tree) the same, minus the times and request ids (the clock and a random id).
// Then svctrail, floor-full and the floor get the same Event writes, as client-go's recorder sends
// them (a POST of a new Event, strategic-merge and merge PATCHes of its repeats, a repeat that
// changes nothing, a POST of a live name, a PATCH of a missing one): the same status codes, the
// same answers and the same fact, kube_events and kube_event_occurrences rows, minus what each
// server draws or reads off its clock (uids, creationTimestamp, managedFields times, expiresAt,
// recorded_at, request ids) and with resourceVersions counted from each server's head; the floor
// records no caller columns (groups, user agent, field manager), so those are left out for it.
// Prints one line per request kind and exits 1 on any unexpected difference.
//
// usage: node bench/dist/check-floor.js [--dataset 10k] [--samples 40]
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { DATA_ROOT, HEAVY_ADDRESS, ONCE_ADDRESS } from './generate-data';
import { ROOT, real } from './real';
import { Rng } from './rng';
import { onServingLine } from './run/serving-line';
import { eventData } from './floor/stored-text';
import { repeatedText } from './floor/repeated-texts';
import { type EventAbout, SERVICE_CONTROLLER_EVENTS, recorderEvent, recorderWrite, repeatPatch } from './run/recorder-events';

const HISTORY = '/apis/history.svctrail.io/v1alpha1';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const { values } = parseArgs({ options: { dataset: { type: 'string', default: '10k' }, samples: { type: 'string', default: '40' } } });
const SAMPLES = Number(values.samples);

interface Server {
  child: ChildProcess;
  url: string;
  dir: string;
}

function start(script: string, source: string, label: string, extra: string[] = []): Promise<Server> {
  const dir = join(DATA_ROOT, `check-${label}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const file of ['svctrail.db', 'ca.crt', 'ca.key', 'serving.crt', 'serving.key', 'tokens.csv', 'policy.jsonl']) {
    if (existsSync(join(source, file))) copyFileSync(join(source, file), join(dir, file));
  }
  const child = spawn(process.execPath, [script, '--port', '0', '--data-dir', dir, ...extra], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    onServingLine(child.stdout, (url) => resolve({ child, url, dir }));
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}`)));
  });
}

function fetch(server: Server, token: string, path: string, accept = 'application/json'): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(path, server.url), { headers: { authorization: `Bearer ${token}`, accept }, rejectUnauthorized: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A status PUT; `protobuf` sends and asks for protobuf. */
function put(server: Server, token: string, path: string, body: Buffer, protobuf: boolean): Promise<{ status: number; body: Buffer }> {
  const type = protobuf ? PROTOBUF : 'application/json';
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL(path, server.url),
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, accept: type, 'content-type': type, 'content-length': body.length, 'user-agent': 'check-floor/1.0 (linux/amd64) bench' },
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The rows a server wrote after `head`, minus what legitimately differs (each server's clock,
 * the random request id); the interval rows whose close a write after `head` recorded included.
 */
function writtenRows(dir: string, head: number): Record<string, unknown[]> {
  const db = new Database(join(dir, 'svctrail.db'), { readonly: true });
  try {
    const all = (sql: string) => db.prepare(sql).all(...Array((sql.match(/\?/g) ?? []).length).fill(head));
    return {
      events: all(
        `SELECT position, resource_version, stream_id, stream_version, namespace, name, type, data, actor_user, actor_groups, user_agent,
           field_manager, verb, subresource, packed_data, actor_groups_id, user_agent_id, field_manager_id,
           ${repeatedText('actor_groups')} AS groups_text, ${repeatedText('user_agent')} AS user_agent_text, ${repeatedText('field_manager')} AS field_manager_text
         FROM events WHERE position > ? ORDER BY position`,
      ),
      services: all('SELECT namespace, name, uid, resource_version, stream_version, object FROM services WHERE resource_version > ? ORDER BY namespace, name'),
      service_revisions: all('SELECT uid, resource_version, namespace, name, object, patch FROM service_revisions WHERE resource_version > ? ORDER BY uid, resource_version'),
      condition_transitions: all(
        `SELECT id, resource_version, uid, namespace, name, condition_type, from_status, to_status, reason, message, observed_generation,
           last_transition_time, actor_user FROM condition_transitions WHERE resource_version > ? ORDER BY id`,
      ),
      ingress_intervals: all(
        `SELECT id, address, address_type, uid, namespace, name, from_resource_version, set_by, to_resource_version, cleared_by
         FROM ingress_intervals WHERE from_resource_version > ? OR to_resource_version > ? ORDER BY id`,
      ),
      ingress_interval_spans: all('SELECT id, from_rv, to_rv FROM ingress_interval_spans WHERE to_rv > ? ORDER BY id'),
    };
  } finally {
    db.close();
  }
}

/** Reads a watch until `count` lines arrived, then closes it. */
function watchLines(server: Server, token: string, path: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    let pending = '';
    const req = httpsRequest(new URL(path, server.url), { headers: { authorization: `Bearer ${token}` }, rejectUnauthorized: false, agent: false }, (res) => {
      res.setEncoding('utf8');
      const timer = setTimeout(() => (res.destroy(), resolve(lines)), 30_000);
      res.on('data', (c: string) => {
        pending += c;
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          lines.push(pending.slice(0, nl));
          pending = pending.slice(nl + 1);
        }
        if (lines.length >= count) {
          clearTimeout(timer);
          res.destroy();
          resolve(lines.slice(0, count));
        }
      });
    });
    req.on('error', (e) => (lines.length >= count ? undefined : reject(e)));
    req.end();
  });
}

/** Drops the fields the floor computes differently (see the header). */
function comparable(kind: string, value: any): any {
  const v = structuredClone(value);
  if (v?.metadata) delete v.metadata.continue;
  for (const item of v?.items ?? []) {
    if (kind === 'conditionsummaries') {
      delete item.window?.end;
      delete item.metadata?.resourceVersion;
      for (const c of item.conditions ?? []) {
        // Open-ended: the time in the current status runs to "now", which differs per request.
        delete c.secondsInStatus;
      }
    }
  }
  return v;
}

type Note = (kind: string, same: boolean, example?: string) => void;

/** The write half of the check: see the header. */
async function checkWrites(svctrail: Server, floorFull: Server, token: string, head: number, lb: { ns: string; name: string }[], rng: Rng, note: Note): Promise<void> {
  const pb = real.protobufObject();
  for (let i = 0; i < SAMPLES; i++) {
    const s = lb[rng.int(lb.length)];
    const path = `/api/v1/namespaces/${s.ns}/services/${s.name}`;
    const current = await fetch(svctrail, token, path);
    if (current.status !== 200) continue;
    const object = JSON.parse(current.body.toString('utf8'));
    const status = object.status ?? {};
    const kind = ['ingress', 'ingress-cleared', 'condition-flip', 'condition-added', 'condition-removed', 'ingress+conditions'][i % 6];
    if (kind === 'ingress' || kind === 'ingress+conditions') status.loadBalancer = { ingress: [{ ip: `100.77.${i >> 8}.${i & 255}`, ipMode: 'VIP' }] };
    if (kind === 'ingress-cleared') status.loadBalancer = {};
    const conditions: any[] = status.conditions ?? [];
    if ((kind === 'condition-flip' || kind === 'ingress+conditions') && conditions.length) {
      const c = conditions[0];
      c.status = c.status === 'True' ? 'False' : 'True';
      c.reason = `CheckFloor${i}`;
      c.message = `flipped by check-floor ${i}`;
      c.lastTransitionTime = '2026-01-01T00:00:00Z';
    } else if (kind === 'condition-removed' && conditions.length) conditions.pop();
    else if (kind !== 'ingress' && kind !== 'ingress-cleared') {
      conditions.push({ type: `CheckFloor${i}`, status: 'True', observedGeneration: 1, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Added', message: 'added by check-floor' });
    }
    if (conditions.length) status.conditions = conditions;
    object.status = status;
    const protobuf = Math.floor(i / 6) % 2 === 1; // every kind of change both ways
    const body = protobuf ? Buffer.from(pb.encodeKubeObject('Service', object)) : Buffer.from(JSON.stringify(object));
    const statusPath = `${path}/status${i % 4 === 1 ? '?fieldManager=check-floor-manager' : ''}`;
    // One after the other: both logs get the writes in the same order, so resourceVersions agree.
    const a = await put(svctrail, token, statusPath, body, protobuf);
    const b = await put(floorFull, token, statusPath, body, protobuf);
    const label = `put-${kind}${protobuf ? '-pb' : ''}`;
    if (a.status !== b.status) note(label, false, `${statusPath}: status ${a.status} vs ${b.status}: ${a.body.toString().slice(0, 300)} / ${b.body.toString().slice(0, 300)}`);
    else note(label, a.body.equals(b.body), `${statusPath}: ${a.body.toString(protobuf ? 'base64' : 'utf8').slice(0, 600)} vs ${b.body.toString(protobuf ? 'base64' : 'utf8').slice(0, 600)}`);
  }
  // The rows both wrote (read while they run: WAL readers see every committed write).
  const x = writtenRows(svctrail.dir, head);
  const y = writtenRows(floorFull.dir, head);
  for (const table of Object.keys(x)) {
    const i = x[table].findIndex((row, k) => !isDeepStrictEqual(row, y[table][k]));
    note(
      `rows-${table} (${x[table].length})`,
      isDeepStrictEqual(x[table], y[table]),
      `${x[table].length} vs ${y[table].length} rows; first difference at ${i}: ${JSON.stringify(x[table][i])?.slice(0, 400)} vs ${JSON.stringify(y[table][i])?.slice(0, 400)}`,
    );
  }
}

/**
 * Makes one server's Event JSON comparable with another's: its uids numbered in order of first
 * appearance, its clock's times replaced, resourceVersions counted from the head it started at.
 */
class EventNormalizer {
  private readonly uids = new Map<string, string>();
  constructor(private readonly head: number) {}
  uid(u: string): string {
    if (!this.uids.has(u)) this.uids.set(u, `uid-${this.uids.size + 1}`);
    return this.uids.get(u)!;
  }
  rv(rv: number | string): number {
    return Number(rv) - this.head;
  }
  event(e: any): any {
    const m = e?.metadata;
    if (!m) return e;
    if (m.uid) m.uid = this.uid(m.uid);
    if (m.resourceVersion) m.resourceVersion = String(this.rv(m.resourceVersion));
    if (m.creationTimestamp) m.creationTimestamp = '<clock>';
    for (const entry of m.managedFields ?? []) entry.time = '<clock>';
    return e;
  }
  /** Text in, text out: the key order stays, so byte-for-byte is still compared. */
  json(text: string): string {
    return JSON.stringify(this.event(JSON.parse(text)));
  }
  fact(data: string): string {
    const d = JSON.parse(data);
    this.event(d.object);
    if (d.expiresAt) d.expiresAt = '<clock>';
    return JSON.stringify(d);
  }
}

/** The Event rows a server wrote after `head`, normalized (`caller`: with the caller columns the floor does not record). */
function writtenEventRows(dir: string, head: number, n: EventNormalizer, caller: boolean): Record<string, unknown[]> {
  const db = new Database(join(dir, 'svctrail.db'), { readonly: true });
  try {
    const events = db
      .prepare(
        `SELECT position, resource_version, stream_id, stream_version, namespace, name, type, data, actor_user, ${repeatedText('actor_groups')} AS actor_groups,
           ${repeatedText('user_agent')} AS user_agent, ${repeatedText('field_manager')} AS field_manager, verb, subresource, packed_data
         FROM events WHERE position > ? ORDER BY position`,
      )
      .all(head) as any[];
    const live = db
      .prepare('SELECT namespace, name, uid, resource_version, stream_version, object, expires_at FROM kube_events WHERE resource_version > ? ORDER BY namespace, name')
      .all(head) as any[];
    const occurrences = db.prepare('SELECT * FROM kube_event_occurrences WHERE resource_version > ? ORDER BY resource_version').all(head) as any[];
    return {
      // The floor stores an Event's fact unpacked: compared as the text each means.
      events: events.map(({ actor_groups, user_agent, field_manager, packed_data, ...r }) => ({
        ...r,
        ...(caller ? { actor_groups, user_agent, field_manager } : {}),
        position: n.rv(r.position),
        resource_version: n.rv(r.resource_version),
        stream_id: n.uid(r.stream_id),
        data: n.fact(eventData(r.data, packed_data)),
      })),
      kube_events: live.map((r) => ({ ...r, uid: n.uid(r.uid), resource_version: n.rv(r.resource_version), object: n.json(r.object), expires_at: r.expires_at ? '<clock>' : null })),
      kube_event_occurrences: occurrences.map((r) => ({ ...r, resource_version: n.rv(r.resource_version), uid: n.uid(r.uid) })),
    };
  } finally {
    db.close();
  }
}

const headOf = (dir: string): number => {
  const db = new Database(join(dir, 'svctrail.db'), { readonly: true });
  try {
    return db.prepare('SELECT max(position) FROM events').pluck().get() as number;
  } finally {
    db.close();
  }
};

/** The Event half of the check: see the header. */
async function checkEventWrites(servers: { label: string; server: Server; caller: boolean }[], token: string, objects: EventAbout[], rng: Rng, note: Note): Promise<void> {
  const heads = servers.map((s) => headOf(s.server.dir));
  const normalizers = heads.map((h) => new EventNormalizer(h));
  const samples = Math.min(SAMPLES, 20);
  const requests: { kind: string; method: 'POST' | 'PATCH'; path: string; body: string; contentType?: string }[] = [];
  for (let i = 0; i < samples; i++) {
    const about = objects[rng.int(objects.length)];
    const said = SERVICE_CONTROLLER_EVENTS[i % SERVICE_CONTROLLER_EVENTS.length];
    const name = `${about.name}.${(0x18ec000000000000n + BigInt(i)).toString(16)}`;
    const events = `/api/v1/namespaces/${about.ns}/events`;
    const first = new Date(Date.parse('2026-12-07T10:00:00Z') + i * 60_000);
    const post = recorderEvent(about, name, said, first);
    const repeat = (count: number) => repeatPatch(count, said.message, new Date(first.getTime() + count * 1000));
    requests.push(
      { kind: 'event-post', method: 'POST', path: events, body: post },
      { kind: 'event-repeat', method: 'PATCH', path: `${events}/${name}`, body: repeat(2) },
      { kind: 'event-repeat-merge', method: 'PATCH', path: `${events}/${name}`, body: repeat(3), contentType: 'application/merge-patch+json' },
      { kind: 'event-repeat-no-op', method: 'PATCH', path: `${events}/${name}`, body: repeat(3) },
      { kind: 'event-post-live-name', method: 'POST', path: events, body: post },
      { kind: 'event-patch-missing', method: 'PATCH', path: `${events}/${name}x`, body: repeat(2) },
    );
  }
  // One server after the other per request: every log gets the writes in the same order.
  for (const r of requests) {
    const answers = [];
    for (const s of servers) answers.push(await recorderWrite(s.server.url, token, r.method, r.path, r.body, { contentType: r.contentType }));
    const [a] = answers;
    for (const [k, b] of answers.entries()) {
      if (k === 0) continue;
      const label = `${r.kind} (${servers[k].label})`;
      if (a.status !== b.status) note(label, false, `${r.path}: status ${a.status} vs ${b.status}: ${a.body.slice(0, 300)} / ${b.body.slice(0, 300)}`);
      else if (a.status >= 300) note(label, true);
      else {
        const x = normalizers[0].json(a.body);
        const y = normalizers[k].json(b.body);
        note(label, x === y, `${r.path}: ${x.slice(0, 700)} vs ${y.slice(0, 700)}`);
      }
    }
  }
  const rows = servers.map((s, k) => writtenEventRows(s.server.dir, heads[k], normalizers[k], s.caller));
  for (const [k, s] of servers.entries()) {
    if (k === 0) continue;
    // Against svctrail's rows, with the caller columns only where this server records them.
    const x = s.caller ? rows[0] : writtenEventRows(servers[0].server.dir, heads[0], normalizers[0], false);
    const y = rows[k];
    for (const table of Object.keys(x)) {
      const i = x[table].findIndex((row, j) => !isDeepStrictEqual(row, y[table][j]));
      note(
        `rows-${table} (${s.label}, ${x[table].length})`,
        isDeepStrictEqual(x[table], y[table]),
        `${x[table].length} vs ${y[table].length} rows; first difference at ${i}: ${JSON.stringify(x[table][i])?.slice(0, 600)} vs ${JSON.stringify(y[table][i])?.slice(0, 600)}`,
      );
    }
  }
}

async function main(): Promise<void> {
  const source = join(DATA_ROOT, values.dataset);
  const token = readFileSync(join(source, 'tokens.csv'), 'utf8').split('\n')[0].split(',')[0];
  const db = new Database(join(source, 'svctrail.db'), { readonly: true });
  const head = db.prepare('SELECT max(position) FROM events').pluck().get() as number;
  const services = db.prepare(`SELECT namespace AS ns, name FROM services WHERE namespace <> 'default' ORDER BY namespace, name`).all() as { ns: string; name: string }[];
  const namespaces = [...new Set(services.map((s) => s.ns))];
  const lbServices = db.prepare(`SELECT namespace AS ns, name FROM services WHERE namespace <> 'default' AND json_extract(object, '$.spec.type') = 'LoadBalancer' ORDER BY namespace, name`).all() as {
    ns: string;
    name: string;
  }[];
  const eventObjects = db
    .prepare(
      `SELECT namespace AS ns, name, json_extract(object, '$.metadata.uid') AS uid, CAST(resource_version AS TEXT) AS rv FROM services
       WHERE namespace <> 'default' AND json_extract(object, '$.spec.type') = 'LoadBalancer' ORDER BY namespace, name`,
    )
    .all() as EventAbout[];
  const maxRowid = db.prepare('SELECT max(rowid) FROM service_revisions').pluck().get() as number;
  const revision = db.prepare('SELECT namespace AS ns, name, resource_version AS rv, recorded_at AS time FROM service_revisions WHERE rowid = ?');
  const times = db.prepare('SELECT from_time FROM ingress_intervals WHERE address = ? ORDER BY from_resource_version').pluck();
  const heavy = times.all(HEAVY_ADDRESS) as string[];
  const once = times.all(ONCE_ADDRESS) as string[];
  const rng = new Rng(5);
  const pick = <T>(list: T[]) => list[rng.int(list.length)];
  const pinned = () => {
    for (;;) {
      const r = revision.get(1 + rng.int(maxRowid)) as { ns: string; name: string; rv: number; time: string } | undefined;
      if (r) return r;
    }
  };
  const requests: { kind: string; path: string; accept?: string; mode: 'bytes' | 'list' | 'history' }[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const s = pick(services);
    const ns = pick(namespaces);
    const p = pinned();
    const rv = 1 + rng.int(head);
    requests.push(
      { kind: 'get', path: `/api/v1/namespaces/${s.ns}/services/${s.name}`, mode: 'bytes' },
      { kind: 'get-protobuf', path: `/api/v1/namespaces/${s.ns}/services/${s.name}`, accept: PROTOBUF, mode: 'bytes' },
      { kind: 'get-exact', path: `/api/v1/namespaces/${p.ns}/services/${p.name}?resourceVersion=${p.rv}&resourceVersionMatch=Exact`, mode: 'bytes' },
      { kind: 'get-asof', path: `/api/v1/namespaces/${p.ns}/services/${p.name}?asOf=${encodeURIComponent(p.time)}`, mode: 'bytes' },
      { kind: 'list', path: `/api/v1/namespaces/${ns}/services`, mode: 'list' },
      { kind: 'list-exact', path: `/api/v1/namespaces/${ns}/services?resourceVersion=${rv}&resourceVersionMatch=Exact`, mode: 'list' },
      { kind: 'list-asof', path: `/api/v1/namespaces/${ns}/services?asOf=${encodeURIComponent(p.time)}`, mode: 'list' },
      { kind: 'list-exact-page1', path: `/api/v1/namespaces/${ns}/services?limit=10&resourceVersion=${rv}&resourceVersionMatch=Exact`, mode: 'list' },
    );
    for (const kind of ['changes', 'conditiontransitions', 'conditionsummaries', 'ingressintervals']) {
      requests.push({ kind, path: `${HISTORY}/namespaces/${s.ns}/services/${s.name}/${kind}${kind === 'conditionsummaries' ? '' : '?limit=50'}`, mode: 'history' });
    }
    requests.push({ kind: 'ingressconflicts', path: `${HISTORY}/namespaces/${ns}/ingressconflicts?limit=50`, mode: 'history' });
    if (heavy.length) requests.push({ kind: 'owners-at-heavy', path: `${HISTORY}/ingressowners?address=${HEAVY_ADDRESS}&at=${encodeURIComponent(pick(heavy))}`, mode: 'history' });
    if (once.length) requests.push({ kind: 'owners-at-once', path: `${HISTORY}/ingressowners?address=${ONCE_ADDRESS}&at=${encodeURIComponent(once[0])}`, mode: 'history' });
    if (heavy.length > 11) {
      const at = rng.int(heavy.length - 11);
      requests.push({
        kind: 'owners-window',
        path: `${HISTORY}/ingressowners?address=${HEAVY_ADDRESS}&from=${encodeURIComponent(heavy[at])}&to=${encodeURIComponent(heavy[at + 10])}`,
        mode: 'history',
      });
    }
  }
  requests.push({ kind: 'feed', path: `${HISTORY}/feed?after=${head - 200}`, mode: 'history' });
  db.close();

  const svctrail = await start(join(ROOT, 'dist', 'main.js'), source, 'svctrail');
  const floor = await start(join(ROOT, 'bench', 'dist', 'floor-server.js'), source, 'floor');
  let floorFull: Server | undefined;
  const tally = new Map<string, { same: number; differ: number; example?: string }>();
  const note = (kind: string, same: boolean, example?: string) => {
    const t = tally.get(kind) ?? { same: 0, differ: 0 };
    if (same) t.same++;
    else {
      t.differ++;
      t.example ??= example;
    }
    tally.set(kind, t);
  };
  try {
    for (const r of requests) {
      const [a, b] = await Promise.all([fetch(svctrail, token, r.path, r.accept), fetch(floor, token, r.path, r.accept)]);
      if (a.status !== b.status) {
        note(r.kind, false, `${r.path}: status ${a.status} vs ${b.status}`);
        continue;
      }
      if (a.status !== 200) {
        note(r.kind, true);
        continue;
      }
      if (r.mode === 'bytes') {
        note(r.kind, a.body.equals(b.body), `${r.path}: ${a.body.length} vs ${b.body.length} bytes`);
      } else if (r.kind === 'feed') {
        const lines = (x: Buffer) =>
          x
            .toString('utf8')
            .trim()
            .split('\n')
            .map((l) => comparable('changes', { items: [JSON.parse(l)] }));
        note(r.kind, isDeepStrictEqual(lines(a.body), lines(b.body)), `${r.path}: ${lines(a.body).length} vs ${lines(b.body).length} lines`);
      } else {
        const x = comparable(r.kind, JSON.parse(a.body.toString('utf8')));
        const y = comparable(r.kind, JSON.parse(b.body.toString('utf8')));
        if (r.mode === 'list') {
          delete x.metadata.continue;
          delete y.metadata.continue;
        }
        const same = isDeepStrictEqual(x, y);
        let example = `${r.path}: ${x.items?.length} vs ${y.items?.length} items`;
        if (!same) {
          const i = (x.items ?? []).findIndex((item: unknown, k: number) => !isDeepStrictEqual(item, y.items?.[k]));
          example +=
            i >= 0 ? `; item ${i}: ${JSON.stringify(x.items[i]).slice(0, 400)} vs ${JSON.stringify(y.items?.[i]).slice(0, 400)}` : `; ${JSON.stringify(x.metadata)} vs ${JSON.stringify(y.metadata)}`;
        }
        note(r.kind, same, example);
      }
    }
    // Every page of a paginated LIST (each server following its own continue tokens).
    const walk = async (server: Server, first: string) => {
      const pages: unknown[][] = [];
      let path = first;
      const base = first.slice(0, first.indexOf('?'));
      for (let n = 0; n < 100; n++) {
        const page = JSON.parse((await fetch(server, token, path)).body.toString('utf8'));
        pages.push(page.items);
        if (!page.metadata.continue) break;
        path = `${base}?limit=10&continue=${encodeURIComponent(page.metadata.continue)}`;
      }
      return pages;
    };
    for (let i = 0; i < Math.min(10, SAMPLES); i++) {
      const ns = pick(namespaces);
      const rv = 1 + rng.int(head);
      for (const first of [`/api/v1/namespaces/${ns}/services?limit=10`, `/api/v1/namespaces/${ns}/services?limit=10&resourceVersion=${rv}&resourceVersionMatch=Exact`]) {
        const [pa, pb] = await Promise.all([walk(svctrail, first), walk(floor, first)]);
        note(first.includes('Exact') ? 'list-exact-all-pages' : 'list-all-pages', isDeepStrictEqual(pa, pb), `${first}: ${pa.length} vs ${pb.length} pages`);
      }
    }
    // Watch resume: the same events, byte for byte, in the same order.
    const from = head - 300;
    const count = (await fetch(floor, token, `${HISTORY}/feed?after=${from}`)).body.toString('utf8').trim().split('\n').length;
    const [wa, wb] = await Promise.all([
      watchLines(svctrail, token, `/api/v1/services?watch=true&resourceVersion=${from}`, count),
      watchLines(floor, token, `/api/v1/services?watch=true&resourceVersion=${from}`, count),
    ]);
    const same = wa.length === wb.length && wa.every((l, i) => l === wb[i]);
    const i = wa.findIndex((l, k) => l !== wb[k]);
    note('watch-resume', same, `${wa.length} vs ${wb.length} events; first difference at ${i}: ${wa[i]?.slice(0, 300)} vs ${wb[i]?.slice(0, 300)}`);

    // floor-full: the same status PUTs as svctrail, the same answers and the same rows.
    floorFull = await start(join(ROOT, 'bench', 'dist', 'floor-server.js'), source, 'floor-full', ['--variant', 'storage']);
    await checkWrites(svctrail, floorFull, token, head, lbServices, rng, note);
    // The Event writes on all three (the floor's copy has taken no write yet: positions are counted from each one's head).
    await checkEventWrites(
      [
        { label: 'svctrail', server: svctrail, caller: true },
        { label: 'floor-full', server: floorFull, caller: true },
        { label: 'floor', server: floor, caller: false },
      ],
      token,
      eventObjects,
      rng,
      note,
    );
  } finally {
    for (const s of [svctrail, floor, floorFull].filter((x): x is Server => x !== undefined)) {
      s.child.kill('SIGTERM');
      await new Promise((r) => s.child.once('exit', r));
      rmSync(s.dir, { recursive: true, force: true });
    }
  }
  let bad = 0;
  for (const [kind, t] of tally) {
    process.stdout.write(`${kind.padEnd(22)} ${String(t.same).padStart(4)} same ${String(t.differ).padStart(4)} differ${t.example ? `   e.g. ${t.example}` : ''}\n`);
    bad += t.differ;
  }
  process.exit(bad ? 1 : 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`check-floor: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
