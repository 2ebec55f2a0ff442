// Compaction (issue 26) over the real HTTPS API on both engines: below the horizon the objects go
// with kube-apiserver's 410 answers (byte for byte), at the horizon reads answer as before, and
// every fact answer (change records, transitions, intervals, owners, conflicts, field ownership,
// activity, rankings, core/v1 Events) is the same bytes after a compaction as before it, over
// random histories and horizons (a property, seeded).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { Client } from 'pg';
import { exportEvents } from '../../src/maintenance/event-exporter';
import { importEvents } from '../../src/maintenance/event-importer';
import { importPgEvents } from '../../src/maintenance/postgres/pg-event-importer';
import { replayPgProjections } from '../../src/maintenance/postgres/pg-projection-replayer';
import { verifyPgProjections } from '../../src/maintenance/postgres/pg-projection-verifier';
import { APP_CONFIG, type AppConfig } from '../../src/config/app-config';
import { buildPointInTime } from '../../src/maintenance/point-in-time-copy';
import { silentProgress } from '../../src/maintenance/progress';
import { verifyProjections } from '../../src/maintenance/projection-verifier';
import { replayProjections } from '../../src/maintenance/projection-replayer';
import { STORE_ENGINE, type StoreEngine } from '../../src/store/store-engine';
import { FixedClock } from '../../src/shared/clock';
import { runBuiltCli } from '../helpers/built-cli';
import { runCliInProcess } from '../helpers/cli-in-process';
import { PROTOBUF, TypedClient } from '../helpers/protobuf-client';
import { buildDist } from '../helpers/server-process';
import { startTestServer } from '../helpers/test-server';
import { HISTORY_COMPACTOR } from '../../src/store/ports/history-compaction';
import type { CompactionOutcome, HistoryCompactor } from '../../src/store/ports/history-compaction';
import type { HttpsClient } from '../helpers/https-client';
import { describePostgres } from '../helpers/postgres';
import { describeEachBackend } from '../helpers/storage-backends';
import { putStatus, ready, START, startHistoryTestServer, type HistoryTestServer } from './history-test-server';

const SERVICES = '/api/v1/namespaces';
const HISTORY = '/apis/history.svctrail.io/v1alpha1';

const service = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, labels: { app: name } },
  spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port: 80 }] },
});

const status = (ips: string[], readyStatus?: 'True' | 'False', at = START) => ({
  loadBalancer: ips.length ? { ingress: ips.map((ip) => ({ ip, ipMode: 'VIP' })) } : {},
  ...(readyStatus ? { conditions: [ready(readyStatus, readyStatus === 'True' ? 'Provisioned' : 'Pending', at)] } : {}),
});

/** One step of a random history. */
type Step =
  | { kind: 'create'; namespace: string; name: string }
  | { kind: 'status'; namespace: string; name: string; ips: string[]; ready?: 'True' | 'False' }
  | { kind: 'apply'; namespace: string; name: string; manager: string; label: string }
  | { kind: 'delete'; namespace: string; name: string };

const NAMES = ['web', 'api', 'db'];
/** A window holding every history written here (the clock starts at START and moves seconds per step). */
const WINDOW = { since: new Date(START).toISOString(), until: new Date(START + 86_400_000).toISOString() };
const NAMESPACES = ['default', 'team-a'];
const ADDRESSES = ['203.0.113.7', '203.0.113.8', '198.51.100.9'];

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('create' as const), namespace: fc.constantFrom(...NAMESPACES), name: fc.constantFrom(...NAMES) }) },
  {
    weight: 5,
    arbitrary: fc.record(
      {
        kind: fc.constant('status' as const),
        namespace: fc.constantFrom(...NAMESPACES),
        name: fc.constantFrom(...NAMES),
        ips: fc.subarray(ADDRESSES, { maxLength: 2 }),
        ready: fc.constantFrom('True' as const, 'False' as const),
      },
      { requiredKeys: ['kind', 'namespace', 'name', 'ips'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('apply' as const),
      namespace: fc.constantFrom(...NAMESPACES),
      name: fc.constantFrom(...NAMES),
      manager: fc.constantFrom('helm', 'flux'),
      label: fc.constantFrom('a', 'b'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), namespace: fc.constantFrom(...NAMESPACES), name: fc.constantFrom(...NAMES) }) },
);

