// Every statement the server prepares on its write and read paths has its query plan pinned.
// The test records the SQL text of every statement the running server prepares while it serves
// a workload touching every path (writes of each verb, GET/LIST live and as of the past, watch
// resume, each history resource with its filters), asks SQLite for each plan, and
//   1. rejects any step that reads a whole table or index (`SCAN t`, `SCAN t USING INDEX …`,
//      `SCAN t USING COVERING INDEX …`): such a statement costs more as history grows;
//   2. pins the plans in a snapshot, so that a change of plan (a new index picked, a temp sort
//      appearing) is seen in review, not found in a benchmark.
// The R*Tree's own search shows as `SCAN s VIRTUAL TABLE INDEX 2:…` (a constrained search).
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeEventExpiryService } from '../../src/kube-events/kube-event-expiry.service';
import { LegacyEventRecorder } from '../history/event-recorder';
import { putStatus, ready, startHistoryTestServer, type HistoryTestServer, START } from '../history/history-test-server';

/** Steps that are searches despite their word. */
const ALLOWED_SCANS = [
  /^SCAN s VIRTUAL TABLE INDEX 2:/, // the R*Tree overlap search over closed ingress intervals
  /^SCAN CONSTANT ROW$/,
  /^SCAN sqlite_temp_schema$/, // once per reader: whether `events` is an older store's stand-in view (a handful of temp rows)
];

/**
 * Walks of a whole key space in its own order, stopped by LIMIT: the pages of a cluster-wide
 * LIST (there is no narrower range to seek; a page reads its rows and stops).
 */
const PAGE_WALKS: Record<string, RegExp> = {
  // A LIST of every namespace's first page (its placeholders in order: bound by position, as `?`).
  'SCAN services USING INDEX sqlite_autoindex_services_1': /^SELECT namespace, name, object AS json FROM services ORDER BY namespace, name LIMIT \?$/,
  'SCAN l USING INDEX service_lifetimes_name':
    /^SELECT l\.namespace AS namespace, l\.name AS name, [\s\S]* FROM service_lifetimes l INDEXED BY service_lifetimes_name\s+WHERE l\.created_resource_version <= \$1 AND \(l\.deleted_resource_version IS NULL OR l\.deleted_resource_version > \$1\) ORDER BY l\.namespace, l\.name LIMIT \$2$/,
};

/**
 * Walks of a table that is small by construction: the audit events waiting for their write are
 * dropped after an hour (mirror mode), and the sweep reads each of them once.
 */
const BOUNDED_WALKS: Record<string, RegExp> = {
  'SCAN pending_audit_events USING COVERING INDEX pending_audit_events_received': /^SELECT count\(\*\) FROM pending_audit_events$/,
  'SCAN p': /^SELECT p\.audit_id, p\.write, o\.resource_version FROM pending_audit_events p CROSS JOIN observed_writes o INDEXED BY observed_writes_source ON /,
  // Every compaction (one row per run of `svctrail compact` or of --history-retention), which the feed places among its lines.
  'SCAN compactions': /^SELECT id, horizon_resource_version AS "horizonResourceVersion", [\s\S]* FROM compactions ORDER BY id$/,
  // How far an Events LIST's snapshot is behind the head: a count of a primary-key range that its LIMIT stops.
  'SCAN s': /^SELECT count\(\*\) AS n FROM \(SELECT 1 FROM events WHERE position > \$1 LIMIT \d+\) s$/,
};

/** Secondary indexes whose reader is not on the server's paths, and the suite that pins its plan. */
const PINNED_ELSEWHERE: Record<string, string> = {
  // replay's catch-up re-copies the rows of the Services written meanwhile, by uid
  allocations_uid: 'src/maintenance/shadow-tables.spec.ts',
};

/** The migrations' own statements (run once, at start-up, by the migrator). */
const MIGRATIONS = new Set(
  readdirSync(join(__dirname, '../../migrations'))
    .filter((f) => f.endsWith('.sql'))
    .flatMap((f) => readFileSync(join(__dirname, '../../migrations', f), 'utf8').split('--> statement-breakpoint'))
    .map((statement) => statement.trim()),
);

/** Statements that are not queries of data (transactions, pragmas, the schema). */
const NOT_QUERIES = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA|CREATE|DROP|ALTER|VACUUM|ANALYZE)\b/i;

