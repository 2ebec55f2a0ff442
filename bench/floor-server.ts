// The raw floor: the least a server can do for the same requests with the same durability, so
// that svctrail's figures can be read as a ratio to what this machine allows.
//
//   node:https on 127.0.0.1 with the data directory's serving certificate (client certificates
//   requested, not required — as svctrail), bearer tokens from tokens.csv, better-sqlite3 on the
//   same svctrail.db (the migrations' schema, read and written as svctrail left it), WAL +
//   synchronous=FULL.
//
// Writes (PUT .../services/{name}/status, JSON or protobuf body) are group-committed: a request
// only enqueues its write; the queue is flushed by setImmediate, i.e. after the event loop has
// read every request that arrived meanwhile — in particular all those that arrived while the
// previous commit (and its fsync) blocked the loop. One IMMEDIATE transaction and one fsync per
// batch, one savepoint per write (a failing write rolls back alone), answers sent after COMMIT.
// Each write appends an event row (LoadBalancerIngressChanged / ServiceConditionsReplaced with
// the previous value, so the log stays replayable) and upserts the current-object row; it
// maintains no other projection. The WAL is checkpointed by a worker thread on its own
// connection (wal_autocheckpoint=0 here), so checkpoints never stall the event loop, as strictly
// as svctrail's (every 100 ms and at once again while behind; journal_size_limit 64 MB).
//
// Reads are one indexed statement per answer whose stored JSON is sent as is (what each one
// computes beyond that is said where it is, and in bench/README.md):
//   GET / LIST (limit + continue) of the current objects; GET / LIST as of a resourceVersion
//   (resourceVersion=R&resourceVersionMatch=Exact) or a time (asOf=T) from service_revisions, by
//   a skip-scan over the names of the namespace (cost independent of history length); watch
//   (live: one pre-encoded line or frame per write, written to every watcher; from an old
//   resourceVersion: the revisions of the writes after it, through the events' primary key);
//   protobuf answers encoded from the stored JSON with the server's own codec; the history
//   resources under /apis/history.svctrail.io/v1alpha1.
//
// Variant `--variant storage` ("floor-full"): the same raw HTTP stack and the same reads, but
// every status write does svctrail's storage work, with svctrail's statements, in the same
// group-committed transaction: the event rows (svctrail's event types, keyed condition events
// included, with the caller's groups, user agent, field manager and a request id), every index
// of svctrail's schema kept (no --drop-unused-indexes), the services row (UPDATE, uid left
// alone), the append-only service_revisions row (the whole new object), one
// condition_transitions row per condition transition, the ingress interval close (UPDATE, the
// R-tree row by svctrail's trigger) and open (INSERT) rows. No framework, no decider, no
// managedFields computation: what is left between svctrail and floor-full is CPU, not storage.
//
// Event writes (client-go's recorder: POST .../namespaces/{ns}/events, strategic-merge PATCH
// .../events/{name}) go through the same group commit, each in its own savepoint: the fact row,
// the live kube_events row and the kube_event_occurrences row, with svctrail's statements
// (floor/kube-events.ts says what each floor does and leaves out).
//
// usage: node bench/dist/floor-server.js --data-dir DIR [--port 0] [--host 127.0.0.1] [--variant floor|storage]
//        prints "floor serving https://127.0.0.1:PORT"
//        node bench/dist/floor-server.js --data-dir DIR --explain   prints every statement's query plan
//        --drop-unused-indexes (the runner passes it, on the floor's own copy): drops the indexes of
//        events and services that no floor statement reads, so floor writes maintain only those
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker, isMainThread } from 'node:worker_threads';
import { real } from './real';
import { floorHistory } from './floor/history';
import { LazyStatement } from './floor/lazy-statement';
import { packEventData, storedText, storeRevisionText } from './floor/stored-text';
import { resolvingTexts, textIds } from './floor/repeated-texts';
import { checkpointer, WAL_SIZE_LIMIT } from './floor/checkpointer';
import { type EventWrite, floorKubeEvents } from './floor/kube-events';

interface PendingWrite {
  namespace: string;
  name: string;
  body: { status?: { loadBalancer?: { ingress?: unknown[] }; conditions?: unknown[] } };
  /** An Event write (floor/kube-events.ts) instead of a status PUT: answered with its own status and JSON. */
  event?: EventWrite;
  user: string;
  /** floor-full records the caller as svctrail does (groups, user agent, field manager). */
  groups: string;
  userAgent: string;
  fieldManager: string;
  res: ServerResponse;
  /** Answer in protobuf (Accept asked for it first). */
  protobuf: boolean;
  result?: string;
  object?: unknown;
  status?: number;
  /** True when the write appended events (watchers hear of it). */
  changed?: boolean;
}