/** Runs a step through the API; steps that do not apply (a create of a live name, …) are skipped. */
async function run(t: HistoryTestServer, step: Step): Promise<void> {
  t.clock.advance(7_000);
  const path = `${SERVICES}/${step.namespace}/services`;
  const exists = (await t.client.get(`${path}/${step.name}`)).status === 200;
  if (step.kind === 'create') {
    if (!exists) expect((await t.as('creator').post(path, service(step.name))).status).toBe(201);
  } else if (!exists) {
    return;
  } else if (step.kind === 'status') {
    await putStatus(t.as('lb-controller'), step.namespace, step.name, status(step.ips, step.ready, t.clock.now().getTime()), 'lb-controller/1.0');
  } else if (step.kind === 'apply') {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: step.name, labels: { [`${step.manager}-owned`]: step.label } } });
    const res = await t.client.request('PATCH', `${path}/${step.name}?fieldManager=${step.manager}&force=true`, { body, contentType: 'application/apply-patch+yaml' });
    expect(res.status).toBe(200);
  } else {
    expect((await t.as('operator').delete(`${path}/${step.name}`)).status).toBe(200);
  }
}

/** Every fact answer the history API and core/v1 Events give, as bytes: what a compaction must not change. */
async function facts(client: HttpsClient): Promise<Record<string, string>> {
  const paths = [
    `${HISTORY}/changes`,
    `${HISTORY}/changes?actor=lb-controller`,
    `${HISTORY}/changes?eventType=LoadBalancerIngressChanged`,
    `${HISTORY}/conditiontransitions`,
    `${HISTORY}/ingressintervals`,
    `${HISTORY}/ingressconflicts`,
    `${HISTORY}/transitionrankings`,
    `${HISTORY}/fieldownerships`,
    '/api/v1/events',
    ...ADDRESSES.map((address) => `${HISTORY}/ingressowners?address=${address}`),
    ...NAMESPACES.flatMap((ns) => [
      `${HISTORY}/namespaces/${ns}/changes`,
      ...NAMES.flatMap((name) => [
        `${HISTORY}/namespaces/${ns}/services/${name}/changes`,
        `${HISTORY}/namespaces/${ns}/services/${name}/conditionsummaries`,
        `${HISTORY}/namespaces/${ns}/services/${name}/fieldownerships`,
        `${HISTORY}/namespaces/${ns}/services/${name}/ingressintervals`,
        `${HISTORY}/namespaces/${ns}/services/${name}/activitybuckets?since=${WINDOW.since}&until=${WINDOW.until}&buckets=6`,
      ]),
    ]),
  ];
  const out: Record<string, string> = {};
  for (const path of paths) {
    const res = await client.get(path);
    expect([path, res.status, res.status === 200 ? '' : res.text]).toEqual([path, 200, '']);
    out[path] = res.text;
  }
  return out;
}

const compactorOf = (t: HistoryTestServer) => t.server.app.get<HistoryCompactor>(HISTORY_COMPACTOR);
const compactTo = (t: HistoryTestServer, resourceVersion: number): Promise<CompactionOutcome> =>
  compactorOf(t).compact({ point: { kind: 'resourceVersion', resourceVersion }, actor: 'test:compactor' });

const EXPIRED_LIST = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The resourceVersion for the provided list is too old.","reason":"Expired","code":410}';
const tooOld = (rv: number, horizon: number) =>
  `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: ${rv} (${horizon})","reason":"Expired","code":410}`;

