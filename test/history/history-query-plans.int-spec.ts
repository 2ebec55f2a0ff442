// Every history query is an index lookup or an index range scan: no plan step reads a whole
// table (kube-apiserver-style lists must not cost more as unrelated history grows). The plans
// are checked on a database migrated by the real migrations, for every scope and filter shape.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeHistoryRepository } from '../../src/store/change-history-repository';
import { ConditionHistoryRepository } from '../../src/store/condition-history-repository';
import { type DatabaseHandle, openDatabase } from '../../src/store/database';
import { IngressHistoryRepository } from '../../src/store/ingress-history-repository';
import { KubeEventHistoryRepository } from '../../src/store/kube-event-history-repository';
import { SqlParams } from '../../src/store/sql/sql-reader';
import { SqliteSqlReader } from '../../src/store/sqlite-sql-reader';

/** The values of every filter a query may have (the planner needs bound values, not these ones). */
const VALUES = {
  fromRv: 1,
  toRv: 100,
  uid: 'u',
  namespace: 'ns',
  name: 'n',
  actor: 'alice',
  eventType: 'ServiceCreated',
  fieldManager: 'fm',
  conditionType: 'Ready',
  status: 'True',
  address: '1.2.3.4',
  addressType: 'ip',
  setBy: 'bob',
};
const pick = (filters: Record<string, unknown>) =>
  Object.fromEntries(
    Object.keys(filters)
      .filter((k) => k in VALUES)
      .map((k) => [k, VALUES[k as keyof typeof VALUES]]),
  );

/** Each subset of the optional keys, so every combination of filters is planned. */
function subsets<T extends string>(keys: readonly T[]): Partial<Record<T, string>>[] {
  return Array.from({ length: 1 << keys.length }, (_, mask) => Object.fromEntries(keys.filter((_, i) => mask & (1 << i)).map((k) => [k, 'x'])) as Partial<Record<T, string>>);
}