/** Writes per page of a watch resume. */
const RESUME_PAGE = 100;
const HISTORY_ROOT = '/apis/history.svctrail.io/v1alpha1/';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const NOT_FOUND = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","reason":"NotFound","code":404}';
/** metav1.Time has second precision. */
/** The kube-apiserver continue token shape: base64 of {v, rv, start}. */
const encodeContinue = (rv: number, start: string) => Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${start}\u0000` })).toString('base64url');
function decodeContinue(token: string): { rv: number; after: string } | undefined {
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { rv: number; start: string };
    // eslint-disable-next-line no-control-regex -- the continue token's key ends in NUL, as svctrail's does
    return { rv: t.rv, after: t.start.replace(/\u0000$/, '') };
  } catch {
    return undefined;
  }
}

function migrate(db: Database.Database, migrationsFolder: string): void {
  // Only for a fresh file: the same SQL drizzle-kit generated for svctrail.
  db.exec('CREATE TABLE IF NOT EXISTS bench_floor_migrations (name TEXT PRIMARY KEY)');
  const done = new Set(db.prepare('SELECT name FROM bench_floor_migrations').pluck().all() as string[]);
  const hasEvents = db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'events'`).pluck().get() as number;
  if (hasEvents && done.size === 0) return; // a database svctrail created
  for (const file of readdirSync(migrationsFolder)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    if (done.has(file)) continue;
    for (const statement of readFileSync(join(migrationsFolder, file), 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) db.exec(statement);
    }
    db.prepare('INSERT INTO bench_floor_migrations (name) VALUES (?)').run(file);
  }
}

/**
 * The indexes of svctrail's tables that no floor statement reads (see --explain). On its own copy
 * of the database the floor drops them, so that its writes maintain only what its reads use: the
 * least work for the same answers. Triggers stay (the events table stays append-only).
 */
const FLOOR_INDEXES = new Set(['events_name_position']);