describeEachBackend('compaction', (backend) => {
  jest.setTimeout(180_000);

  describe('answers below and at the horizon', () => {
    let t: HistoryTestServer;
    /** resourceVersions: web created, its first status, its second status (the horizon), api created after. */
    const rv: Record<string, number> = {};
    const before: Record<string, string> = {};
    const atHorizon = [
      () => `${SERVICES}/default/services/web?resourceVersion=${rv.horizon}&resourceVersionMatch=Exact`,
      () => `${SERVICES}/default/services?resourceVersion=${rv.horizon}&resourceVersionMatch=Exact`,
      () => `/api/v1/services?resourceVersion=${rv.horizon}&resourceVersionMatch=Exact&limit=1`,
    ];

    beforeAll(async () => {
      t = await startHistoryTestServer([{ name: 'creator' }, { name: 'lb-controller' }, { name: 'operator' }], backend.start);
      const create = async (ns: string, name: string) => {
        t.clock.advance(10_000);
        const res = await t.as('creator').post(`${SERVICES}/${ns}/services`, service(name));
        expect(res.status).toBe(201);
        return Number(res.json.metadata.resourceVersion);
      };
      rv.web = await create('default', 'web');
      rv.gone = await create('default', 'gone');
      await create('team-a', 'db');
      t.clock.advance(10_000);
      rv.first = Number((await putStatus(t.as('lb-controller'), 'default', 'web', status(['203.0.113.7']), 'lb/1')).metadata.resourceVersion);
      t.clock.advance(10_000);
      expect((await t.as('operator').delete(`${SERVICES}/default/services/gone`)).status).toBe(200);
      t.clock.advance(10_000);
      rv.horizon = Number((await putStatus(t.as('lb-controller'), 'default', 'web', status(['203.0.113.8'], 'True'), 'lb/1')).metadata.resourceVersion);
      rv.api = await create('default', 'api');
      for (const path of atHorizon) before[path()] = (await t.client.get(path())).text;
      const outcome = await compactTo(t, rv.horizon);
      expect(outcome.kind).toBe('compacted');
    });
    afterAll(() => t?.stop());

    it('GET below the horizon is 410 Expired, naming the horizon (GET Exact and asOf)', async () => {
      const res = await t.client.get(`${SERVICES}/default/services/web?resourceVersion=${rv.first}&resourceVersionMatch=Exact`);
      expect(res.status).toBe(410);
      expect(res.text).toBe(tooOld(rv.first, rv.horizon));
      const asOf = new Date(START + 25_000).toISOString();
      const at = await t.client.get(`${SERVICES}/default/services/web?asOf=${asOf}`);
      expect(at.status).toBe(410);
      expect(at.json.message).toMatch(new RegExp(`^too old resource version: \\d+ \\(${rv.horizon}\\)$`));
    });

    it('LIST Exact below the horizon is etcd3 compacted revision 410, byte for byte', async () => {
      const res = await t.client.get(`${SERVICES}/default/services?resourceVersion=${rv.first}&resourceVersionMatch=Exact`);
      expect(res.status).toBe(410);
      expect(res.text).toBe(EXPIRED_LIST);
    });

    it('a continue token below the horizon is 410 with a token that goes on at the newest state', async () => {
      const token = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: rv.first, start: 'default/api\u0000' })).toString('base64url');
      const res = await t.client.get(`/api/v1/services?limit=1&continue=${token}`);
      expect(res.status).toBe(410);
      expect(res.json.reason).toBe('Expired');
      expect(res.json.message).toBe(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      );
      const next = JSON.parse(Buffer.from(res.json.metadata.continue, 'base64url').toString()) as { rv: number; start: string };
      expect(next).toEqual({ v: 'meta.k8s.io/v1', rv: -1, start: 'default/api\u0000' });
      const rest = await t.client.get(`/api/v1/services?limit=5&continue=${res.json.metadata.continue}`);
      expect(rest.status).toBe(200);
      expect(rest.json.items.map((s: { metadata: { name: string } }) => s.metadata.name)).toEqual(['kubernetes', 'web', 'db']);
    });

    it('in protobuf, as client-go typed clients ask: the same Status, the continue token in its ListMeta', async () => {
      const typed = new TypedClient(t.client);
      const exact = await typed.get(`${SERVICES}/default/services?resourceVersion=${rv.first}&resourceVersionMatch=Exact`);
      expect([exact.status, exact.contentType]).toEqual([410, PROTOBUF]);
      expect(exact.object).toEqual({ ...JSON.parse(EXPIRED_LIST), metadata: {} });
      const token = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: rv.first, start: 'default/api\u0000' })).toString('base64url');
      const expired = await typed.get(`/api/v1/services?limit=1&continue=${token}`);
      expect(expired.status).toBe(410);
      expect(expired.object).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410, metadata: { continue: expect.any(String) } });
      const watch = await typed.watch(`${SERVICES}/default/services?watch=1&resourceVersion=${rv.first}`);
      const error = await watch.next();
      watch.close();
      expect(error).toEqual({ type: 'ERROR', object: { ...JSON.parse(tooOld(rv.first, rv.horizon)), metadata: {} } });
    });

    it('a watch from below the horizon gets its ERROR in-band (HTTP 200); from the horizon it streams', async () => {
      const expired = await t.client.stream(`${SERVICES}/default/services?watch=1&resourceVersion=${rv.first}`);
      expect(expired.response.statusCode).toBe(200);
      const error = await expired.next();
      expired.close();
      expect(error).toEqual({ type: 'ERROR', object: JSON.parse(tooOld(rv.first, rv.horizon)) });
      const watch = await t.client.stream(`${SERVICES}/default/services?watch=1&resourceVersion=${rv.horizon}`);
      const added = await watch.next();
      watch.close();
      expect(added.type).toBe('ADDED');
      expect(added.object.metadata).toMatchObject({ name: 'api', resourceVersion: String(rv.api) });
    });

    it('at the horizon GET and LIST answer exactly as before the compaction', async () => {
      for (const path of atHorizon) expect((await t.client.get(path())).text).toBe(before[path()]);
    });

    it('is recorded: the compactions list names its horizon, what it removed and who ran it', async () => {
      const res = await t.client.get(`${HISTORY}/compactions`);
      expect(res.status).toBe(200);
      expect(res.json.kind).toBe('CompactionList');
      expect(res.json.items).toHaveLength(1);
      const item = res.json.items[0];
      expect(item).toMatchObject({
        kind: 'Compaction',
        apiVersion: 'history.svctrail.io/v1alpha1',
        metadata: { name: 'compaction-1' },
        horizon: { resourceVersion: rv.horizon, time: new Date(START + 60_000).toISOString() },
        actor: { user: 'test:compactor' },
        // The first compaction's checksum link starts at the log's start.
        facts: { checksum: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), after: 0 },
      });
      // Below the horizon: six writes (default/kubernetes, created at start-up, first). Their
      // objects went but three: web's create and first status, gone's create (a deleted Service
      // keeps no anchor); kubernetes' and db's creates are their anchors, the delete wrote none.
      expect(item.removed.writes).toBe(6);
      expect(item.removed.objects).toBe(3);
      // Stored bytes: three objects encoded (src/store/stored-text-codec.ts), 150-200 bytes each.
      expect(item.removed.bytes).toBeGreaterThan(300);
      expect(typeof item.finishedAt).toBe('string');
    });

    it('verify and replay of the compacted store stay clean: the fold is brought to the horizon', async () => {
      const url = t.server.app.get<AppConfig>(APP_CONFIG).storageUrl;
      if (backend.engine === 'postgres') {
        expect((await verifyPgProjections({ url, maxDifferences: 5, progress: silentProgress })).samples).toEqual([]);
        const replayed = await replayPgProjections({ url, progress: silentProgress });
        expect(replayed.tables.map((table) => [table.table, table.changed])).toEqual(replayed.tables.map((table) => [table.table, 0]));
      } else {
        expect((await verifyProjections({ dataDir: t.dataDir, maxDifferences: 5, progress: silentProgress })).samples).toEqual([]);
      }
      // …and the compaction is still in force.
      expect((await t.client.get(`${SERVICES}/default/services/web?resourceVersion=${rv.first}&resourceVersionMatch=Exact`)).status).toBe(410);
    });

    it('verify finds an event below the horizon changed after the compaction: its recorded checksum no longer holds', async () => {
      const url = t.server.app.get<AppConfig>(APP_CONFIG).storageUrl;
      // A request id no projection folds: without the checksum the refold could not tell.
      const tamper = `UPDATE events SET request_id = request_id || ' (changed)' WHERE position = ${rv.first}`;
      const restore = `UPDATE events SET request_id = substr(request_id, 1, length(request_id) - 10) WHERE position = ${rv.first}`;
      const verify = async () =>
        backend.engine === 'postgres'
          ? verifyPgProjections({ url, maxDifferences: 5, progress: silentProgress })
          : verifyProjections({ dataDir: t.dataDir, maxDifferences: 5, progress: silentProgress });
      const change = await outsideTheServer(backend.engine, url, t.dataDir);
      try {
        await change(tamper);
        const report = await verify();
        expect(report.differences).toBe(1);
        expect(report.samples).toEqual([
          { table: 'compactions', key: { id: 1 }, kind: 'changed', columns: [{ column: 'facts_checksum', live: expect.stringMatching(/^sha256:/), folded: expect.stringMatching(/^sha256:/) }] },
        ]);
        expect(report.tables.find((table) => table.table === 'compactions')).toEqual({ table: 'compactions', liveRows: 1, foldedRows: 1, differences: 1 });
      } finally {
        await change(restore);
        await change.close();
      }
      expect((await verify()).differences).toBe(0);
    });

    it('a compaction at or before the horizon changes nothing', async () => {
      const outcome = await compactTo(t, rv.first);
      expect(outcome.kind).toBe('unchanged');
      expect((await t.client.get(`${HISTORY}/compactions`)).json.items).toHaveLength(1);
    });
  });

  it('keeps every fact answer byte for byte, over random histories and horizons', async () => {
    const runs = Number(process.env.SVCTRAIL_COMPACTION_RUNS ?? (backend.engine === 'sqlite' ? 4 : 2));
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 15, maxLength: 30 }), fc.array(fc.integer({ min: 5, max: 100 }), { minLength: 1, maxLength: 2 }), async (steps, horizons) => {
        const t = await startHistoryTestServer([{ name: 'creator' }, { name: 'lb-controller' }, { name: 'operator' }], backend.start);
        try {
          // Every Service first, so that most random steps apply.
          for (const namespace of NAMESPACES) for (const name of NAMES) await run(t, { kind: 'create', namespace, name });
          for (const step of steps) await run(t, step);
          const head = Number((await t.client.get('/api/v1/services?limit=1')).json.metadata.resourceVersion);
          const expected = await facts(t.client);
          // Something for every answer to lose, were a compaction to lose it.
          expect(JSON.parse(expected[`${HISTORY}/fieldownerships`]).items.map((i: { manager: string }) => i.manager)).toContain('lb-controller');
          expect(JSON.parse(expected[`${HISTORY}/changes`]).items.length).toBeGreaterThan(10);
          for (const percent of [...horizons].sort((a, b) => a - b)) {
            expect((await compactTo(t, Math.max(1, Math.round((percent / 100) * head)))).kind).not.toBe('empty');
            const after = await facts(t.client);
            // (The paths whose answer changed, not the answers: they are long.)
            expect(Object.keys(expected).filter((path) => after[path] !== expected[path])).toEqual([]);
          }
        } finally {
          await t.stop();
        }
      }),
      { numRuns: runs, seed: 26, endOnFailure: true },
    );
  });
});

