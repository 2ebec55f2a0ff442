// Replay throughput, one mode per process (so each reports its own peak RSS):
//   --mode raw       the floor: read every event row in order, JSON.parse it and fold it into a
//                    plain object per stream (in place, no copies, no encoding, no writes)
//   --mode svctrail  svctrail's own rebuild (projections/projection-rebuild.ts): empty every
//                    projection and refill it from the log, in one transaction
//   --mode raw-import the floor of `svctrail import`: read an export (NDJSON, --file) line by
//                    line, parse each line, append it to a fresh events table (primary key only)
//                    of a new database (--out, WAL, synchronous=FULL, one transaction), fold the
//                    current objects in memory and write them to a services table
//   --mode prefix    writes --out: a fresh svctrail database (the migrations) holding the first
//                    --limit events of --db, so a long log can be replayed in bounded time
// Prints one JSON line: { mode, events, writes?, ms, eventsPerSecond, peakRssBytes }.
//
// usage: node bench/dist/replay.js --db PATH --mode raw|svctrail
//        node bench/dist/replay.js --db PATH --mode prefix --out PATH --limit N
import Database from 'better-sqlite3';
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { MIGRATIONS, real } from './real';

type Obj = Record<string, any>;

function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}

function rawFold(path: string): { events: number; streams: number } {
  const db = new Database(path, { readonly: true });
  const rows = db.prepare('SELECT stream_id, resource_version, type, data FROM events ORDER BY position').raw().iterate() as IterableIterator<
    [string, number, string, string]
  >;
  const live = new Map<string, Obj>();
  let events = 0;
  for (const [stream, rv, type, text] of rows) {
    fold(live, stream, rv, type, JSON.parse(text));
    events++;
  }
  db.close();
  return { events, streams: live.size };
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
    insert.run(e.position, e.resourceVersion, e.streamId, e.streamVersion, e.namespace, e.name, e.type, data, e.recordedAt, e.actorUser,
      JSON.stringify(e.actorGroups), e.userAgent, e.fieldManager, e.requestId, e.verb, e.subresource);
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
  process.stdout.write(
    `${JSON.stringify({ mode: 'svctrail', events: report.events, writes: report.writes, ms, eventsPerSecond: report.events / (ms / 1000), peakRssBytes: peakRss() })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`replay: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