function dropUnusedIndexes(db: Database.Database): void {
  // Only the tables a floor write touches: the others cost nothing at write time. The Events'
  // tables are read by their primary keys only (the live row by namespace and name).
  const indexes = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('events', 'services', 'kube_events', 'kube_event_occurrences') AND sql IS NOT NULL`)
    .pluck()
    .all() as string[];
  for (const name of indexes) if (!FLOOR_INDEXES.has(name)) db.exec(`DROP INDEX "${name}"`);
}

/** floor-full's write statements: svctrail's own (src/store/event-store.ts, src/projections/*.ts). */
function storageWrites(prepare: (sql: string) => LazyStatement) {
  return {
    insertEvent: prepare(
      `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data,
         recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, subresource, packed_data,
         actor_user_id, actor_groups_id, user_agent_id, field_manager_id)
       VALUES (@position, @resourceVersion, @streamId, @streamVersion, @namespace, @name, @type, '',
         @recordedAt, '', '', '', '', @requestId, @verb, @subresource, @packedData, @actorUserId, @actorGroupsId, @userAgentId, @fieldManagerId)`,
    ),
    textId: textIds(prepare),
    updateService: prepare(
      `UPDATE services SET resource_version = @resourceVersion, stream_version = @streamVersion, object = @object
       WHERE namespace = @namespace AND name = @name`,
    ),
    // With its RFC 6902 patch from the previous revision, as svctrail stores it (its jsonPatchText),
    // both encoded as svctrail stores them (floor/stored-text.ts).
    insertRevision: prepare(
      `INSERT INTO service_revisions (uid, resource_version, namespace, name, recorded_at, object, patch)
       VALUES (@uid, @resourceVersion, @namespace, @name, @recordedAt, @object, @patch)`,
    ),
    insertTransition: prepare(
      `INSERT INTO condition_transitions (resource_version, uid, namespace, name, condition_type, from_status, to_status,
         reason, message, observed_generation, last_transition_time, recorded_at, actor_user)
       VALUES (@resourceVersion, @uid, @namespace, @name, @conditionType, @fromStatus, @toStatus,
         @reason, @message, @observedGeneration, @lastTransitionTime, @recordedAt, @actorUser)`,
    ),
    openInterval: prepare(
      `INSERT INTO ingress_intervals (address, address_type, uid, namespace, name, from_resource_version, from_time, set_by)
       VALUES (@address, @addressType, @uid, @namespace, @name, @resourceVersion, @recordedAt, @user)`,
    ),
    closeInterval: prepare(
      `UPDATE ingress_intervals SET to_resource_version = @resourceVersion, to_time = @recordedAt, cleared_by = @user
       WHERE uid = @uid AND +address = @address AND +address_type = @addressType AND to_resource_version IS NULL`,
    ),
    diffConditions: real.statusDiff().diffConditions,
    conditionTransitions: real.conditionAudit().transitionsBetween,
    ingressAddresses: real.ingressAddresses().ingressAddresses,
    jsonPatchText: real.jsonPatchDiff().jsonPatchText,
  };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      synchronous: { type: 'string', default: 'FULL' },
      explain: { type: 'boolean', default: false },
      'drop-unused-indexes': { type: 'boolean', default: false },
      /** floor (least work) or storage (floor-full: svctrail's storage work per write). */
      variant: { type: 'string', default: 'floor' },
      /** node (node:https, the floor's own) or nest (svctrail's fixed stack around the same handler: bench/nest-stack.ts). */
      stack: { type: 'string', default: 'node' },
    },
  });
  if (values.stack !== 'node' && values.stack !== 'nest') throw new Error(`--stack node|nest, not ${values.stack}`);
  if (values.variant !== 'floor' && values.variant !== 'storage') throw new Error(`--variant floor|storage, not ${values.variant}`);
  const full = values.variant === 'storage';
  // floor-full keeps every index svctrail keeps: its writes maintain all of them.
  if (full && values['drop-unused-indexes']) throw new Error('--variant storage keeps every index: do not pass --drop-unused-indexes');
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error('--data-dir is required');
  const path = join(dataDir, 'svctrail.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${values.synchronous}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('wal_autocheckpoint = 0');
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  db.pragma('temp_store = MEMORY'); // as svctrail: no temp file per write for the savepoint's journal
  migrate(db, join(__dirname, '..', '..', 'migrations'));
  if (values['drop-unused-indexes']) dropUnusedIndexes(db);
  const checkpoints = new Worker(__filename, { workerData: { path } });
  checkpoints.unref();

  const tokens = new Map<string, string>();
  /** The JSON of each user's groups as svctrail records them (tokens.csv's, then system:authenticated). */
  const groupsOf = new Map<string, string>();
  for (const line of readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split('\n')) {
    const [token, user] = line.split(',');
    if (!token || !user) continue;
    tokens.set(token.trim(), user.trim());
    const quoted = /"([^"]*)"\s*$/.exec(line)?.[1];
    const groups = (quoted ?? '')
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean);
    if (!groups.includes('system:authenticated')) groups.push('system:authenticated');
    groupsOf.set(user.trim(), JSON.stringify(groups));
  }

  // Every statement the floor runs, for --explain (its query plans, so the floor's own cost is on view).
  const prepared: string[] = [];
  // Prepared on first use: svctrail's schema moves, and a statement it breaks then fails only the
  // requests that need it (answered 500, the SQLite message on stderr), not the whole floor.
  const prepare = (sql: string) => (prepared.push(sql), new LazyStatement(db, sql));
  const pb = real.protobufObject();
  const envelope = real.protobufEnvelope();
  const { summarizeConditions } = real.conditionSummary();
  // svctrail's: a Service write's field_manager column (floor-full), an Event's managedFields entry (both floors).
  const { managerName } = real.fieldManager();

  const current = prepare('SELECT uid, stream_version AS streamVersion, object FROM services WHERE namespace = ? AND name = ?');
  const currentObject = prepare('SELECT object FROM services WHERE namespace = ? AND name = ?').pluck();
  const listNamespace = prepare('SELECT name, object FROM services WHERE namespace = ? AND name > ? ORDER BY namespace, name LIMIT ?');
  // A time → the resourceVersion of the last write recorded at or before it. The log has no
  // index by time (svctrail keeps none: each would cost every write a page); recorded_at never
  // decreases along the log, so this is a binary search of the primary key, as svctrail does.
  const recordedAt = prepare('SELECT recorded_at FROM events WHERE position = ?').pluck();
  const firstPosition = prepare('SELECT coalesce(min(position), 1) FROM events').pluck();
  const rvAt = (time: string): number => {
    let low = firstPosition.get() as number;
    let high = head;
    const atOrBefore = (position: number) => ((recordedAt.get(position) as string | undefined) ?? '\uffff') <= time;
    if (high === 0 || !atOrBefore(low)) return 0;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (atOrBefore(mid)) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  const resolveRv = (point: { rv: number | null; time: string | null }) => point.rv ?? rvAt(point.time!);
  // GET / LIST at R: the incarnations alive at R (service_lifetimes, one row per Service ever
  // created, whatever its number of writes) and for each its newest revision at or before R
  // (a primary-key seek).
  const REVISION_AT = `(SELECT r.object FROM service_revisions r WHERE r.uid = l.uid AND r.resource_version <= @rv
    ORDER BY r.resource_version DESC LIMIT 1)`;
  const ALIVE_AT = `l.created_resource_version <= @rv AND (l.deleted_resource_version IS NULL OR l.deleted_resource_version > @rv)`;
  const getAt = prepare(
    `SELECT ${REVISION_AT} FROM service_lifetimes l WHERE l.namespace = @namespace AND l.name = @name AND ${ALIVE_AT}
     ORDER BY l.namespace, l.name, l.created_resource_version DESC LIMIT 1`,
  ).pluck();
  const listAt = prepare(
    `SELECT l.name, ${REVISION_AT} AS object FROM service_lifetimes l WHERE l.namespace = @namespace AND l.name > @after AND ${ALIVE_AT}
     ORDER BY l.namespace, l.name LIMIT @limit`,
  );
  // Watch from an old resourceVersion: each write after it (its last event: position = rv) and
  // the newest revision of its Service at that rv (for a deletion: the last one it had).
  const writesAfter = prepare(
    `SELECT e.position, e.type, (SELECT object FROM service_revisions WHERE uid = e.stream_id AND resource_version <= e.resource_version
       ORDER BY resource_version DESC LIMIT 1) AS object
     FROM events e WHERE e.position > ? AND e.position = e.resource_version ORDER BY e.position LIMIT ${RESUME_PAGE}`,
  );
  const insertEvent = prepare(
    `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data,
       recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, subresource)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', 'floor', 'floor', ?, 'update', 'status')`,
  );
  const upsert = prepare(
    `INSERT INTO services (namespace, name, uid, resource_version, stream_version, object) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (namespace, name) DO UPDATE SET resource_version = excluded.resource_version,
       stream_version = excluded.stream_version, object = excluded.object`,
  );
  const storageStatements = full ? storageWrites(prepare) : undefined;
  // Each row carries its write's stored patch (svctrail stores one per revision; a primary-key
  // lookup): read on the write's last event only, where the group is assembled.
  const EVENT_COLUMNS = `position, resource_version AS rv, stream_id AS uid, namespace, name, type, data, packed_data AS packed, recorded_at AS recordedAt,
    actor_user AS user, actor_user_id AS userId, actor_groups AS groups, actor_groups_id AS groupsId, user_agent AS userAgent, user_agent_id AS userAgentId, field_manager AS fieldManager,
    field_manager_id AS fieldManagerId, request_id AS requestId, verb, subresource,
    CASE WHEN position = resource_version THEN (SELECT r.patch FROM service_revisions r WHERE r.uid = events.stream_id AND r.resource_version = events.resource_version) END AS patch`;
  const changesOf = resolvingTexts(prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE namespace = ? AND name = ? AND position > ? ORDER BY namespace, name, position`), prepare);
  const feedAfter = resolvingTexts(prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? AND position <= ? ORDER BY position`), prepare);
  const transitionsOf = resolvingTexts(
    prepare(
      `SELECT t.id, t.resource_version AS rv, t.uid, t.namespace, t.name, t.condition_type AS conditionType, t.from_status AS fromStatus,
       t.to_status AS toStatus, t.reason, t.message, t.observed_generation AS observedGeneration, t.last_transition_time AS lastTransitionTime,
       t.recorded_at AS recordedAt, t.actor_user AS user, NULL AS userId, e.actor_groups AS groups, e.actor_groups_id AS groupsId, e.user_agent AS userAgent, e.user_agent_id AS userAgentId,
       e.field_manager AS fieldManager, e.field_manager_id AS fieldManagerId,
       e.request_id AS requestId
     FROM condition_transitions t JOIN events e ON e.position = t.resource_version
     WHERE t.namespace = ? AND t.name = ? ORDER BY t.namespace, t.name, t.resource_version LIMIT ?`,
    ),
    prepare,
  );
  const summaryRows = prepare(
    `SELECT uid, condition_type AS conditionType, from_status AS fromStatus, to_status AS toStatus, recorded_at AS recordedAt
     FROM condition_transitions WHERE namespace = ? AND name = ? ORDER BY namespace, name, resource_version`,
  );
  const lifetime = prepare(
    `SELECT (SELECT recorded_at FROM events WHERE position = l.created_resource_version) AS createdAt,
            (SELECT recorded_at FROM events WHERE position = l.deleted_resource_version) AS deletedAt
     FROM service_lifetimes l WHERE l.uid = @uid`,
  );
  const INTERVAL_COLUMNS = `id, address, address_type AS addressType, uid, namespace, name, from_resource_version AS fromRv, from_time AS fromTime,
    set_by AS setBy, to_resource_version AS toRv, to_time AS toTime, cleared_by AS clearedBy`;
  const intervalsOf = prepare(
    `SELECT ${INTERVAL_COLUMNS} FROM ingress_intervals WHERE namespace = ? AND name = ?
     ORDER BY namespace, name, from_resource_version, id LIMIT ?`,
  );
  // Owners of an address over [fromRv, toRv] (at T: fromRv = toRv = R): holder by holder (a
  // skip-scan over the uids of the address), the newest interval that began before fromRv if it
  // reaches into the window, then those that began inside it. A holder's intervals of one
  // address never overlap, so the cost follows the holders and the answer, not how many times
  // the address was assigned.
  const ownersOf = prepare(
    `WITH RECURSIVE holders(uid) AS (
       SELECT (SELECT uid FROM ingress_intervals WHERE address = @address ORDER BY address, uid LIMIT 1)
       UNION ALL
       SELECT (SELECT uid FROM ingress_intervals WHERE address = @address AND uid > holders.uid ORDER BY address, uid LIMIT 1)
         FROM holders WHERE holders.uid IS NOT NULL)
     SELECT ${INTERVAL_COLUMNS} FROM (
       SELECT i.* FROM holders JOIN ingress_intervals i
         ON i.id = (SELECT id FROM ingress_intervals WHERE address = @address AND uid = holders.uid AND from_resource_version < @fromRv
                    ORDER BY address, uid, from_resource_version DESC LIMIT 1)
       WHERE holders.uid IS NOT NULL AND (i.to_resource_version IS NULL OR i.to_resource_version > @fromRv)
       UNION ALL
       SELECT i.* FROM holders JOIN ingress_intervals i
         ON i.address = @address AND i.uid = holders.uid AND i.from_resource_version >= @fromRv AND i.from_resource_version <= @toRv
       WHERE holders.uid IS NOT NULL)
     ORDER BY from_resource_version, id LIMIT @limit`,
  );
  // Conflicts with either holder in the namespace (the later-assigned one, or the earlier one):
  // each side found by its namespace index, the other holder by the address index among the
  // intervals open when the later one began; ordered by (later id, earlier id).
  const pair = `${INTERVAL_COLUMNS.replace(/(^|,\s*)(\w+)( AS (\w+))?/g, (_m, sep, col, _as, alias) => `${sep}a.${col} AS a_${alias ?? col}`)},
    ${INTERVAL_COLUMNS.replace(/(^|,\s*)(\w+)( AS (\w+))?/g, (_m, sep, col, _as, alias) => `${sep}b.${col} AS b_${alias ?? col}`)}`;
  // The other holder through two uid ranges of the address index, either side of the driver's
  // own uid (a multi-index OR), so a Service that flapped an address is never read against itself.
  const overlap = `((a.address = b.address AND a.uid < b.uid) OR (a.address = b.address AND a.uid > b.uid))
    AND a.address_type = b.address_type AND a.id < b.id
    AND a.from_resource_version <= b.from_resource_version AND (a.to_resource_version IS NULL OR a.to_resource_version > b.from_resource_version)`;
  const conflictsIn = prepare(
    `SELECT * FROM (SELECT ${pair} FROM ingress_intervals b
                      JOIN ingress_intervals a ON ${overlap}
                      WHERE b.namespace = @namespace ORDER BY b.id, a.id LIMIT @limit)
     UNION
     SELECT * FROM (SELECT ${pair} FROM ingress_intervals a
                      JOIN ingress_intervals b ON ${overlap}
                      WHERE a.namespace = @namespace ORDER BY b.id, a.id LIMIT @limit)
     ORDER BY b_id, a_id LIMIT @limit`,
  );
  let head = prepare('SELECT coalesce(max(position), 0) FROM events').pluck().get() as number;
  // floor-full: the time of the newest log row (a write is never recorded before it).
  let lastRecordedAt = full ? ((recordedAt.get(head) as string | undefined) ?? '') : '';
  const kubeEvents = floorKubeEvents({
    prepare,
    full,
    head: () => head,
    // floor-full: time never goes back along the log (svctrail's recordingTime); the floor: the clock.
    recordingTime: () => {
      const clock = new Date().toISOString();
      return full && clock < lastRecordedAt ? lastRecordedAt : clock;
    },
    appended: (rv, recordedAt) => {
      head = rv;
      if (full) lastRecordedAt = recordedAt;
    },
  });

  if (values.explain) {
    for (const sql of prepared) {
      const named = [...new Set(sql.match(/@\w+/g) ?? [])].map((n) => n.slice(1));
      const positional = (sql.match(/\?/g) ?? []).length;
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
      const rows = (named.length ? plan.all(Object.fromEntries(named.map((n) => [n, null]))) : plan.all(...Array(positional).fill(null))) as { detail: string }[];
      process.stdout.write(`${sql.replace(/\s+/g, ' ').slice(0, 160)}…\n${rows.map((r) => `    ${r.detail}`).join('\n')}\n\n`);
    }
    db.close();
    process.exit(0);
  }

  interface Watcher {
    res: ServerResponse;
    protobuf: boolean;
  }
  const watchers = new Set<Watcher>();
  let queue: PendingWrite[] = [];
  let scheduled = false;

  const applyOne = db.transaction((w: PendingWrite) => {
    if (w.event) {
      const outcome = kubeEvents.write(w.event);
      w.status = outcome.status;
      w.result = outcome.json;
      return;
    }
    const row = current.get(w.namespace, w.name) as { uid: string; streamVersion: number; object: string } | undefined;
    if (!row) {
      w.status = 404;
      w.result = NOT_FOUND;
      return;
    }
    const object = JSON.parse(row.object);
    const next = w.body.status ?? {};
    const ingress = next.loadBalancer?.ingress ?? [];
    const previous = object.status?.loadBalancer?.ingress ?? [];
    const conditions = next.conditions ?? [];
    const previousConditions = object.status?.conditions ?? [];
    const events: [string, string][] = [];
    if (JSON.stringify(ingress) !== JSON.stringify(previous)) {
      events.push(['LoadBalancerIngressChanged', JSON.stringify({ ingress, previous })]);
    }
    if (JSON.stringify(conditions) !== JSON.stringify(previousConditions)) {
      events.push(['ServiceConditionsReplaced', JSON.stringify({ conditions, previous: previousConditions })]);
    }
    if (events.length === 0) {
      w.status = 200;
      w.result = row.object;
      w.object = object;
      return;
    }
    if (storageStatements) return storageWrite(w, row, object, ingress, previous, conditions, previousConditions);
    const rv = head + events.length;
    const now = new Date().toISOString();
    events.forEach(([type, data], i) => {
      insertEvent.run(head + i + 1, rv, row.uid, row.streamVersion + i + 1, w.namespace, w.name, type, data, now, w.user, `floor-${head + i + 1}`);
    });
    head = rv;
    object.status = ingress.length ? { loadBalancer: { ingress } } : { loadBalancer: {} };
    if (conditions.length) object.status.conditions = conditions;
    object.metadata.resourceVersion = String(rv);
    const json = JSON.stringify(object);
    upsert.run(w.namespace, w.name, row.uid, rv, row.streamVersion + events.length, json);
    w.status = 200;
    w.result = json;
    w.object = object;
    w.changed = true;
  });
  /**
   * floor-full: svctrail's rows for one status write (see the header), with its statements.
   * The events are svctrail's (its pure condition diff: keyed events, or the whole list when
   * keys are ambiguous), the projections' rows follow svctrail's projections one for one.
   */
  const storageWrite = (
    w: PendingWrite,
    row: { uid: string; streamVersion: number; object: string },
    object: any,
    ingress: unknown[],
    previous: unknown[],
    conditions: unknown[],
    previousConditions: unknown[],
  ) => {
    const st = storageStatements!;
    const events: { type: string; data: any }[] = [];
    if (JSON.stringify(ingress) !== JSON.stringify(previous)) events.push({ type: 'LoadBalancerIngressChanged', data: { ingress, previous } });
    if (JSON.stringify(conditions) !== JSON.stringify(previousConditions)) events.push(...st.diffConditions(previousConditions as never, conditions as never));
    const rv = head + events.length;
    // Time never goes back along the log (svctrail's recordingTime).
    const clock = new Date().toISOString();
    const now = clock < lastRecordedAt ? lastRecordedAt : clock;
    const requestId = randomUUID();
    const texts = { actorUserId: st.textId(w.user), actorGroupsId: st.textId(w.groups), userAgentId: st.textId(w.userAgent), fieldManagerId: st.textId(w.fieldManager) };
    events.forEach((e, i) => {
      st.insertEvent.run({
        position: head + i + 1,
        resourceVersion: rv,
        streamId: row.uid,
        streamVersion: row.streamVersion + i + 1,
        namespace: w.namespace,
        name: w.name,
        type: e.type,
        packedData: packEventData(JSON.stringify(e.data)),
        recordedAt: now,
        ...texts,
        requestId,
        verb: 'update',
        subresource: 'status',
      });
    });
    head = rv;
    lastRecordedAt = now;
    object.status = ingress.length ? { loadBalancer: { ingress } } : { loadBalancer: {} };
    if (conditions.length) object.status.conditions = conditions;
    object.metadata.resourceVersion = String(rv);
    const json = JSON.stringify(object);
    const at = { uid: row.uid, namespace: w.namespace, name: w.name, resourceVersion: rv };
    st.updateService.run({ namespace: w.namespace, name: w.name, resourceVersion: rv, streamVersion: row.streamVersion + events.length, object: json });
    st.insertRevision.run({ ...at, recordedAt: now, object: storeRevisionText(json, rv), patch: storeRevisionText(st.jsonPatchText(row.object, json), rv) });
    for (const { type, data } of events) {
      const transitions =
        type === 'ServiceConditionChanged'
          ? [{ conditionType: data.condition.type, from: data.previous, to: data.condition }]
          : type === 'ServiceConditionRemoved'
            ? [{ conditionType: data.conditionType, from: data.previous, to: null }]
            : type === 'ServiceConditionsReplaced'
              ? st.conditionTransitions(data.previous, data.conditions)
              : [];
      for (const t of transitions) {
        const current = t.to ?? t.from!;
        st.insertTransition.run({
          ...at,
          conditionType: t.conditionType,
          fromStatus: t.from?.status ?? null,
          toStatus: t.to?.status ?? null,
          reason: t.to ? t.to.reason : '',
          message: t.to ? t.to.message : '',
          observedGeneration: current.observedGeneration ?? null,
          lastTransitionTime: t.to?.lastTransitionTime ?? null,
          recordedAt: now,
          actorUser: w.user,
        });
      }
      if (type === 'LoadBalancerIngressChanged') {
        const base = { ...at, recordedAt: now, user: w.user };
        const key = (a: { address: string; addressType: string }) => `${a.addressType}:${a.address}`;
        const before = st.ingressAddresses(data.previous);
        const after = st.ingressAddresses(data.ingress);
        const beforeKeys = new Set(before.map(key));
        const afterKeys = new Set(after.map(key));
        for (const a of before) if (!afterKeys.has(key(a))) st.closeInterval.run({ ...base, ...a });
        for (const a of after) if (!beforeKeys.has(key(a))) st.openInterval.run({ ...base, ...a });
      }
    }
    w.status = 200;
    w.result = json;
    w.object = object;
    w.changed = true;
  };
  const applyBatch = db.transaction((batch: PendingWrite[]) => {
    for (const w of batch) {
      try {
        applyOne(w); // nested: a savepoint per write
      } catch (error) {
        w.status = 500;
        w.changed = false;
        w.result = JSON.stringify({ kind: 'Status', status: 'Failure', message: String(error), code: 500 });
      }
    }
  });

  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    const startHead = head;
    try {
      applyBatch.immediate(batch);
    } catch (error) {
      head = startHead;
      for (const w of batch) {
        w.changed = false;
        w.status = 500;
        w.result = JSON.stringify({ kind: 'Status', status: 'Failure', message: String(error), code: 500 });
      }
    }
    for (const w of batch) {
      if (w.protobuf && w.status === 200) sendProtobuf(w.res, 200, pb.encodeKubeObject('Service', w.object as object));
      else send(w.res, w.status ?? 500, w.result ?? '');
      if (w.changed && watchers.size) {
        // One encoding per write and per format, shared by every watcher.
        let line: string | undefined;
        let frame: Uint8Array | undefined;
        for (const watcher of watchers) {
          if (watcher.protobuf) watcher.res.write((frame ??= envelope.encodeWatchFrame('MODIFIED', pb.encodeKubeObject('Service', w.object as object))));
          else watcher.res.write((line ??= `{"type":"MODIFIED","object":${w.result}}\n`));
        }
      }
    }
  };

  const send = (res: ServerResponse, status: number, body: string, contentType = 'application/json') => {
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const sendProtobuf = (res: ServerResponse, status: number, body: Uint8Array) => {
    res.writeHead(status, { 'content-type': PROTOBUF, 'content-length': body.length });
    res.end(body);
  };
  /** The stored JSON as is, or (Accept: protobuf) encoded from it with the server's codec. */
  const sendObject = (res: ServerResponse, protobuf: boolean, json: string) => (protobuf ? sendProtobuf(res, 200, pb.encodeKubeObject('Service', JSON.parse(json))) : send(res, 200, json));
  /** A list item is the stored object without kind/apiVersion (as kube-apiserver lists): a slice. */
  const ITEM_PREFIX = '{"kind":"Service","apiVersion":"v1",';
  const asItem = (json: string) => (json.startsWith(ITEM_PREFIX) ? `{${json.slice(ITEM_PREFIX.length)}` : json);
  const sendList = (res: ServerResponse, protobuf: boolean, rv: number, items: string[], next?: string) => {
    const meta = next === undefined ? `{"resourceVersion":"${rv}"}` : `{"resourceVersion":"${rv}","continue":"${next}"}`;
    const json = `{"kind":"ServiceList","apiVersion":"v1","metadata":${meta},"items":[${items.join(',')}]}`;
    if (protobuf) sendProtobuf(res, 200, pb.encodeKubeObject('ServiceList', JSON.parse(json)));
    else send(res, 200, json);
  };

  /** A point in time from the query: rv (Exact), time (asOf), or undefined (now). */
  const pointOf = (query: URLSearchParams | undefined): { rv: number | null; time: string | null } | undefined => {
    if (query?.get('resourceVersionMatch') === 'Exact') return { rv: Number(query.get('resourceVersion')), time: null };
    const asOf = query?.get('asOf');
    if (asOf) return { rv: null, time: new Date(asOf).toISOString() };
    return undefined;
  };

  const history = floorHistory({
    statements: { changesOf, conflictsIn, feedAfter, intervalsOf, lifetime, ownersOf, summaryRows, transitionsOf },
    head: () => head,
    rvAt,
    send,
    summarizeConditions,
  });
  const watch = (res: ServerResponse, protobuf: boolean, query: URLSearchParams | undefined) => {
    res.writeHead(200, { 'content-type': protobuf ? `${PROTOBUF};stream=watch` : 'application/json', 'transfer-encoding': 'chunked' });
    const from = Number(query?.get('resourceVersion') ?? '0');
    const watcher = { res, protobuf };
    let closed = false;
    res.on('close', () => {
      closed = true;
      watchers.delete(watcher);
    });
    if (!(from > 0 && from < head)) {
      res.flushHeaders();
      watchers.add(watcher);
      return;
    }
    // Resume: the writes after `from`, a page per turn of the event loop (so the first page
    // leaves at once), then live from the same turn that read the last page (no write falls in
    // between: writes commit on this thread).
    let position = from;
    const page = () => {
      if (closed) return;
      const rows = writesAfter.all(position) as { position: number; type: string; object: string | Buffer }[];
      const chunk: Uint8Array[] = [];
      for (const row of rows) {
        const type = row.type === 'ServiceCreated' ? 'ADDED' : row.type === 'ServiceDeleted' ? 'DELETED' : 'MODIFIED';
        const object = storedText(row.object);
        chunk.push(protobuf ? envelope.encodeWatchFrame(type, pb.encodeKubeObject('Service', JSON.parse(object))) : Buffer.from(`{"type":"${type}","object":${object}}\n`));
        position = row.position;
      }
      if (chunk.length) res.write(Buffer.concat(chunk));
      if (rows.length < RESUME_PAGE) watchers.add(watcher);
      else setImmediate(page);
    };
    page();
  };

  const enqueue = (w: PendingWrite) => {
    queue.push(w);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  const SMP = 'application/strategic-merge-patch+json';
  const MERGE = 'application/merge-patch+json';
  /** An Event POST or PATCH: parsed and checked here, written in the group commit (floor/kube-events.ts). */
  const eventWrite = (req: IncomingMessage, res: ServerResponse, user: string, namespace: string, urlName: string | undefined, query: URLSearchParams | undefined) => {
    const verb = req.method === 'POST' ? 'create' : 'patch';
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim();
    if (verb === 'create' ? type !== 'application/json' : type !== SMP && type !== MERGE) {
      return send(res, 415, '{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"UnsupportedMediaType","code":415}');
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, any>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, '{"kind":"Status","code":400}');
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return send(res, 400, '{"kind":"Status","code":400}');
      const name = verb === 'create' ? (body.metadata?.name as string | undefined) : urlName;
      // The minimal checks (the floor validates none of the Event's fields): a name, and the URL's namespace.
      if (!name) return send(res, 422, '{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Invalid","code":422}');
      if (verb === 'create' && body.metadata.namespace && body.metadata.namespace !== namespace) return send(res, 400, '{"kind":"Status","code":400}');
      const userAgent = req.headers['user-agent'] ?? '';
      const manager = managerName(query?.get('fieldManager') ?? undefined, userAgent);
      const caller = { groups: full ? (groupsOf.get(user) ?? '[]') : '', userAgent: full ? userAgent : '', fieldManager: full ? manager : '' };
      enqueue({ namespace, name, body: {}, user, ...caller, res, protobuf: false, event: { verb, namespace, name, body, user, ...caller, manager } });
    });
  };

  const reported = new Set<string>();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    try {
      route(req, res);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!reported.has(message)) {
        reported.add(message);
        process.stderr.write(`floor: ${req.method} ${req.url}: ${message}\n`);
      }
      if (!res.headersSent) send(res, 500, JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, code: 500 }));
      else res.destroy();
    }
  };
  const route = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const qAt = url.indexOf('?');
    const pathname = qAt < 0 ? url : url.slice(0, qAt);
    const query = qAt < 0 ? undefined : new URLSearchParams(url.slice(qAt + 1));
    if (pathname === '/healthz') return send(res, 200, 'ok', 'text/plain');
    const auth = req.headers.authorization;
    const user = auth?.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
    if (!user) return send(res, 401, '{"kind":"Status","code":401,"reason":"Unauthorized"}');
    const protobuf = (req.headers.accept ?? '').startsWith(PROTOBUF);
    const parts = pathname.split('/');
    // /api/v1/namespaces/{ns}/services[/{name}[/status]]  or  /api/v1/services
    if (pathname.startsWith('/api/v1/')) {
      if (req.method === 'GET' && query?.get('watch') === 'true' && (parts.length === 4 || parts.length === 6)) return watch(res, protobuf, query);
      const namespace = parts[4];
      const name = parts[6];
      // client-go's event recorder: a POST of each new Event, a strategic-merge PATCH of each repeat.
      if (parts[5] === 'events' && ((req.method === 'POST' && parts.length === 6) || (req.method === 'PATCH' && parts.length === 7))) return eventWrite(req, res, user, namespace, name, query);
      if (req.method === 'PUT' && parts.length === 8 && parts[7] === 'status') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          let body: PendingWrite['body'];
          try {
            const bytes = Buffer.concat(chunks);
            body = (req.headers['content-type'] ?? '').startsWith(PROTOBUF) ? pb.decodeKubeObject(bytes) : JSON.parse(bytes.toString('utf8'));
          } catch {
            return send(res, 400, '{"kind":"Status","code":400}');
          }
          // Only floor-full records the caller beyond the user (the floor stays the least work).
          const userAgent = full ? (req.headers['user-agent'] ?? '') : '';
          const fieldManager = full ? managerName(query?.get('fieldManager') ?? undefined, userAgent) : '';
          enqueue({ namespace, name, body, user, groups: full ? (groupsOf.get(user) ?? '[]') : '', userAgent, fieldManager, res, protobuf });
        });
        return;
      }
      const point = pointOf(query);
      if (req.method === 'GET' && (parts.length === 7 || (parts.length === 8 && parts[7] === 'status'))) {
        if (!point) {
          const object = currentObject.get(namespace, name) as string | undefined;
          return object ? sendObject(res, protobuf, object) : send(res, 404, NOT_FOUND);
        }
        const object = getAt.get({ namespace, name, rv: resolveRv(point) }) as string | Buffer | undefined;
        return object ? sendObject(res, protobuf, storedText(object)) : send(res, 404, NOT_FOUND);
      }
      if (req.method === 'GET' && parts.length === 6) {
        const limit = Number(query?.get('limit') ?? '') || -1;
        const token = query?.get('continue');
        const page = token ? decodeContinue(token) : undefined;
        // A continued page reads at the first page's resourceVersion, as kube-apiserver does.
        const rv = page?.rv ?? (point ? resolveRv(point) : head);
        const after = page?.after ?? '';
        const rows = (rv === head ? listNamespace.all(namespace, after, limit < 0 ? -1 : limit + 1) : listAt.all({ namespace, after, rv, limit: limit < 0 ? -1 : limit + 1 })) as {
          name: string;
          object: string | Buffer;
        }[];
        const more = limit > 0 && rows.length > limit;
        const shown = more ? rows.slice(0, limit) : rows;
        return sendList(
          res,
          protobuf,
          rv,
          shown.map((r) => asItem(storedText(r.object))),
          more ? encodeContinue(rv, shown[shown.length - 1].name) : undefined,
        );
      }
    }
    if (req.method === 'GET' && pathname.startsWith(HISTORY_ROOT) && history(res, pathname.slice(HISTORY_ROOT.length), query)) return;
    send(res, 404, NOT_FOUND);
  };

  const label = `${values.stack === 'nest' ? 'framework-' : ''}${full ? 'floor-full' : 'floor'}`;
  if (values.stack === 'nest') {
    // Loaded only here: the plain floor (and its checkpoint worker) never carries NestJS.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, so the plain floor never loads NestJS
    const { serveOnNestStack } = require('./nest-stack') as typeof import('./nest-stack');
    void serveOnNestStack(dataDir, Number(values.port), values.host, handle).then(({ port, close }) => {
      process.stdout.write(`${label} serving https://${values.host}:${port}\n`);
      const stop = () => {
        for (const w of watchers) w.res.end();
        void close().then(() => {
          checkpoints.postMessage('stop');
          db.close();
          process.exit(0);
        });
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
    return;
  }
  const server = createServer(
    {
      key: readFileSync(join(dataDir, 'serving.key')),
      cert: readFileSync(join(dataDir, 'serving.crt')),
      ca: readFileSync(join(dataDir, 'ca.crt')),
      requestCert: true,
      rejectUnauthorized: false,
    },
    handle,
  );
  server.keepAliveTimeout = 60_000;
  server.listen(Number(values.port), values.host, () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${label} serving https://${values.host}:${port}\n`);
  });
  const shutdown = () => {
    for (const w of watchers) w.res.end();
    server.close(() => {
      checkpoints.postMessage('stop');
      db.close();
      process.exit(0);
    });
    server.closeAllConnections();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

if (isMainThread) {
  try {
    main();
  } catch (error) {
    process.stderr.write(`floor: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  }
} else {
  checkpointer();
}