/** A few Services with ingress and condition history, through the API; returns the head. */
async function someHistory(t: HistoryTestServer, writes: number): Promise<number> {
  for (const name of NAMES) {
    t.clock.advance(1000);
    expect((await t.as('creator').post(`${SERVICES}/default/services`, service(name))).status).toBe(201);
  }
  let rv = 0;
  for (let i = 0; i < writes; i++) {
    t.clock.advance(1000);
    const written = await putStatus(t.as('lb-controller'), 'default', NAMES[i % NAMES.length], status([ADDRESSES[i % ADDRESSES.length]], i % 2 ? 'True' : 'False', t.clock.now().getTime()), 'lb/1');
    rv = Number(written.metadata.resourceVersion);
  }
  return rv;
}

/**
 * Runs statements on the store behind the server's back, its append-only triggers off for each:
 * what a disk, a restore or a hand would do to the log.
 */
async function outsideTheServer(engine: string, url: string, dataDir: string): Promise<((sql: string) => Promise<void>) & { close: () => Promise<void> }> {
  if (engine === 'postgres') {
    const client = new Client({ connectionString: url });
    await client.connect();
    const run = async (sql: string) => void (await client.query(`BEGIN; ALTER TABLE events DISABLE TRIGGER events_no_update; ${sql}; ALTER TABLE events ENABLE TRIGGER events_no_update; COMMIT`));
    return Object.assign(run, { close: () => client.end() });
  }
  const sqlite = new Database(join(dataDir, 'svctrail.db'));
  sqlite.pragma('busy_timeout = 5000');
  const trigger = sqlite.prepare("SELECT sql FROM sqlite_schema WHERE name = 'events_no_update'").pluck().get() as string;
  const run = async (sql: string) => void sqlite.transaction(() => sqlite.exec(`DROP TRIGGER events_no_update; ${sql}; ${trigger}`)).immediate();
  return Object.assign(run, { close: async () => void sqlite.close() });
}

