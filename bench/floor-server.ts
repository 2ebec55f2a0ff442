// The raw floor: the least a server can do for the same requests with the same durability, so
// that svctrail's figures can be read as a ratio to what this machine allows.
//
//   node:https on 127.0.0.1 with the data directory's serving certificate (client certificates
//   requested, not required — as svctrail), bearer tokens from tokens.csv, better-sqlite3 on the
//   same svctrail.db (the migrations' schema), WAL + synchronous=FULL.
//
// Writes (PUT .../services/{name}/status) are group-committed: a request only enqueues its
// write; the queue is flushed by setImmediate, i.e. after the event loop has read every request
// that arrived meanwhile — in particular all those that arrived while the previous commit (and
// its fsync) blocked the loop. One IMMEDIATE transaction and one fsync per batch, one savepoint
// per write (a failing write rolls back alone), answers sent after COMMIT returns.
// Each write appends an event row (LoadBalancerIngressChanged / ServiceConditionsReplaced with
// the previous value, so the log stays replayable) and upserts the current-object row; it
// maintains no other projection. The WAL is checkpointed by a worker thread on its own
// connection (wal_autocheckpoint=0 here), so checkpoints never stall the event loop.
//
// Reads: GET one Service (the stored JSON as is), LIST a namespace (rows concatenated), LIST with
// resourceVersionMatch=Exact from service_revisions (the same SQL as svctrail's repository),
// watch (one pre-encoded line per write written to every watcher), and the raw history queries
// under /apis/history.svctrail.io/v1alpha1/namespaces/{ns}/services/{name}/{events,conditions,ingress}.
//
// usage: node bench/dist/floor-server.js --data-dir DIR [--port 0] [--host 127.0.0.1]
//        prints "floor serving https://127.0.0.1:PORT"
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

interface PendingWrite {
  namespace: string;
  name: string;
  body: { status?: { loadBalancer?: { ingress?: unknown[] }; conditions?: unknown[] } };
  user: string;
  res: ServerResponse;
  result?: string;
  status?: number;
  /** True when the write appended events (watchers hear of it). */
  changed?: boolean;
}

const HISTORY_PREFIX = '/apis/history.svctrail.io/v1alpha1/namespaces/';

function checkpointer(): void {
  // Worker: PASSIVE checkpoints on a second connection; SQLite restarts the WAL from the top at
  // the next write once everything in it has been copied back.
  const db = new Database(workerData.path as string);
  db.pragma('busy_timeout = 5000');
  const tick = () => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // busy: next tick
    }
  };
  const timer = setInterval(tick, 100);
  parentPort!.on('message', (m) => {
    if (m === 'stop') {
      clearInterval(timer);
      db.close();
      process.exit(0);
    }
  });
}

