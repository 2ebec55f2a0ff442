// Replay throughput, one mode per process (so each reports its own peak RSS):
//   --mode raw       the floor: read every event row in order, JSON.parse it and fold it into a
//                    plain object per stream (in place, no copies, no encoding, no writes)
//   --mode svctrail  svctrail's own rebuild (projections/projection-rebuild.ts): empty every
//                    projection and refill it from the log, in one transaction
//   --mode raw-import the floor of `svctrail import`: read an export (NDJSON, --file) line by
//                    line, parse each line, append it to a fresh events table (primary key only)
//                    of a new database (--out, WAL, synchronous=FULL, one transaction), fold the
//                    current objects in memory and write them to a services table
//   --mode raw-rebuild the floor of verify/replay's storage work: the raw fold, plus, per write,
//                    the rows svctrail's rebuild stores — the revision (the whole object
//                    encoded, and its RFC 6902 patch from the previous one, with svctrail's own
//                    jsonPatchText; both encoded as svctrail stores them), condition transitions, ingress intervals (each inserted once,
//                    closed or still open at the end), lifetimes, and the live services at the end
//                    — into --out, a fresh svctrail database whose secondary indexes are dropped
//                    first and built once after the last row (synchronous=OFF, one transaction)
//   --mode raw-import-rebuild the floor-full of `svctrail import`: the export's events appended to
//                    the events table of a fresh svctrail database (--out; its secondary indexes
//                    dropped first and built once after the last row, WAL, synchronous=FULL, one
//                    transaction), then raw-rebuild's storage work from those events into the same
//                    database; it also reports the file's bytes per event, every row svctrail's own
//                    database holds for the same log
//   --mode prefix    writes --out: a fresh svctrail database (the migrations) holding the first
//                    --limit events of --db, so a long log can be replayed in bounded time
// Prints one JSON line: { mode, events, writes?, ms, eventsPerSecond, peakRssBytes }.
//
// usage: node bench/dist/replay.js --db PATH --mode raw|svctrail
//        node bench/dist/replay.js --db PATH --mode prefix --out PATH --limit N
import Database from 'better-sqlite3';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { MIGRATIONS, real, ROOT } from './real';
import { eventData, packEventData, storeRevisionText } from './floor/stored-text';

type Obj = Record<string, any>;

function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}

/** svctrail's packed event data column, or NULL in the raw import's own table (which stores the text). */
const packedColumn = (db: Database.Database) => ((db.prepare(`SELECT name FROM pragma_table_info('events')`).pluck().all() as string[]).includes('packed_data') ? 'packed_data' : 'NULL');

function rawFold(path: string): { events: number; streams: number } {
  const db = new Database(path, { readonly: true });
  const rows = db
    .prepare(`SELECT stream_id, resource_version, type, data, ${packedColumn(db)} FROM events ORDER BY position`)
    .raw()
    .iterate() as IterableIterator<[string, number, string, string, Buffer | null]>;
  const live = new Map<string, Obj>();
  let events = 0;
  for (const [stream, rv, type, text, packed] of rows) {
    fold(live, stream, rv, type, JSON.parse(eventData(text, packed)));
    events++;
  }
  db.close();
  return { events, streams: live.size };
}