describe('query plans of the write and read paths', () => {
  const prepared = new Set<string>();
  const original = Database.prototype.prepare;
  let t: HistoryTestServer;
  let dbPath: string;

  beforeAll(async () => {
    // Record every statement text prepared in this process (the server runs in it).
    Database.prototype.prepare = function (this: Database.Database, source: string) {
      prepared.add(source);
      return original.call(this, source);
    } as typeof original;
    t = await startHistoryTestServer([{ name: 'lb-controller' }, { name: 'operator' }]);
    dbPath = `${t.dataDir}/svctrail.db`;
  });
  afterAll(async () => {
    Database.prototype.prepare = original;
    await t?.stop();
  });

  it('prepares no statement that scans, and each plan is the pinned one', async () => {
    const admin = t.client;
    const lb = t.as('lb-controller');
    const tick = (ms = 1000) => t.clock.advance(ms);
    const svc = (name: string, labels: Record<string, string> = {}) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, labels },
      spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
    });
    // Writes of every verb: create, replace, status, merge patch, apply, delete.
    for (const [ns, name] of [
      ['a', 'web'],
      ['a', 'api'],
      ['b', 'db'],
    ]) {
      expect((await admin.post(`/api/v1/namespaces/${ns}/services`, svc(name, { app: name }))).status).toBe(201);
      tick();
    }
    for (let i = 0; i < 3; i++) {
      await putStatus(lb, 'a', 'web', { loadBalancer: { ingress: [{ ip: `203.0.113.${i + 1}`, ipMode: 'VIP' }] }, conditions: [ready(i % 2 ? 'True' : 'False', `R${i}`, START + i)] }, 'lb/1.0');
      tick();
      await putStatus(lb, 'a', 'api', { loadBalancer: { ingress: [{ ip: '203.0.113.1', ipMode: 'VIP' }] } }, 'lb/1.0'); // a conflict with web
      tick();
    }
    const web = (await admin.get('/api/v1/namespaces/a/services/web')).json;
    expect((await admin.put('/api/v1/namespaces/a/services/web', { ...web, metadata: { ...web.metadata, labels: { app: 'web', tier: 'front' } } })).status).toBe(200);
    expect((await admin.request('PATCH', '/api/v1/namespaces/a/services/web', { body: { metadata: { annotations: { a: 'b' } } }, contentType: 'application/merge-patch+json' })).status).toBe(200);
    const apply = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'db', namespace: 'b', labels: { owner: 'ops' } } };
    expect((await admin.request('PATCH', '/api/v1/namespaces/b/services/db?fieldManager=ops', { body: apply, contentType: 'application/apply-patch+yaml' })).status).toBe(200);
    tick();
    expect((await admin.delete('/api/v1/namespaces/b/services/db')).status).toBe(200);
    tick();
    // Controllers' Events about a/web: a creation and a repeat (POST, then PATCH of the count).
    const recorder = new LegacyEventRecorder(lb, 'lb-controller');
    for (let i = 0; i < 2; i++) {
      await recorder.event({ namespace: 'a', name: 'web', uid: web.metadata.uid }, 'Warning', 'SyncLoadBalancerFailed', 'quota exceeded', START + 5000 + i);
      tick();
    }
    const middle = Number(web.metadata.resourceVersion);
    const middleTime = new Date(START + 4500).toISOString();

    // Reads: GET and LIST, live and in the past, with selectors and pages; a watch resumed from the start.
    const reads = [
      '/api/v1/namespaces/a/services/web',
      `/api/v1/namespaces/a/services/web?resourceVersion=${middle}&resourceVersionMatch=Exact`,
      `/api/v1/namespaces/a/services/web?asOf=${middleTime}`,
      '/api/v1/services',
      '/api/v1/namespaces/a/services?labelSelector=app%3Dweb',
      '/api/v1/namespaces/a/services?fieldSelector=metadata.name%3Dweb',
      `/api/v1/namespaces/a/services?resourceVersion=${middle}&resourceVersionMatch=Exact`,
      `/api/v1/services?resourceVersion=${middle}&resourceVersionMatch=Exact`,
      `/api/v1/namespaces/a/services?asOf=${middleTime}`,
      '/api/v1/namespaces/a/events',
      '/api/v1/events',
    ];
    for (const path of reads) expect([path, (await admin.get(path)).status]).toEqual([path, 200]);
    // A continued page at the head reads the table; one of an older snapshot, the revisions.
    const page = (await admin.get('/api/v1/services?limit=1')).json;
    expect((await admin.get(`/api/v1/services?limit=1&continue=${encodeURIComponent(page.metadata.continue)}`)).status).toBe(200);
    const past = (await admin.get(`/api/v1/services?limit=1&resourceVersion=${middle}&resourceVersionMatch=Exact`)).json;
    expect((await admin.get(`/api/v1/services?limit=1&continue=${encodeURIComponent(past.metadata.continue)}`)).status).toBe(200);
    // The same within a namespace: one range of its names.
    for (const query of ['limit=1', `limit=1&resourceVersion=${middle}&resourceVersionMatch=Exact`]) {
      const first = (await admin.get(`/api/v1/namespaces/a/services?${query}`)).json;
      expect(first.metadata.continue).toBeDefined();
      expect((await admin.get(`/api/v1/namespaces/a/services?limit=1&continue=${encodeURIComponent(first.metadata.continue)}`)).status).toBe(200);
    }
    const watch = await admin.stream('/api/v1/services?watch=true&resourceVersion=1');
    expect((await watch.take(3)).map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED']);
    watch.close();
    // The --event-ttl sweep's read, which its timer would run only if the workload outlasted its period.
    expect(await t.server.app.get(KubeEventExpiryService).sweep()).toBe(false);

    // Every history resource, scoped every way and with its filters.
    const history = '/apis/history.svctrail.io/v1alpha1';
    const since = new Date(START).toISOString();
    const until = new Date(START + 60_000).toISOString();
    const scopes = ['', '/namespaces/a', '/namespaces/a/services/web'];
    const resources = [
      'changes',
      `changes?actor=lb-controller`,
      'changes?eventType=LoadBalancerIngressChanged',
      'changes?fieldManager=ops',
      `changes?since=${since}&until=${until}`,
      'conditiontransitions',
      'conditiontransitions?conditionType=Ready&status=True',
      'conditionsummaries',
      `conditionsummaries?since=${since}&until=${until}`,
      'ingressintervals',
      `ingressintervals?since=${since}&until=${until}`,
      'ingressintervals?address=203.0.113.1',
      'ingressconflicts',
      'fieldownerships',
      'events',
      'events?type=Warning&reason=SyncLoadBalancerFailed',
      'events?reportingController=lb-controller',
      `events?since=${since}&until=${until}`,
    ];
    for (const scope of scopes) {
      for (const resource of resources) {
        const path = `${history}${scope}/${resource}${resource.includes('?') ? '&' : '?'}limit=2`;
        expect([path, (await admin.get(path)).status]).toEqual([path, 200]);
      }
    }
    const uid = web.metadata.uid;
    for (const path of [
      `${history}/changes?uid=${uid}&limit=2`,
      `${history}/namespaces/a/services/web/events?uid=${uid}&limit=2`,
      `${history}/events?uid=${uid}&limit=2`,
      `${history}/conditiontransitions?uid=${uid}&limit=2`,
      `${history}/ingressintervals?uid=${uid}&limit=2`,
      `${history}/ingressconflicts?uid=${uid}&limit=2`,
      // The change feed, Services' writes and Events' alike.
      `${history}/feed?after=0`,
      `${history}/ingressowners?address=203.0.113.1&at=${middleTime}`,
      `${history}/ingressowners?address=203.0.113.1&from=${since}&to=${until}`,
    ]) {
      expect([path, (await admin.get(path)).status]).toEqual([path, 200]);
    }

    // The plans, read on a connection of our own (the statements are bound with NULLs: plans
    // depend on the SQL and the schema, not on the values).
    Database.prototype.prepare = original;
    const db = new Database(dbPath, { readonly: true });
    try {
      const plans: Record<string, string[]> = {};
      for (const sql of [...prepared].sort()) {
        // The migrations and the start-up check of the schema run once, before anything is served.
        if (MIGRATIONS.has(sql.trim()) || /__drizzle_migrations|sqlite_master/.test(sql) || NOT_QUERIES.test(sql)) continue;
        const statement = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
        const named = [...new Set([...sql.replace(/'[^']*'/g, '').matchAll(/[@:$]([A-Za-z0-9_]+)/g)].map((m) => m[1]))];
        const positional = (sql.replace(/'[^']*'/g, '').match(/\?/g) ?? []).length;
        const args: unknown[] = named.length ? [Object.fromEntries(named.map((n) => [n, null]))] : Array(positional).fill(null);
        plans[normalize(sql)] = (statement.all(...args) as { detail: string }[]).map((r) => r.detail);
      }
      const scans = Object.entries(plans).flatMap(([sql, steps]) =>
        steps.filter((d) => /^SCAN /.test(d) && !ALLOWED_SCANS.some((allowed) => allowed.test(d)) && !PAGE_WALKS[d]?.test(sql) && !BOUNDED_WALKS[d]?.test(sql)).map((d) => `${d}\n    in: ${sql}`),
      );
      expect(scans).toEqual([]);
      // Enough statements were seen for the pin to mean something.
      expect(Object.keys(plans).length).toBeGreaterThan(40);
      expect(plans).toMatchSnapshot();
      // Every secondary index is read by a pinned plan (issue 46: an index no reader needs is
      // dropped), or by a reader pinned in another suite.
      const read = new Set(Object.values(plans).flatMap((steps) => steps.flatMap((d) => [...d.matchAll(/INDEX (\w+)/g)].map((m) => m[1]))));
      const indexes = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%' ORDER BY name`).pluck().all() as string[];
      expect(indexes.filter((name) => !read.has(name) && !(name in PINNED_ELSEWHERE))).toEqual([]);
      expect(Object.keys(PINNED_ELSEWHERE).filter((name) => !indexes.includes(name))).toEqual([]);
    } finally {
      db.close();
    }
  });
});

/** One line, single spaces: the snapshot key. */
function normalize(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim();
}
