// A mirror's facts in maintenance (src/maintenance/mirror-facts.ts): the rows the log cannot
// rebuild — the source cluster and its resume points, where each write came from, who made it
// (audit actors) and the audit events waiting for their write — on a store written through the
// real write path, with a mirror's rows beside its writes. Export carries them and import
// restores them on either engine; windows and point-in-time copies hold what was known at their
// point; verify checks what the log vouches for; replay leaves them as they are.
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHistory } from '../../src/cli/history-reader';
import { decodeEventLine } from '../../src/maintenance/event-line';
import { exportEvents } from '../../src/maintenance/event-exporter';
import { importEvents } from '../../src/maintenance/event-importer';
import { parseLogPoint } from '../../src/maintenance/log-point';
import { buildPointInTime } from '../../src/maintenance/point-in-time-copy';
import { exportPgEvents } from '../../src/maintenance/postgres/pg-event-exporter';
import { importPgEvents } from '../../src/maintenance/postgres/pg-event-importer';
import { replayPgProjections } from '../../src/maintenance/postgres/pg-projection-replayer';
import { verifyPgProjections } from '../../src/maintenance/postgres/pg-projection-verifier';
import { replayProjections } from '../../src/maintenance/projection-replayer';
import { verifyProjections } from '../../src/maintenance/projection-verifier';
import { silentProgress } from '../../src/maintenance/progress';
import { READ_ONLY_MESSAGE } from '../../src/maintenance/read-only-guard';
import { openPostgres, type PostgresHandle } from '../../src/store/postgres/postgres-database';
import { type AppContext, createAppContext } from '../helpers/app-context';
import { runCliInProcess } from '../helpers/cli-in-process';
import { createTestDatabase, describePostgres, dropTestDatabase } from '../helpers/postgres';
import { StoreWriter } from './store-fixture';

/** Every row of the mirror's tables, in key order: what "the same facts" means. */
const MIRROR_TABLES: Record<string, string> = {
  mirror_source: 'SELECT id, cluster_uid, server, resource_version, updated_at, events_resource_version FROM mirror_source ORDER BY id',
  observed_writes: 'SELECT resource_version, source_resource_version, via, observed_at FROM observed_writes ORDER BY resource_version',
  audit_actors: `SELECT resource_version, audit_id, "user", groups, user_agent, source_ips, verb, request_received_at, identified_at FROM audit_actors ORDER BY resource_version`,
  pending_audit_events: 'SELECT audit_id, namespace, name, source_resource_version, write, received_at FROM pending_audit_events ORDER BY audit_id',
};

function sqliteMirrorRows(dbPath: string): Record<string, unknown[]> {
  const db = new Database(dbPath, { readonly: true });
  try {
    return Object.fromEntries(Object.entries(MIRROR_TABLES).map(([table, sql]) => [table, db.prepare(sql).all()]));
  } finally {
    db.close();
  }
}

async function pgMirrorRows(handle: PostgresHandle): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, sql] of Object.entries(MIRROR_TABLES)) out[table] = (await handle.pool.query(sql.replace('ORDER BY audit_id', 'ORDER BY audit_id COLLATE "C"'))).rows;
  return out;
}

async function exportText(dataDir: string, window: { since?: string; until?: string } = {}) {
  let text = '';
  const report = await exportEvents({
    dataDir,
    since: window.since ? parseLogPoint(window.since, '--since') : undefined,
    until: window.until ? parseLogPoint(window.until, '--until') : undefined,
    write: async (chunk) => void (text += chunk),
    progress: silentProgress,
  });
  return { text, report };
}

async function* linesOf(text: string) {
  for (const line of text.split('\n')) yield line;
}

const parsed = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>);
const kindOf = (line: Record<string, unknown>) => ('position' in line ? 'event' : Object.keys(line)[0]);
const factsOf = (text: string, kind: string) => parsed(text).filter((l) => kindOf(l) === kind);

const WRITE_GROUPS = ['system:authenticated'];
const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/**
 * A mirror's rows beside the store's writes, as a mirror records them: the source (both resume
 * points), each write's observation (the first ones from the first list), an audit actor for
 * some writes (one learned long after the last write), and two audit events still waiting.
 */