function rawRebuild(path: string, out: string): { events: number; streams: number } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the server's compiled dist/, loaded by path at run time
  const { jsonPatchText } = require(join(ROOT, 'dist', 'domain', 'json-patch-diff.js')) as typeof import('../src/domain/json-patch-diff');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the server's compiled dist/, loaded by path at run time
  const { transitionsBetween } = require(join(ROOT, 'dist', 'projections', 'condition-audit.projection.js')) as typeof import('../src/projections/condition-audit.projection');
  const target = real.database().openDatabase({ path: out, migrationsFolder: MIGRATIONS, synchronous: 'NORMAL', truncateWal: false });
  const w = target.sqlite;
  // Not live data until it is whole, as svctrail's rebuild scratch.
  w.pragma('synchronous = OFF');
  w.pragma('cache_size = -65536');
  const tables = ['services', 'service_revisions', 'service_lifetimes', 'condition_transitions', 'ingress_intervals', 'allocations'];
  const derived = w.prepare(`SELECT name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => '?').join(',')})`).all(...tables) as {
    name: string;
    sql: string;
  }[];
  for (const d of derived) w.exec(`DROP ${/^CREATE TRIGGER/i.test(d.sql) ? 'TRIGGER' : 'INDEX'} "${d.name}"`);
  const revision = w.prepare('INSERT INTO service_revisions (uid, resource_version, namespace, name, recorded_at, object, patch) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const lifetime = w.prepare('INSERT INTO service_lifetimes (uid, namespace, name, created_resource_version, deleted_resource_version) VALUES (?, ?, ?, ?, ?)');
  const transition = w.prepare(
    `INSERT INTO condition_transitions (resource_version, uid, namespace, name, condition_type, from_status, to_status, reason, message,
       observed_generation, last_transition_time, recorded_at, actor_user) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const interval = w.prepare(
    `INSERT INTO ingress_intervals (address, address_type, uid, namespace, name, from_resource_version, from_time, set_by, to_resource_version, to_time, cleared_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const service = w.prepare('INSERT INTO services (namespace, name, uid, resource_version, stream_version, object) VALUES (?, ?, ?, ?, ?, ?)');
  const source = new Database(path, { readonly: true });
  const rows = source
    .prepare(`SELECT stream_id, resource_version, stream_version, namespace, name, type, data, recorded_at, actor_user, ${packedColumn(source)} FROM events ORDER BY position`)
    .raw()
    .iterate() as IterableIterator<[string, number, number, string, string, string, string, string, string, Buffer | null]>;
  const live = new Map<string, Obj>();
  const lastJson = new Map<string, string>();
  const versions = new Map<string, number>();
  const born = new Map<string, [string, string, number]>();
  type Open = { from: number; time: string; by: string; type: string };
  const open = new Map<string, Map<string, Open>>();
  const addresses = (ingress: Obj[]) => {
    const out = new Map<string, string>();
    for (const e of ingress ?? []) {
      if (e.ip) out.set(e.ip, 'ip');
      if (e.hostname) out.set(e.hostname, 'hostname');
    }
    return out;
  };
  let events = 0;
  let pending: { uid: string; rv: number; ns: string; name: string; at: string } | undefined;
  const endWrite = () => {
    if (!pending) return;
    const o = live.get(pending.uid);
    if (o) {
      const json = JSON.stringify(o);
      revision.run(
        pending.uid,
        pending.rv,
        pending.ns,
        pending.name,
        pending.at,
        storeRevisionText(json, pending.rv),
        storeRevisionText(jsonPatchText(lastJson.get(pending.uid) ?? null, json), pending.rv),
      );
      lastJson.set(pending.uid, json);
    }
    pending = undefined;
  };
  w.exec('BEGIN');
  for (const [uid, rv, version, ns, name, type, text, at, user, packed] of rows) {
    if (pending && pending.rv !== rv) endWrite();
    const data = JSON.parse(eventData(text, packed)) as Obj;
    if (type === 'ServiceCreated') born.set(uid, [ns, name, rv]);
    if (type === 'ServiceDeleted') {
      const [bns, bname, brv] = born.get(uid)!;
      lifetime.run(uid, bns, bname, brv, rv);
      born.delete(uid);
      for (const [address, o] of open.get(uid) ?? []) interval.run(address, o.type, uid, ns, name, o.from, o.time, o.by, rv, at, user);
      open.delete(uid);
      lastJson.delete(uid);
    }
    if (type === 'LoadBalancerIngressChanged') {
      const before = addresses(data.previous);
      const after = addresses(data.ingress);
      const held = open.get(uid) ?? new Map<string, Open>();
      open.set(uid, held);
      for (const [address] of before) {
        const o = held.get(address);
        if (!after.has(address) && o) {
          interval.run(address, o.type, uid, ns, name, o.from, o.time, o.by, rv, at, user);
          held.delete(address);
        }
      }
      for (const [address, kind] of after) if (!before.has(address)) held.set(address, { from: rv, time: at, by: user, type: kind });
    }
    const changes =
      type === 'ServiceConditionChanged'
        ? [{ conditionType: data.condition.type, from: data.previous, to: data.condition }]
        : type === 'ServiceConditionRemoved'
          ? [{ conditionType: data.conditionType, from: data.previous, to: null }]
          : type === 'ServiceConditionsReplaced'
            ? transitionsBetween(data.previous, data.conditions)
            : [];
    for (const t of changes) {
      const current = (t.to ?? t.from) as Obj;
      transition.run(
        rv,
        uid,
        ns,
        name,
        t.conditionType,
        t.from?.status ?? null,
        t.to?.status ?? null,
        t.to ? t.to.reason : '',
        t.to ? t.to.message : '',
        current.observedGeneration ?? null,
        t.to?.lastTransitionTime ?? null,
        at,
        user,
      );
    }
    fold(live, uid, rv, type, data);
    versions.set(uid, version);
    pending = { uid, rv, ns, name, at };
    events++;
  }
  endWrite();
  for (const [uid, [ns, name, brv]] of born) lifetime.run(uid, ns, name, brv, null);
  for (const [uid, held] of open) {
    const o0 = live.get(uid);
    for (const [address, o] of held) interval.run(address, o.type, uid, o0?.metadata.namespace ?? '', o0?.metadata.name ?? '', o.from, o.time, o.by, null, null, null);
  }
  for (const [uid, o] of live) service.run(o.metadata.namespace, o.metadata.name, uid, Number(o.metadata.resourceVersion), versions.get(uid), JSON.stringify(o));
  for (const d of derived) w.exec(d.sql);
  w.exec(`INSERT INTO ingress_interval_spans (id, from_rv, to_rv) SELECT id, from_resource_version, to_resource_version FROM ingress_intervals WHERE to_resource_version IS NOT NULL`);
  w.exec('COMMIT');
  source.close();
  target.close();
  return { events, streams: live.size };
}

async function rawImportRebuild(file: string, out: string): Promise<{ events: number; streams: number; bytes: number }> {
  const handle = real.database().openDatabase({ path: out, migrationsFolder: MIGRATIONS, synchronous: 'FULL', truncateWal: false });
  const db = handle.sqlite;
  const indexes = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = 'events'`).all() as { name: string; sql: string }[];
  for (const i of indexes) db.exec(`DROP INDEX "${i.name}"`);
  // svctrail's table: the data packed as svctrail's import stores it.
  const insert = db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  // Its repeated texts by id, as svctrail's import stores them.
  const findText = db.prepare('SELECT id FROM repeated_texts WHERE text = ?').pluck();
  const addText = db.prepare('INSERT INTO repeated_texts (text) VALUES (?)');
  const textId = (text: string) => (findText.get(text) as number | undefined) ?? Number(addText.run(text).lastInsertRowid);
  let events = 0;
  db.exec('BEGIN IMMEDIATE');
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!text) continue;
    const e = JSON.parse(text);
    insert.run(
      e.position,
      e.resourceVersion,
      e.streamId,
      e.streamVersion,
      e.namespace,
      e.name,
      e.type,
      '',
      e.recordedAt,
      '',
      '',
      '',
      '',
      e.requestId,
      e.verb,
      e.subresource,
      packEventData(JSON.stringify(e.data)),
      textId(JSON.stringify(e.actorGroups)),
      textId(e.userAgent),
      textId(e.fieldManager),
      textId(e.actorUser),
    );
    events++;
  }
  for (const i of indexes) db.exec(i.sql);
  db.exec('COMMIT');
  handle.close();
  // The projections from the appended log, in the same file (a reader on the committed events).
  const { streams } = rawRebuild(out, out);
  return { events, streams, bytes: statSync(out).size };
}

async function rawImport(file: string, out: string): Promise<{ events: number; streams: number }> {
  const db = new Database(out);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY, resource_version INTEGER NOT NULL, stream_id TEXT NOT NULL,
    stream_version INTEGER NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
    recorded_at TEXT NOT NULL, actor_user TEXT NOT NULL, actor_groups TEXT NOT NULL, user_agent TEXT NOT NULL,
    field_manager TEXT NOT NULL, request_id TEXT NOT NULL, verb TEXT NOT NULL, subresource TEXT NOT NULL DEFAULT '')`);
  db.exec(`CREATE TABLE services (namespace TEXT NOT NULL, name TEXT NOT NULL, uid TEXT NOT NULL, resource_version INTEGER NOT NULL,
    stream_version INTEGER NOT NULL, object TEXT NOT NULL, PRIMARY KEY (namespace, name))`);
  const insert = db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const upsert = db.prepare('INSERT OR REPLACE INTO services VALUES (?, ?, ?, ?, ?, ?)');
  const live = new Map<string, Obj>();
  const versions = new Map<string, number>();
  let events = 0;
  db.exec('BEGIN IMMEDIATE');
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!text) continue;
    const e = JSON.parse(text);
    const data = JSON.stringify(e.data);
    insert.run(
      e.position,
      e.resourceVersion,
      e.streamId,
      e.streamVersion,
      e.namespace,
      e.name,
      e.type,
      data,
      e.recordedAt,
      e.actorUser,
      JSON.stringify(e.actorGroups),
      e.userAgent,
      e.fieldManager,
      e.requestId,
      e.verb,
      e.subresource,
    );
    fold(live, e.streamId, e.resourceVersion, e.type, e.data);
    versions.set(e.streamId, e.streamVersion);
    events++;
  }
  for (const [uid, o] of live) upsert.run(o.metadata.namespace, o.metadata.name, uid, Number(o.metadata.resourceVersion), versions.get(uid), JSON.stringify(o));
  db.exec('COMMIT');
  db.close();
  return { events, streams: live.size };
}