describe('history query plans', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-plans-'));
    handle = openDatabase({ path: join(dir, 'plans.db'), migrationsFolder: join(__dirname, '../../migrations'), synchronous: 'NORMAL' });
  });
  afterAll(() => {
    handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `$1`, `$2`… bound by name, as SqliteSqlReader binds them. */
  const plan = (sql: string, values: readonly unknown[] = []) =>
    (handle.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(Object.fromEntries(values.map((v, i) => [i + 1, v]))) as { detail: string }[]).map((r) => r.detail);

  /** A full scan is a SCAN step without an index (a covering or virtual-table index is fine). */
  const fullScans = (sql: string, values?: readonly unknown[]) =>
    plan(sql, values).filter((d) => /^SCAN /.test(d) && !/USING (COVERING )?INDEX|VIRTUAL TABLE INDEX [12]:|USING INTEGER PRIMARY KEY/.test(d));
  const reader = () => new SqliteSqlReader(handle);
  /** A change-history round's SQL and values ($1–$4: its bounds and batch). */
  const changesRound = (sqlOf: (repo: ChangeHistoryRepository, params: SqlParams) => string) => {
    const params = new SqlParams(1, 100, 1, 10);
    return { sql: sqlOf(new ChangeHistoryRepository(reader()), params), values: params.values };
  };

  it.each(subsets(['uid', 'namespace', 'name', 'actor', 'eventType', 'fieldManager'] as const))('changes %j', (filters) => {
    // An actor as a converted store reads it (by its text's id), and as a store still converting does (by each row's text).
    for (const actorId of 'actor' in filters ? [1, undefined] : [undefined]) {
      const { sql, values } = changesRound((repo, params) => repo.rangeSql(pick(filters), params, undefined, actorId));
      expect(fullScans(sql, values)).toEqual([]);
      if (actorId !== undefined && !('uid' in filters || 'namespace' in filters || 'name' in filters)) expect(plan(sql, values).join('\n')).toMatch(/USING INDEX events_actor_position/);
    }
    const { sql, values } = changesRound((repo, params) => repo.rangeSql(pick(filters), params));
    // Unfiltered, the range is the primary key.
    if (Object.keys(filters).length === 0) expect(plan(sql, values).join('\n')).toMatch(/SEARCH events USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
  });

  it.each(subsets(['uid', 'namespace', 'name', 'actor', 'fieldManager'] as const))('changes read as whole writes %j', (filters) => {
    const { sql, values } = changesRound((repo, params) => repo.storedWritesSql(pick(filters), params, 'actor' in filters ? 1 : undefined));
    expect(fullScans(sql, values)).toEqual([]);
    // Each write's stored patch is one lookup of its revision by (uid, resourceVersion).
    expect(plan(sql, values).join('\n')).toMatch(/SEARCH r USING (COVERING )?INDEX \w+ \(uid=\? AND resource_version=\?\)|SEARCH r USING PRIMARY KEY \(uid=\? AND resource_version=\?\)/);
  });

  it.each(subsets(['uid', 'namespace', 'name', 'conditionType', 'status', 'actor', 'after'] as const))('condition transitions %j', (filters) => {
    const range = { ...pick(filters), fromRv: 1, toRv: 100, after: filters.after ? { rv: 1, id: 1 } : undefined };
    const { sql, values } = new ConditionHistoryRepository(reader()).rangeQuery(range, 10);
    expect(fullScans(sql, values)).toEqual([]);
    // The actor's details come from the write's last event: a primary-key lookup.
    expect(plan(sql, values).join('\n')).toMatch(/SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/);
  });

  it.each(subsets(['involved', 'namespace', 'involvedUid', 'type', 'reason', 'reportingController'] as const))('event occurrences %j', (filters) => {
    const range = { ...filters, involved: filters.involved ? { kind: 'Service', namespace: 'ns', name: 'n' } : undefined, fromRv: 1, toRv: 100 };
    const { sql, values } = new KubeEventHistoryRepository(reader()).rangeQuery(range, 10);
    expect(fullScans(sql, values)).toEqual([]);
    // The scope's range in resourceVersion order (no sort), each Event as written a primary-key lookup of the log.
    const steps = plan(sql, values).join('\n');
    if (filters.involved)
      expect(steps).toMatch(/^SEARCH o USING (COVERING )?INDEX kube_event_occurrences_involved \(involved_namespace=\? AND involved_name=\? AND resource_version>\? AND resource_version<\?\)$/m);
    else if (filters.namespace) expect(steps).toMatch(/^SEARCH o USING (COVERING )?INDEX kube_event_occurrences_namespace \(namespace=\? AND resource_version>\? AND resource_version<\?\)$/m);
    else expect(steps).toMatch(/^SEARCH o USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)$/m);
    expect(steps).toMatch(/^SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)$/m);
    expect(steps).not.toMatch(/TEMP B-TREE/);
  });

  it.each(subsets(['namespace', 'name'] as const))('condition summary services %j', (filters) => {
    const { sql, values } = new ConditionHistoryRepository(reader()).servicesQuery({ ...pick(filters), after: { namespace: '', name: '', uid: '' } }, 10);
    expect(fullScans(sql, values)).toEqual([]);
  });

  it.each(subsets(['uid', 'namespace', 'name', 'address', 'addressType', 'setBy', 'windowed', 'after'] as const))('ingress intervals %j', (filters) => {
    const range = { ...pick(filters), fromRv: 1, toRv: 100, windowed: !!filters.windowed, after: filters.after ? { from: 1, id: 1 } : undefined };
    const { sql, values } = new IngressHistoryRepository(reader()).intervalsQuery(range, 10);
    expect(fullScans(sql, values)).toEqual([]);
    // Across a namespace or the cluster, a window is an R*Tree search over closed intervals
    // driving the lookups, merged with the open ones found by their start.
    if (filters.windowed && !filters.uid && !filters.address && !filters.name) {
      expect(plan(sql, values).join('\n')).toMatch(/SCAN s VIRTUAL TABLE INDEX 2:[\s\S]*SEARCH ingress_intervals USING INDEX ingress_intervals_open_from \(from_resource_version/);
    }
  });

  it.each(
    subsets(['uid', 'namespace', 'name', 'address', 'after'] as const).flatMap(
      (f) =>
        [
          [f, 'first'],
          [f, 'second'],
        ] as const,
    ),
  )('ingress conflicts %j %s side', (filters, side) => {
    const range = { ...pick(filters), fromRv: 1, toRv: 100, after: filters.after ? { secondFrom: 1, secondId: 1, firstId: 1 } : undefined };
    const { sql, values } = new IngressHistoryRepository(reader()).conflictsQuery(range, side, 10);
    expect(fullScans(sql, values)).toEqual([]);
    // The other side of a conflict is found through the address index, among the other holders
    // only: two uid ranges on either side of the driver's own.
    expect(plan(sql, values).join('\n')).toMatch(
      /MULTI-INDEX OR\nINDEX 1\nSEARCH [ab] USING INDEX ingress_intervals_address_uid_from \(address=\? AND uid[<>]\?\)\nINDEX 2\nSEARCH [ab] USING INDEX ingress_intervals_address_uid_from \(address=\? AND uid[<>]\?\)/,
    );
  });

  it('point lookups: positions from times, writes by resourceVersion, revisions around a write', () => {
    for (const sql of [
      'SELECT recorded_at FROM events WHERE position = $2',
      'SELECT position, resource_version AS rv FROM events WHERE position <= $2 ORDER BY position DESC',
      'SELECT * FROM events WHERE position >= $2 AND position <= $3 ORDER BY position',
      // A write's events (ChangeHistoryRepository: EVENTS_OF_WRITE).
      `SELECT * FROM events WHERE position <= $2 AND position > coalesce((SELECT position FROM events WHERE position <= $2 AND resource_version <> $2 ORDER BY position DESC LIMIT 1), 0) ORDER BY position`,
      'SELECT object FROM service_revisions WHERE uid = $1 AND resource_version < $2 ORDER BY resource_version DESC LIMIT 1',
      'SELECT object FROM service_revisions WHERE uid = $1 AND resource_version = $2',
      'SELECT recorded_at FROM events WHERE stream_id = $1 AND stream_version = 1',
      'SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_version DESC LIMIT 1',
      'SELECT patch FROM service_revisions WHERE uid = $1 AND resource_version = $2',
    ]) {
      const values = ['u', 1, 100].slice(0, Math.max(...[...sql.matchAll(/\$(\d)/g)].map((m) => Number(m[1]))));
      const steps = plan(sql, values);
      expect(steps.every((d) => /^SEARCH /.test(d) || /USING (COVERING )?INDEX/.test(d) || /^SCALAR SUBQUERY/.test(d))).toBe(true);
    }
  });
});