function recordMirrorFacts(dbPath: string): { writes: { rv: number; at: string }[] } {
  const db = new Database(dbPath);
  try {
    const writes = (db.prepare('SELECT DISTINCT resource_version AS rv, recorded_at AS at FROM events WHERE position = resource_version ORDER BY 1').all() as { rv: number; at: string }[]).slice(1);
    db.prepare(
      `INSERT INTO mirror_source (id, cluster_uid, server, resource_version, updated_at, events_resource_version) VALUES (1, 'c1a5-uid', 'https://source.example:6443', '9100', ?, '9090')`,
    ).run(writes.at(-1)!.at);
    const observe = db.prepare('INSERT INTO observed_writes (resource_version, source_resource_version, via, observed_at) VALUES (?, ?, ?, ?)');
    writes.forEach((w, i) => observe.run(w.rv, String(9000 + w.rv), i < 3 ? 'list' : 'watch', later(w.at, -5)));
    const actor = db.prepare(
      'INSERT INTO audit_actors (resource_version, audit_id, user, groups, user_agent, source_ips, verb, request_received_at, identified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // Learned 400 ms after its write (before the next), 30 s after, and long after the last write.
    for (const [i, delay] of [
      [3, 400],
      [4, 30_000],
      [6, 3_600_000_000],
    ] as const) {
      actor.run(writes[i].rv, `audit-${i}`, `user-${i}`, JSON.stringify(WRITE_GROUPS), `agent/${i}`, JSON.stringify(['10.0.0.' + i]), 'update', later(writes[i].at, -10), later(writes[i].at, delay));
    }
    const pending = db.prepare('INSERT INTO pending_audit_events (audit_id, namespace, name, source_resource_version, write, received_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (const id of ['zz-waiting', 'aa-waiting']) {
      const write = {
        auditID: id,
        namespace: 'default',
        name: 'web',
        sourceResourceVersion: `99${id.length}`,
        verb: 'patch',
        user: 'late',
        groups: [],
        userAgent: '',
        sourceIPs: [],
        requestReceivedTimestamp: '',
      };
      pending.run(id, write.namespace, write.name, write.sourceResourceVersion, JSON.stringify(write), writes.at(-1)!.at);
    }
    return { writes };
  } finally {
    db.close();
  }
}

describe("maintenance carries a mirror's facts", () => {
  let ctx: AppContext;
  let dbPath: string;
  let root: string;
  let writes: { rv: number; at: string }[];
  let whole: string;

  beforeAll(async () => {
    ctx = await createAppContext(7);
    const writer = new StoreWriter(ctx);
    await writer.history();
    await writer.eventHistory();
    dbPath = join(ctx.dataDir, 'svctrail.db');
    ({ writes } = recordMirrorFacts(dbPath));
    root = mkdtempSync(join(tmpdir(), 'svctrail-mirror-facts-'));
    whole = (await exportText(ctx.dataDir)).text;
  });
  afterAll(async () => {
    await ctx?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('a whole export writes them after the events, each as it means, and an import restores every row: its export is the same text', async () => {
    const lines = parsed(whole);
    const kinds = lines.map(kindOf);
    const firstFact = kinds.indexOf('mirrorSource');
    expect(kinds.slice(0, firstFact).every((k) => k === 'event')).toBe(true);
    expect([...new Set(kinds.slice(firstFact))]).toEqual(['mirrorSource', 'observedWrite', 'auditActor', 'pendingAuditEvent']);
    expect(lines[firstFact]).toEqual({
      mirrorSource: { clusterUid: 'c1a5-uid', server: 'https://source.example:6443', resumeFrom: { services: '9100', events: '9090' }, updatedAt: writes.at(-1)!.at },
    });
    expect(factsOf(whole, 'observedWrite')).toHaveLength(writes.length);
    expect(factsOf(whole, 'observedWrite')[3]).toEqual({
      observedWrite: { resourceVersion: writes[3].rv, source: { resourceVersion: String(9000 + writes[3].rv), observedAt: later(writes[3].at, -5), via: 'watch' } },
    });
    expect(factsOf(whole, 'auditActor')[0]).toEqual({
      auditActor: {
        resourceVersion: writes[3].rv,
        auditID: 'audit-3',
        verb: 'update',
        user: 'user-3',
        groups: WRITE_GROUPS,
        userAgent: 'agent/3',
        sourceIPs: ['10.0.0.3'],
        requestReceivedTimestamp: later(writes[3].at, -10),
        identifiedAt: later(writes[3].at, 400),
      },
    });
    // Waiting audit events by their audit ID, byte order.
    expect(factsOf(whole, 'pendingAuditEvent').map((l) => [l.pendingAuditEvent.write.auditID, l.pendingAuditEvent.receivedAt])).toEqual([
      ['aa-waiting', writes.at(-1)!.at],
      ['zz-waiting', writes.at(-1)!.at],
    ]);

    const target = join(root, 'imported');
    const imported = await importEvents({ dataDir: target, lines: linesOf(whole), progress: silentProgress });
    expect(imported.mirrorFacts).toBe(1 + writes.length + 3 + 2);
    expect(sqliteMirrorRows(join(target, 'svctrail.db'))).toEqual(sqliteMirrorRows(dbPath));
    expect((await exportText(target)).text).toBe(whole);
    const verified = await verifyProjections({ dataDir: target, maxDifferences: 20, progress: silentProgress });
    expect(verified.differences).toBe(0);
    expect(verified.tables.filter((t) => ['observed_writes', 'audit_actors'].includes(t.table))).toEqual([
      { table: 'observed_writes', liveRows: writes.length, foldedRows: writes.length, differences: 0 },
      { table: 'audit_actors', liveRows: 3, foldedRows: 3, differences: 0 },
    ]);
    // The history of the imported store says where each write came from and who made it, as the original's does.
    const answers = async (dataDir: string) => {
      const reader = await openHistory({ engine: 'sqlite', dataDir });
      try {
        return [
          (await reader.changes.list({}, { limit: '500' })).encoded.object,
          await reader.ingress.owners({ address: '203.0.113.8' }),
          await reader.conditions.transitions({}, {}),
          await reader.events.list({}, {}),
        ].map((answer) => JSON.stringify(answer));
      } finally {
        await reader.close();
      }
    };
    const original = await answers(ctx.dataDir);
    expect(original[0]).toContain('"auditID":"audit-3"');
    expect(original[1]).toContain('"setByKind":"audit"');
    expect(await answers(target)).toEqual(original);
  });

  it('a window holds the facts of its writes; cut --until a point, the actors known then and no resume point nor waiting audit event', async () => {
    const [since, until] = [writes[2], writes[6]];
    const { text, report } = await exportText(ctx.dataDir, { since: String(since.rv), until: String(until.rv) });
    expect(report.mirrorFacts).toBe(1 + 4 + 1);
    expect(factsOf(text, 'mirrorSource')).toEqual([
      { mirrorSource: { clusterUid: 'c1a5-uid', server: 'https://source.example:6443', resumeFrom: { services: null, events: null }, updatedAt: until.at } },
    ]);
    expect(factsOf(text, 'observedWrite').map((l) => l.observedWrite.resourceVersion)).toEqual(writes.slice(3, 7).map((w) => w.rv));
    // The actor of writes[4] was learned 30 s after it, after writes[6] was recorded; writes[6]'s long after.
    expect(factsOf(text, 'auditActor').map((l) => l.auditActor.auditID)).toEqual(['audit-3']);
    expect(factsOf(text, 'pendingAuditEvent')).toEqual([]);

    const byTime = await exportText(ctx.dataDir, { until: later(writes[4].at, 30_000) });
    expect(factsOf(byTime.text, 'auditActor').map((l) => l.auditActor.auditID)).toEqual(['audit-3', 'audit-4']);
    expect(factsOf(byTime.text, 'mirrorSource')[0].mirrorSource.updatedAt).toBe(later(writes[4].at, 30_000));

    // Without --until the window reaches the snapshot's head: the mirror's working state comes along.
    const tail = await exportText(ctx.dataDir, { since: String(since.rv) });
    expect(factsOf(tail.text, 'mirrorSource')[0].mirrorSource.resumeFrom).toEqual({ services: '9100', events: '9090' });
    expect(factsOf(tail.text, 'observedWrite')).toHaveLength(writes.length - 3);
    expect(factsOf(tail.text, 'auditActor')).toHaveLength(3);
    expect(factsOf(tail.text, 'pendingAuditEvent')).toHaveLength(2);
  });

  it('replay --until holds the facts up to its point, answers as the original did then, and refuses every write of a mirror', async () => {
    const at = later(writes[4].at, 500); // after writes[4], whose actor was not known yet
    const out = join(root, 'pit');
    const report = buildPointInTime({ dataDir: ctx.dataDir, until: parseLogPoint(at, '--until'), outDir: out, progress: silentProgress });
    expect(report).toMatchObject({ resourceVersion: writes[4].rv, mirrorFacts: 1 + 5 + 1 });
    const rows = sqliteMirrorRows(join(out, 'svctrail.db'));
    const original = sqliteMirrorRows(dbPath);
    expect(rows.observed_writes).toEqual(original.observed_writes.slice(0, 5));
    expect(rows.audit_actors).toEqual(original.audit_actors.slice(0, 1));
    expect(rows.pending_audit_events).toEqual([]);
    expect(rows.mirror_source).toEqual([{ ...(original.mirror_source[0] as object), resource_version: null, events_resource_version: null, updated_at: at }]);
    // Its history equals the original's as known then.
    const changes = async (dataDir: string, query: Record<string, string>) => {
      const reader = await openHistory({ engine: 'sqlite', dataDir });
      try {
        return ((await reader.changes.list({ namespace: 'default', name: 'web' }, query)).encoded.object as { items: unknown[] }).items;
      } finally {
        await reader.close();
      }
    };
    expect(await changes(out, {})).toEqual(await changes(ctx.dataDir, { until: at }));
    expect(JSON.stringify(await changes(out, {}))).toContain('"source":{');
    expect((await verifyProjections({ dataDir: out, maxDifferences: 20, progress: silentProgress })).differences).toBe(0);

    const copy = new Database(join(out, 'svctrail.db'));
    try {
      for (const statement of [
        `INSERT INTO observed_writes VALUES (999999, '1', 'watch', '2026-01-01T00:00:00.000Z')`,
        `INSERT INTO audit_actors VALUES (${writes[0].rv}, 'a', 'u', '[]', '', '[]', 'update', '', '2026-01-01T00:00:00.000Z')`,
        `INSERT INTO pending_audit_events VALUES ('p', 'default', 'web', '1', '{}', '2026-01-01T00:00:00.000Z')`,
        `UPDATE mirror_source SET resource_version = '9100'`,
        `INSERT INTO mirror_source (id, cluster_uid, server, updated_at) VALUES (2, 'x', 'y', 'z')`,
      ]) {
        expect(() => copy.prepare(statement).run()).toThrow(READ_ONLY_MESSAGE);
      }
    } finally {
      copy.close();
    }
  });

  it("verify reports a fact naming no write of the log, and replay leaves the mirror's facts as they are", async () => {
    const live = new Database(dbPath);
    const before = sqliteMirrorRows(dbPath);
    try {
      // A position inside a write of several events is no write; an actor needs an observed write.
      const inside = live.prepare('SELECT position FROM events WHERE position < resource_version ORDER BY position LIMIT 1').pluck().get() as number;
      const unobserved = live.prepare('SELECT max(resource_version) + 1 FROM observed_writes').pluck().get() as number;
      live.prepare(`INSERT INTO observed_writes VALUES (?, '1', 'watch', '2026-01-01T00:00:00.000Z')`).run(inside);
      live.prepare(`INSERT INTO audit_actors VALUES (?, 'stray', 'u', '[]', '', '[]', 'update', '', '2026-01-01T00:00:00.000Z')`).run(unobserved);
      const report = await verifyProjections({ dataDir: ctx.dataDir, maxDifferences: 20, progress: silentProgress });
      expect(report.differences).toBe(2);
      expect(report.samples.map((s) => [s.table, s.kind, s.key])).toEqual([
        ['observed_writes', 'dangling', { resource_version: inside }],
        ['audit_actors', 'dangling', { resource_version: unobserved }],
      ]);
      const printed = await runCliInProcess(['verify', '--data-dir', ctx.dataDir]);
      expect(printed.code).toBe(1);
      expect(printed.stdout).toMatch(/^observed_writes\s+\d+\s+\d+\s+1$/m);
      expect(printed.stdout).toContain(`observed_writes resource_version=${inside}: names no write of the log: {"resourceVersion":${inside},`);
      expect(printed.stdout).toContain(`audit_actors resource_version=${unobserved}: names no observed write: {"resourceVersion":${unobserved},"auditID":"stray"`);
    } finally {
      live.prepare(`DELETE FROM observed_writes WHERE source_resource_version = '1'`).run();
      live.prepare(`DELETE FROM audit_actors WHERE audit_id = 'stray'`).run();
      live.close();
    }
    expect(sqliteMirrorRows(dbPath)).toEqual(before);

    const replayed = replayProjections({ dataDir: ctx.dataDir, progress: silentProgress });
    expect(replayed.tables.map((t) => t.table)).not.toContain('observed_writes');
    expect(sqliteMirrorRows(dbPath)).toEqual(before);
    expect((await verifyProjections({ dataDir: ctx.dataDir, maxDifferences: 20, progress: silentProgress })).differences).toBe(0);
  });

  it('import refuses facts out of place, out of order or naming no write, and leaves nothing behind', async () => {
    const lines = whole.trimEnd().split('\n');
    const events = lines.filter((l) => l.startsWith('{"position":'));
    const facts = lines.filter((l) => !l.startsWith('{"position":'));
    const observed = facts.filter((l) => l.startsWith('{"observedWrite":'));
    const actors = facts.filter((l) => l.startsWith('{"auditActor":'));
    const inside = events.map((l) => JSON.parse(l)).find((e) => e.position < e.resourceVersion).position as number;
    const compaction = JSON.stringify({
      compaction: {
        id: 1,
        horizon: { resourceVersion: writes[2].rv, time: writes[2].at },
        actor: { user: 'ops' },
        startedAt: writes[3].at,
        finishedAt: writes[3].at,
        removed: { writes: 0, objects: 0, bytes: 0 },
      },
    });
    const attempt = async (input: string[]) => {
      const dir = join(root, `bad-${Math.random().toString(36).slice(2)}`);
      const error = await importEvents({ dataDir: dir, lines: linesOf(input.join('\n')), progress: silentProgress }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      return error?.message;
    };
    const line = events.length + 1;
    expect(await attempt([...events, observed[1], observed[0]])).toBe(`line ${line + 1}: resourceVersion ${writes[0].rv} does not follow ${writes[1].rv}`);
    expect(await attempt([...events, actors[0], observed[0]])).toBe(
      `line ${line + 1}: observedWrite after the auditActor lines (an export lists mirrorSource, observedWrite, auditActor, pendingAuditEvent, in this order)`,
    );
    expect(await attempt([...events, facts[0], facts[0]])).toBe(`line ${line + 1}: a second mirrorSource line (a store records one cluster)`);
    expect(await attempt([...events, observed[0], events[0]])).toBe(`line ${line + 1}: an event after the mirror's facts (they follow the log)`);
    expect(await attempt([...events, compaction, observed[0]])).toBe(`line ${line + 1}: a mirror's fact after the compaction lines (they end an export)`);
    expect(await attempt([...events, JSON.stringify({ observedWrite: { ...JSON.parse(observed[0]).observedWrite, extra: 1 } })])).toBe(`line ${line}: observedWrite has unknown field(s) extra`);
    expect(await attempt([...events, JSON.stringify({ observedWrite: { resourceVersion: 10 ** 6, source: { resourceVersion: '1', observedAt: 'x', via: 'watch' } } })])).toMatch(
      new RegExp(`^line ${line}: resourceVersion 1000000 is after the log's last write \\(\\d+\\)$`),
    );
    expect(await attempt([...events, JSON.stringify({ observedWrite: { resourceVersion: inside, source: { resourceVersion: '1', observedAt: 'x', via: 'watch' } } })])).toBe(
      `the observedWrite of resourceVersion ${inside} names no write of the log: {"resourceVersion":${inside},"sourceResourceVersion":"1","via":"watch","observedAt":"x"}`,
    );
    expect(await attempt([...events, actors[0]])).toMatch(new RegExp(`^the auditActor of resourceVersion ${writes[3].rv} names no write the mirror observed: `));
    // The facts before the compactions that end an export: imported, and exported again in that order.
    const compacted = join(root, 'compacted');
    await importEvents({ dataDir: compacted, lines: linesOf([...events, ...facts, compaction].join('\n')), progress: silentProgress });
    expect(
      parsed((await exportText(compacted)).text)
        .map(kindOf)
        .slice(-2),
    ).toEqual(['pendingAuditEvent', 'compaction']);
  });

  it('an export without mirror lines still imports; an older svctrail reads a mirror line as an event line and refuses it', async () => {
    const old = whole
      .split('\n')
      .filter((l) => !l.startsWith('{"mirrorSource":') && !l.startsWith('{"observedWrite":') && !l.startsWith('{"auditActor":') && !l.startsWith('{"pendingAuditEvent":'))
      .join('\n');
    const target = join(root, 'old');
    expect((await importEvents({ dataDir: target, lines: linesOf(old), progress: silentProgress })).mirrorFacts).toBe(0);
    expect(sqliteMirrorRows(join(target, 'svctrail.db'))).toEqual({ mirror_source: [], observed_writes: [], audit_actors: [], pending_audit_events: [] });
    // Before these lines, every line but a compaction's was decoded as an event: the first mirror line fails the import.
    const first = whole.split('\n').find((l) => l.startsWith('{"mirrorSource":'))!;
    expect(() => decodeEventLine(first, 42)).toThrow('line 42: unknown field(s) mirrorSource');
  });

  describePostgres('… between SQLite and PostgreSQL', (database) => {
    let pg: PostgresHandle;
    beforeAll(async () => {
      pg = await openPostgres(database().url);
    });
    afterAll(async () => {
      await pg?.close();
    });

    it('imports them into PostgreSQL as they are, exports the same bytes, verifies them, and replay there leaves them', async () => {
      const report = await importPgEvents({ url: database().url, lines: linesOf(whole), progress: silentProgress });
      expect(report.mirrorFacts).toBe(1 + writes.length + 3 + 2);
      expect(await pgMirrorRows(pg)).toEqual(sqliteMirrorRows(dbPath));
      let text = '';
      await exportPgEvents({ url: database().url, write: async (chunk) => void (text += chunk), progress: silentProgress });
      expect(text).toBe(whole);
      const verified = await verifyPgProjections({ url: database().url, maxDifferences: 20, progress: silentProgress });
      expect(verified.differences).toBe(0);
      expect(verified.tables.map((t) => t.table).slice(-2)).toEqual(['observed_writes', 'audit_actors']);

      const inside = Number((await pg.pool.query('SELECT position FROM events WHERE position < resource_version ORDER BY position LIMIT 1')).rows[0].position);
      await pg.pool.query(`INSERT INTO observed_writes VALUES ($1, '1', 'watch', '2026-01-01T00:00:00.000Z')`, [inside]);
      const tampered = await verifyPgProjections({ url: database().url, maxDifferences: 20, progress: silentProgress });
      expect(tampered.samples.map((s) => [s.table, s.kind, s.key])).toEqual([['observed_writes', 'dangling', { resource_version: inside }]]);
      await pg.pool.query(`DELETE FROM observed_writes WHERE resource_version = $1`, [inside]);

      const replayed = await replayPgProjections({ url: database().url, progress: silentProgress });
      expect(replayed.tables.map((t) => t.table)).not.toContain('observed_writes');
      expect(await pgMirrorRows(pg)).toEqual(sqliteMirrorRows(dbPath));
    });

    it("refuses a database that holds a mirror's facts already", async () => {
      const other = await createTestDatabase();
      const handle = await openPostgres(other.url);
      try {
        await handle.pool.query(`INSERT INTO mirror_source (id, cluster_uid, server, updated_at) VALUES (1, 'someone', 'https://elsewhere', 'now')`);
        await expect(importPgEvents({ url: other.url, lines: linesOf(whole), progress: silentProgress })).rejects.toThrow(/is not empty \(rows in mirror_source\)/);
      } finally {
        await handle.close();
        await dropTestDatabase(other.name);
      }
    });
  });
});