function fold(live: Map<string, Obj>, stream: string, rv: number, type: string, data: Obj): void {
  {
    let o = live.get(stream);
    switch (type) {
      case 'ServiceCreated':
        o = data.object;
        live.set(stream, o!);
        break;
      case 'ServiceSpecChanged':
        o!.spec = data.spec;
        break;
      case 'ServiceMetadataChanged':
        for (const k of ['generation', 'labels', 'annotations', 'ownerReferences', 'finalizers']) delete o!.metadata[k];
        Object.assign(o!.metadata, data.metadata);
        break;
      case 'LoadBalancerIngressChanged':
        o!.status.loadBalancer = data.ingress.length ? { ingress: data.ingress } : {};
        break;
      case 'ServiceConditionChanged': {
        const list: Obj[] = o!.status.conditions ?? (o!.status.conditions = []);
        const at = list.findIndex((c) => c.type === data.condition.type);
        if (at >= 0) list[at] = data.condition;
        else list.push(data.condition);
        break;
      }
      case 'ServiceConditionRemoved':
        o!.status.conditions = (o!.status.conditions ?? []).filter((c: Obj) => c.type !== data.conditionType);
        break;
      case 'ServiceConditionsReplaced':
        o!.status.conditions = data.conditions;
        break;
      case 'ServiceDeletionRequested':
        o!.metadata.deletionTimestamp = data.deletionTimestamp;
        break;
      case 'ServiceDeleted':
        live.delete(stream);
        o = undefined;
        break;
    }
    if (o) o.metadata.resourceVersion = String(rv);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { db: { type: 'string' }, mode: { type: 'string' }, out: { type: 'string' }, limit: { type: 'string' }, file: { type: 'string' } },
  });
  if (values.mode === 'raw-import') {
    if (!values.file || !values.out) throw new Error('usage: replay.js --mode raw-import --file EXPORT.ndjson --out PATH');
    const started = performance.now();
    const { events, streams } = await rawImport(values.file, values.out);
    const ms = performance.now() - started;
    process.stdout.write(`${JSON.stringify({ mode: 'raw-import', events, streams, ms, eventsPerSecond: events / (ms / 1000), peakRssBytes: peakRss() })}\n`);
    return;
  }
  if (values.mode === 'raw-import-rebuild') {
    if (!values.file || !values.out) throw new Error('usage: replay.js --mode raw-import-rebuild --file EXPORT.ndjson --out PATH');
    const started = performance.now();
    const { events, streams, bytes } = await rawImportRebuild(values.file, values.out);
    const ms = performance.now() - started;
    process.stdout.write(
      `${JSON.stringify({ mode: 'raw-import-rebuild', events, streams, ms, eventsPerSecond: events / (ms / 1000), peakRssBytes: peakRss(), bytes, bytesPerEvent: bytes / events })}\n`,
    );
    return;
  }
  if (values.mode === 'raw-rebuild') {
    if (!values.db || !values.out) throw new Error('usage: replay.js --mode raw-rebuild --db PATH --out PATH');
    const started = performance.now();
    const { events, streams } = rawRebuild(values.db, values.out);
    const ms = performance.now() - started;
    process.stdout.write(`${JSON.stringify({ mode: 'raw-rebuild', events, streams, ms, eventsPerSecond: events / (ms / 1000), peakRssBytes: peakRss() })}\n`);
    return;
  }
  if (!values.db || !['raw', 'svctrail', 'prefix'].includes(values.mode ?? '')) throw new Error('usage: replay.js --db PATH --mode raw|svctrail|prefix');
  if (values.mode === 'prefix') {
    const started = performance.now();
    const handle = real.database().openDatabase({ path: values.out!, migrationsFolder: MIGRATIONS, synchronous: 'NORMAL' });
    handle.sqlite.prepare('ATTACH DATABASE ? AS source').run(values.db);
    const copied = handle.sqlite.prepare('INSERT INTO events SELECT * FROM source.events WHERE position <= ? ORDER BY position').run(Number(values.limit));
    handle.sqlite.exec('DETACH DATABASE source');
    handle.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    handle.close();
    const ms = performance.now() - started;
    process.stdout.write(`${JSON.stringify({ mode: 'prefix', events: copied.changes, ms, eventsPerSecond: copied.changes / (ms / 1000), peakRssBytes: peakRss() })}\n`);
    return;
  }
  if (values.mode === 'raw') {
    const started = performance.now();
    const { events, streams } = rawFold(values.db);
    const ms = performance.now() - started;
    process.stdout.write(`${JSON.stringify({ mode: 'raw', events, streams, ms, eventsPerSecond: events / (ms / 1000), peakRssBytes: peakRss() })}\n`);
    return;
  }
  const handle = real.database().openDatabase({ path: values.db, migrationsFolder: MIGRATIONS, synchronous: 'FULL' });
  const projector = new (real.projector().Projector)(handle);
  const started = performance.now();
  const report = real.rebuild().rebuildProjections(handle, projector);
  const ms = performance.now() - started;
  handle.close();
  process.stdout.write(`${JSON.stringify({ mode: 'svctrail', events: report.events, writes: report.writes, ms, eventsPerSecond: report.events / (ms / 1000), peakRssBytes: peakRss() })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`replay: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