const users = [{ name: 'creator' }, { name: 'lb-controller' }, { name: 'operator' }];

describe('compaction on SQLite', () => {
  jest.setTimeout(240_000);

  it('an export of a compacted store carries its compactions: the import answers as the original, 410s included', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'svctrail-compacted-import-')), 'data');
    try {
      await importedAnswersAsOriginal({
        import: (lines) => importEvents({ dataDir: target, lines, progress: silentProgress }),
        verify: async () => (await verifyProjections({ dataDir: target, maxDifferences: 5, progress: silentProgress })).differences,
        start: (clock) => startTestServer({ dataDir: target, clock }),
      });
    } finally {
      rmSync(join(target, '..'), { recursive: true, force: true });
    }
  });

  it('a replay during which a compaction began swaps nothing; the next compaction to that point finishes it, and the store verifies clean', async () => {
    const t = await startHistoryTestServer(users);
    try {
      const head = await someHistory(t, 20);
      const horizon = head - 10;
      const sqlite = () => {
        const engine = t.server.app.get<StoreEngine>(STORE_ENGINE);
        if (engine.kind !== 'sqlite') throw new Error('a SQLite suite');
        return engine.handle.sqlite;
      };
      const count = () => sqlite().prepare('SELECT count(*) FROM service_revisions').pluck().get() as number;
      const before = count();
      // A compaction records its horizon first, in a transaction of its own (history-compaction.ts):
      // here, from another connection, just as the replay is about to swap.
      const progress = {
        ...silentProgress,
        start: (phase: string) => {
          if (phase !== 'swap') return;
          const other = new Database(join(t.dataDir, 'svctrail.db'));
          other.pragma('busy_timeout = 5000');
          other
            .prepare("INSERT INTO compactions (id, horizon_resource_version, horizon_time, actor_user, started_at) VALUES (1, ?, ?, 'test:compactor', ?)")
            .run(horizon, t.clock.now().toISOString(), t.clock.now().toISOString());
          other.close();
        },
      };
      expect(() => replayProjections({ dataDir: t.dataDir, progress })).toThrow('the history was compacted during the replay; run replay again');
      // Nothing swapped, nothing left behind.
      expect(count()).toBe(before);
      expect(sqlite().prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'replay_%'").pluck().all()).toEqual([]);
      // The interrupted compaction is in force and finished by the next one to the same point.
      expect((await t.client.get(`${SERVICES}/default/services?resourceVersion=${horizon - 1}&resourceVersionMatch=Exact`)).status).toBe(410);
      const outcome = await compactTo(t, horizon);
      expect(outcome.kind).toBe('compacted');
      expect(count()).toBeLessThan(before);
      expect((await verifyProjections({ dataDir: t.dataDir, maxDifferences: 5, progress: silentProgress })).samples).toEqual([]);
    } finally {
      await t.stop();
    }
  });

  it('a store compacted before checksums (migration 0011), read unmigrated, exports its compactions without them', async () => {
    const t = await startHistoryTestServer(users);
    try {
      const head = await someHistory(t, 10);
      expect((await compactTo(t, head - 5)).kind).toBe('compacted');
      // As the release before 0011 left it: no checksum columns, 0011 not applied.
      const db = new Database(join(t.dataDir, 'svctrail.db'));
      db.pragma('busy_timeout = 5000');
      db.exec('ALTER TABLE compactions DROP COLUMN facts_checksum; ALTER TABLE compactions DROP COLUMN facts_checksum_after');
      db.close();
      let text = '';
      const exported = await exportEvents({ dataDir: t.dataDir, write: async (chunk) => void (text += chunk), progress: silentProgress });
      expect(exported.complete).toBe(true);
      const last = JSON.parse(text.trimEnd().split('\n').pop()!) as { compaction: { id: number; facts?: unknown } };
      expect(last.compaction.id).toBe(1);
      expect(last.compaction.facts).toBeUndefined();
      // The read commands, which open such a store unmigrated, read its horizon only.
      const history = await runCliInProcess(['history', 'default/web', '--data-dir', t.dataDir]);
      expect([history.code, history.stderr]).toEqual([0, '']);
      expect(history.stdout).toContain('lb-controller');
    } finally {
      await t.stop();
    }
  });

  it('a point-in-time copy below the horizon is refused; at or above it, the copy is compacted as its source', async () => {
    const t = await startHistoryTestServer(users);
    const root = mkdtempSync(join(tmpdir(), 'svctrail-compacted-copy-'));
    try {
      const head = await someHistory(t, 12);
      const outcome = await compactTo(t, head - 6);
      if (outcome.kind !== 'compacted') throw new Error(`not compacted: ${outcome.kind}`);
      const horizon = outcome.compaction.horizon.resourceVersion;
      const until = (resourceVersion: number, out: string) =>
        buildPointInTime({ dataDir: t.dataDir, until: { kind: 'resourceVersion', resourceVersion }, outDir: join(root, out), progress: silentProgress });
      expect(() => until(horizon - 1, 'below')).toThrow(`the history is compacted up to resourceVersion ${horizon}`);
      until(head, 'above');
      const copy = new Database(join(root, 'above', 'svctrail.db'), { readonly: true });
      try {
        const count = (sql: string) => copy.prepare(sql).pluck().get(horizon) as number;
        const source = new Database(join(t.dataDir, 'svctrail.db'), { readonly: true });
        try {
          // The same compaction recorded, the same revisions moved below the horizon, the same anchors kept.
          expect(copy.prepare('SELECT horizon_resource_version FROM compactions').pluck().all()).toEqual([horizon]);
          for (const sql of ['SELECT count(*) FROM revision_facts WHERE resource_version <= ?', 'SELECT count(*) FROM service_revisions WHERE resource_version <= ?']) {
            expect([sql, count(sql)]).toEqual([sql, source.prepare(sql).pluck().get(horizon)]);
          }
          expect(count('SELECT count(*) FROM revision_facts WHERE resource_version <= ?')).toBeGreaterThan(0);
        } finally {
          source.close();
        }
      } finally {
        copy.close();
      }
    } finally {
      await t.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('svctrail compact beside a writing server: every write succeeds, the freed pages go back to the file system, verify and replay stay clean', async () => {
    buildDist();
    const t = await startHistoryTestServer(users);
    try {
      await someHistory(t, 400);
      // The database's size as a new reader sees it (pages × page size): the file is cut to it at
      // the next checkpoint, which the server, not the CLI, runs while the server holds the WAL;
      // and how much of it the revisions take.
      const bytes = (horizon = 0) => {
        const db = new Database(join(t.dataDir, 'svctrail.db'), { readonly: true });
        try {
          const revisions = db.prepare(`SELECT sum(pgsize) FROM dbstat WHERE name IN ('service_revisions', 'sqlite_autoindex_service_revisions_1')`).pluck().get() as number;
          const pages = (pragma: string) => (db.pragma(pragma, { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
          const objectsAtOrBelow = db.prepare('SELECT count(*) FROM service_revisions WHERE resource_version <= ?').pluck().get(horizon) as number;
          return { file: pages('page_count'), free: pages('freelist_count'), revisions, objectsAtOrBelow };
        } finally {
          db.close();
        }
      };
      const before = bytes();
      // A controller keeps writing while the CLI compacts; the slowest of its writes is recorded.
      let writing = true;
      let worstMs = 0;
      let writes = 0;
      const writer = (async () => {
        for (let i = 0; writing; i++) {
          const started = performance.now();
          await putStatus(t.as('lb-controller'), 'default', 'web', status([ADDRESSES[i % 2]], i % 2 ? 'True' : 'False', START), 'lb/1');
          worstMs = Math.max(worstMs, performance.now() - started);
          writes++;
        }
      })();
      const head = Number((await t.client.get('/api/v1/services?limit=1')).json.metadata.resourceVersion);
      const horizon = head - 20;
      const run = await runBuiltCli(['compact', '--before', String(horizon), '--data-dir', t.dataDir, '-o', 'json']);
      writing = false;
      await writer;
      expect([run.code, run.stderr.includes('Error') ? run.stderr : '']).toEqual([0, '']);
      const report = JSON.parse(run.stdout) as {
        result: string;
        compaction: { removed: { objects: number } };
        databaseBytes: { before: number; after: number };
        lock: { transactions: number; longestMs: number };
      };
      expect(report.result).toBe('compacted');
      // Short transactions, each recorded: several batches and vacuum steps, none holding the lock for long.
      expect(report.lock.transactions).toBeGreaterThan(1);
      expect(report.lock.longestMs).toBeGreaterThan(0);
      expect(report.compaction.removed.objects).toBeGreaterThan(350);
      expect(writes).toBeGreaterThan(0);
      const after = bytes(horizon);
      process.stdout.write(
        `compaction beside a writing server: ${writes} writes, the slowest ${worstMs.toFixed(1)} ms; its ${report.lock.transactions} transactions held the lock ${report.lock.longestMs} ms at most; database ${before.file} → ${after.file} bytes (free ${before.free} → ${after.free}), revisions ${before.revisions} → ${after.revisions}\n`,
      );
      // The objects went (at or below the horizon only the anchors of the four Services stay) and
      // their pages went back to the file system: none is left free in the file. (How much the
      // file shrinks depends on what the writer added meanwhile: with encoded objects, 350 objects
      // are ~60 KB, less than a slow run's writes.)
      expect(after.objectsAtOrBelow).toBe(NAMES.length + 1);
      expect(after.revisions).toBeLessThan(before.revisions);
      expect(after.free).toBeLessThanOrEqual(before.free);
      // The compaction ran beside the server as a process; what it left is checked in process.
      expect((await runCliInProcess(['verify', '--data-dir', t.dataDir])).code).toBe(0);
      const replay = await runCliInProcess(['replay', '--data-dir', t.dataDir]);
      expect([replay.code, replay.stdout]).toEqual([0, expect.stringMatching(/; 0 rows changed;/)]);
      const old = await t.client.get(`${SERVICES}/default/services/web?resourceVersion=5&resourceVersionMatch=Exact`);
      expect(old.status).toBe(410);
    } finally {
      await t.stop();
    }
  });

  it('the feed shows each compaction after the newest write when it began, catching up and live', async () => {
    const t = await startHistoryTestServer(users);
    try {
      const head = await someHistory(t, 6);
      t.clock.advance(1000);
      const first = await compactTo(t, head - 3);
      if (first.kind !== 'compacted') throw new Error(`not compacted: ${first.kind}`);
      t.clock.advance(1000);
      const after = Number((await putStatus(t.as('lb-controller'), 'default', 'web', status(['198.51.100.9']), 'lb/1')).metadata.resourceVersion);
      // Catching up: the compaction between the write that was the head and the next one.
      const backlog = await t.client.stream(`${HISTORY}/feed?after=${head - 1}`);
      const lines = await backlog.take(4, 5000);
      expect(lines.map((l) => [l.kind, l.metadata.resourceVersion])).toEqual([
        ['ServiceChange', String(head)],
        ['Compaction', String(head)],
        ['ServiceChange', String(after)],
      ]);
      expect(lines[1]).toMatchObject({ horizon: first.compaction.horizon, actor: { user: 'test:compactor' }, removed: first.compaction.removed });
      // A reader already past it does not get it again.
      const later = await t.client.stream(`${HISTORY}/feed?after=${head}`);
      expect((await later.take(2, 5000)).map((l) => l.kind)).toEqual(['ServiceChange']);
      // Live: a compaction finished while a follower waits reaches it.
      const follower = await t.client.stream(`${HISTORY}/feed?after=${after}&follow=true&timeoutSeconds=30`);
      t.clock.advance(1000);
      expect((await compactTo(t, after)).kind).toBe('compacted');
      const [live] = await follower.take(1, 10_000);
      follower.close();
      expect(live).toMatchObject({ kind: 'Compaction', metadata: { name: 'compaction-2', resourceVersion: String(after) }, horizon: { resourceVersion: after } });
    } finally {
      await t.stop();
    }
  });

  it('--history-retention compacts by itself: the horizon is the newest write older than the retention', async () => {
    await retentionCompactsByItself({});
  });
});

describePostgres('compaction on PostgreSQL: an import', (database) => {
  it('an export of a compacted SQLite store imported into PostgreSQL answers as the original, 410s included', async () => {
    const url = () => database().url;
    await importedAnswersAsOriginal({
      import: (lines) => importPgEvents({ url: url(), lines, progress: silentProgress }),
      verify: async () => (await verifyPgProjections({ url: url(), maxDifferences: 5, progress: silentProgress })).differences,
      start: (clock) => startTestServer({ clock, config: { storageUrl: url() } }),
    });
  });
});

describePostgres('compaction on PostgreSQL', (database) => {
  it('--history-retention compacts by itself there too', async () => {
    await retentionCompactsByItself({ storageUrl: database().url });
  });
});

/** A server with a 3 s retention compacts by itself, up to the newest write older than 3 s. */
async function retentionCompactsByItself(config: { storageUrl?: string }): Promise<void> {
  const clock = new FixedClock(new Date(START));
  const t = await startTestServer({ clock, config: { ...config, historyRetention: '3s' } });
  try {
    const create = async (name: string) => {
      const res = await t.client.post(`${SERVICES}/default/services`, service(name));
      expect(res.status).toBe(201);
      return Number(res.json.metadata.resourceVersion);
    };
    await create('old-1');
    const old = await create('old-2');
    clock.advance(10_000);
    await create('new-1');
    // Every tenth of 3 s the server compacts up to (now - 3 s): the writes made 10 s ago.
    let items: { horizon: { resourceVersion: number }; actor: { user: string }; finishedAt?: string }[] = [];
    for (let tries = 0; tries < 100 && !items.some((i) => i.finishedAt); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      items = (await t.client.get(`${HISTORY}/compactions`)).json.items;
    }
    expect(items).toEqual([expect.objectContaining({ horizon: expect.objectContaining({ resourceVersion: old }), actor: { user: 'system:svctrail:history-retention' } })]);
    expect((await t.client.get(`${SERVICES}/default/services/old-1?resourceVersion=${old - 1}&resourceVersionMatch=Exact`)).status).toBe(410);
    expect((await t.client.get(`${SERVICES}/default/services/old-2?resourceVersion=${old}&resourceVersionMatch=Exact`)).status).toBe(200);
  } finally {
    await t.stop();
  }
}

/**
 * Exports a compacted SQLite store, imports it with `target`, and compares every fact answer and
 * the answers at and below the horizon (410s included) of a server on the import with the original's.
 */
async function importedAnswersAsOriginal(target: {
  import: (lines: AsyncIterable<string>) => Promise<unknown>;
  verify: () => Promise<number>;
  start: (clock: FixedClock) => Promise<Awaited<ReturnType<typeof startTestServer>>>;
}): Promise<void> {
  const t = await startHistoryTestServer(users);
  let copy: Awaited<ReturnType<typeof startTestServer>> | undefined;
  try {
    const head = await someHistory(t, 20);
    const horizon = head - 10;
    expect((await compactTo(t, horizon)).kind).toBe('compacted');
    let text = '';
    const exported = await exportEvents({ dataDir: t.dataDir, write: async (chunk) => void (text += chunk), progress: silentProgress });
    expect(exported.complete).toBe(true);
    expect(text.trimEnd().split('\n').pop()).toMatch(/^\{"compaction":\{"id":1,"horizon":\{"resourceVersion":\d+/);
    async function* lines() {
      yield* text.split('\n');
    }
    await target.import(lines());
    expect(await target.verify()).toBe(0);
    copy = await target.start(new FixedClock(t.clock.now()));
    const answers = async (client: HttpsClient) => {
      const out = await facts(client);
      for (const path of [
        `${SERVICES}/default/services/web?resourceVersion=${horizon - 1}&resourceVersionMatch=Exact`,
        `${SERVICES}/default/services?resourceVersion=${horizon - 1}&resourceVersionMatch=Exact`,
        `${SERVICES}/default/services?resourceVersion=${horizon}&resourceVersionMatch=Exact`,
        `${SERVICES}/default/services/web?resourceVersion=${horizon}&resourceVersionMatch=Exact`,
        `${HISTORY}/compactions`,
      ]) {
        const res = await client.get(path);
        out[path] = `${res.status} ${res.text}`;
      }
      return out;
    };
    const original = await answers(t.client);
    expect(original[`${SERVICES}/default/services?resourceVersion=${horizon - 1}&resourceVersionMatch=Exact`]).toBe(`410 ${EXPIRED_LIST}`);
    const imported = await answers(copy.client);
    expect(Object.keys(original).filter((path) => imported[path] !== original[path])).toEqual([]);
  } finally {
    await copy?.stop();
    await t.stop();
  }
}