function migrate(db: Database.Database, migrationsFolder: string): void {
  // Only for a fresh file: the same SQL drizzle-kit generated for svctrail.
  db.exec('CREATE TABLE IF NOT EXISTS bench_floor_migrations (name TEXT PRIMARY KEY)');
  const done = new Set(db.prepare('SELECT name FROM bench_floor_migrations').pluck().all() as string[]);
  const hasEvents = db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'events'`).pluck().get() as number;
  if (hasEvents && done.size === 0) return; // a database svctrail created
  for (const file of readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).sort()) {
    if (done.has(file)) continue;
    for (const statement of readFileSync(join(migrationsFolder, file), 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) db.exec(statement);
    }
    db.prepare('INSERT INTO bench_floor_migrations (name) VALUES (?)').run(file);
  }
}

function main(): void {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      synchronous: { type: 'string', default: 'FULL' },
    },
  });
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error('--data-dir is required');
  const path = join(dataDir, 'svctrail.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${values.synchronous}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('wal_autocheckpoint = 0');
  migrate(db, join(__dirname, '..', '..', 'migrations'));
  const checkpoints = new Worker(__filename, { workerData: { path } });
  checkpoints.unref();

  const tokens = new Map<string, string>();
  for (const line of readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split('\n')) {
    const [token, user] = line.split(',');
    if (token && user) tokens.set(token.trim(), user.trim());
  }

  const current = db.prepare('SELECT uid, stream_version AS streamVersion, object FROM services WHERE namespace = ? AND name = ?');
  const currentObject = db.prepare('SELECT object FROM services WHERE namespace = ? AND name = ?').pluck();
  const listNamespace = db.prepare('SELECT object FROM services WHERE namespace = ? ORDER BY namespace, name LIMIT ?').pluck();
  const listAsOf = db
    .prepare(
      `SELECT (SELECT r.object FROM service_revisions r WHERE r.uid = l.uid AND r.resource_version <= @asOf
           ORDER BY r.resource_version DESC LIMIT 1)
       FROM service_lifetimes l WHERE l.namespace = @namespace AND l.created_resource_version <= @asOf
         AND (l.deleted_resource_version IS NULL OR l.deleted_resource_version > @asOf)
       ORDER BY l.namespace, l.name LIMIT @limit`,
    )
    .pluck();
  const insertEvent = db.prepare(
    `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data,
       recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, subresource)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', 'floor', 'floor', ?, 'update', 'status')`,
  );
  const upsert = db.prepare(
    `INSERT INTO services (namespace, name, uid, resource_version, stream_version, object) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (namespace, name) DO UPDATE SET uid = excluded.uid, resource_version = excluded.resource_version,
       stream_version = excluded.stream_version, object = excluded.object`,
  );
  const historyEvents = db.prepare(
    `SELECT position, resource_version AS resourceVersion, stream_id AS uid, type, data, recorded_at AS recordedAt,
       actor_user AS user, verb, subresource FROM events WHERE namespace = ? AND name = ? ORDER BY position DESC LIMIT ?`,
  );
  const historyConditions = db.prepare(
    `SELECT * FROM condition_transitions WHERE namespace = ? AND name = ? ORDER BY resource_version DESC LIMIT ?`,
  );
  const historyIngress = db.prepare(
    `SELECT * FROM ingress_intervals WHERE uid IN (SELECT uid FROM services WHERE namespace = ? AND name = ?)
     ORDER BY from_resource_version DESC LIMIT ?`,
  );
  let head = db.prepare('SELECT coalesce(max(position), 0) FROM events').pluck().get() as number;

  const watchers = new Set<ServerResponse>();
  let queue: PendingWrite[] = [];
  let scheduled = false;

  const applyOne = db.transaction((w: PendingWrite) => {
    const row = current.get(w.namespace, w.name) as { uid: string; streamVersion: number; object: string } | undefined;
    if (!row) {
      w.status = 404;
      w.result = JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
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
      return;
    }
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
    w.changed = true;
  });
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
      send(w.res, w.status ?? 500, w.result ?? '');
      if (w.changed && watchers.size) {
        const line = `{"type":"MODIFIED","object":${w.result}}\n`;
        for (const watcher of watchers) watcher.write(line);
      }
    }
  };

  const send = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? undefined : new URLSearchParams(url.slice(q + 1));
    if (pathname === '/healthz') return send(res, 200, 'ok');
    const auth = req.headers.authorization;
    const user = auth?.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
    if (!user) return send(res, 401, '{"kind":"Status","code":401,"reason":"Unauthorized"}');
    const parts = pathname.split('/');
    // /api/v1/namespaces/{ns}/services[/{name}[/status]]  or  /api/v1/services
    if (pathname.startsWith('/api/v1/')) {
      if (req.method === 'GET' && query?.get('watch') === 'true' && (parts.length === 4 || parts.length === 6)) {
        res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
        res.flushHeaders();
        watchers.add(res);
        res.on('close', () => watchers.delete(res));
        return;
      }
      const namespace = parts[4];
      const name = parts[6];
      if (req.method === 'PUT' && parts.length === 8 && parts[7] === 'status') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          let body: PendingWrite['body'];
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return send(res, 400, '{"kind":"Status","code":400}');
          }
          queue.push({ namespace, name, body, user, res });
          if (!scheduled) {
            scheduled = true;
            setImmediate(flush);
          }
        });
        return;
      }
      if (req.method === 'GET' && parts.length === 7) {
        const object = currentObject.get(namespace, name) as string | undefined;
        return object ? send(res, 200, object) : send(res, 404, '{"kind":"Status","code":404,"reason":"NotFound"}');
      }
      if (req.method === 'GET' && parts.length === 6) {
        const limit = Number(query?.get('limit') ?? '') || -1;
        const exact = query?.get('resourceVersionMatch') === 'Exact';
        const asOf = Number(query?.get('resourceVersion') ?? '0');
        const items = exact ? (listAsOf.all({ namespace, asOf, limit }) as string[]) : (listNamespace.all(namespace, limit) as string[]);
        const rv = exact ? asOf : head;
        return send(res, 200, `{"kind":"ServiceList","apiVersion":"v1","metadata":{"resourceVersion":"${rv}"},"items":[${items.join(',')}]}`);
      }
    }
    if (req.method === 'GET' && pathname.startsWith(HISTORY_PREFIX)) {
      // .../namespaces/{ns}/services/{name}/{events|conditions|ingress}
      const [namespace, , name, kind] = pathname.slice(HISTORY_PREFIX.length).split('/');
      const limit = Number(query?.get('limit') ?? '') || 50;
      const statement = kind === 'changes' ? historyEvents : kind === 'conditiontransitions' ? historyConditions : kind === 'ingressintervals' ? historyIngress : undefined;
      if (statement) return send(res, 200, JSON.stringify({ items: statement.all(namespace, name, limit) }));
    }
    send(res, 404, '{"kind":"Status","code":404,"reason":"NotFound"}');
  };

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
    process.stdout.write(`floor serving https://${values.host}:${port}\n`);
  });
  const shutdown = () => {
    for (const w of watchers) w.end();
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

