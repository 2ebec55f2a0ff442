// Every secondary index of the PostgreSQL schema is justified by a reader whose plan uses it
// (issue 46: an index no reader needs costs every write a B-tree and the store its bytes, so it is
// dropped; one that a reader needs is pinned here, so that dropping it fails a test, not a
// benchmark). As SQLite's pins do (test/store/query-plans.int-spec.ts), plans depend on the SQL
// and the schema: each reader's statements are recorded as the real repositories issue them (or,
// for the statements inside `svctrail_append` and the maintenance commands, copied as they are
// written there), then planned on a database migrated by the real migrations, filled with a
// history (SEED: 500 Services in 20 namespaces, 60,000 writes, and the rarer and busier scopes an
// index is for) analysed from every row, with sequential scans disabled as on a store whose tables
// are too big to read whole. On empty tables every index costs the same and the planner's choice
// among them means nothing. PostgreSQL picks an index by its statistics, so each reader here asks
// in the shape that needs the index: a scope that is rare in all of the history, or a window in
// its middle (as on the bench's 30k set imported into PostgreSQL, where a Service with few
// transitions, asked about in a window, is read by condition_transitions_name_rv).
//
// The same table is docs/architecture.md's "Indexes and their readers": change both together.
import { PACKING_BATCH, UNCONVERTED, UNCONVERTED_COUNT } from '../../src/store/event-data-packing';
import { POSTGRES_DIALECT, SqlParams, type SqlReader } from '../../src/store/sql/sql-reader';
import type { PoolClient } from 'pg';
import { ActivitySummaryRepository } from '../../src/store/activity-summary-repository';
import { ChangeHistoryRepository } from '../../src/store/change-history-repository';
import { ConditionHistoryRepository } from '../../src/store/condition-history-repository';
import { IngressHistoryRepository } from '../../src/store/ingress-history-repository';
import { KubeEventHistoryRepository } from '../../src/store/kube-event-history-repository';
import { KubeEventLog } from '../../src/store/kube-event-log';
import { openPostgres, type PostgresHandle } from '../../src/store/postgres/postgres-database';
import { PgSqlReader } from '../../src/store/postgres/pg-sql-reader';
import { describePostgres } from '../helpers/postgres';

interface Statement {
  sql: string;
  values: unknown[];
}

interface Repositories {
  changes: ChangeHistoryRepository;
  conditions: ConditionHistoryRepository;
  ingress: IngressHistoryRepository;
  activity: ActivitySummaryRepository;
  occurrences: KubeEventHistoryRepository;
  events: KubeEventLog;
}

/** A reader: what it is, the index it needs, and its statements (run through the repositories, or as written elsewhere). */
interface Reader {
  index: string;
  reader: string;
  run?: (r: Repositories) => Promise<unknown>;
  statement?: Statement;
}

/**
 * The history SEED writes; the readers ask about all of it, as a history request without
 * since/until does (a window of the newest writes is a range of the primary key instead), or
 * about one resourceVersion in it (`at`).
 */
const N = 60_000;
const range = { fromRv: 1, toRv: N, fromPosition: 1 };
const window = { fromRv: 1, toRv: N };
const at = N / 2;

/**
 * One history, every table: write g (1..N) is an event of Service g % 500 (namespace g % 20, actor
 * g % 10, one of ten event types), a condition transition, an ingress interval of one of 2,000
 * addresses closed five writes later (the newest of each Service's open), an Event occurrence and
 * an observed write; the live tables hold what 500 Services and 20,000 Events hold. One write in a
 * thousand is the quiet scope's (QUIET): a Service of its own, an actor, an event type and an
 * address nothing else has; one in a hundred condition transitions is a steady Service's among the
 * others of its namespace, and a quarter are one flapping Service's.
 * A secondary index is for such a scope: one as common as the others is
 * read as fast by walking the whole range in order, which PostgreSQL's planner rightly prefers.
 */
const QUIET = 'g % 1000 = 7';
/** As rare, an actor of converted events (by id): the quiet scope's are not converted yet. */
const RARE_ACTOR = 'g % 1000 = 507';
const quiet = (value: string, otherwise: string) => `CASE WHEN ${QUIET} THEN '${value}' ELSE ${otherwise} END`;
const NS = quiet('quiet', `'ns' || g % 500 % 20`);
const NAME = quiet('lonely', `'svc' || g % 500`);
const UID = quiet('u-lonely', `'u' || g % 500`);
/** A quarter of the condition transitions are one flapping Service's, alone in its namespace: its pages stop early in resourceVersion order. */
const flapping = (value: string, otherwise: string) => `CASE WHEN g % 4 = 0 THEN '${otherwise}' ELSE ${value} END`;
/** One in a hundred, a steady Service among the others of its namespace. */
const steady = (value: string, otherwise: string) => `CASE WHEN g % 100 = 50 THEN '${otherwise}' ELSE ${value} END`;
const SEED = [
  // No autovacuum's ANALYZE of a sample after ours (below): the plans are those of these statistics.
  `DO $$ DECLARE t record; BEGIN
    FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP EXECUTE format('ALTER TABLE %I SET (autovacuum_enabled = false)', t.tablename); END LOOP;
  END $$`,
  // The actors' texts: the quiet scope's events name theirs as text (written before dense actors), the others by id.
  `INSERT INTO repeated_texts (text) SELECT 'user' || g FROM generate_series(0, 9) g UNION ALL SELECT 'auditor'`,
  `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data, recorded_at, actor_user, actor_groups, user_agent, field_manager, request_id, verb, packed_data, actor_user_id)
    SELECT g, g, ${UID}, g / 500 + 1, ${NS}, ${NAME},
      ${quiet(
        'ServiceDeleted',
        `(ARRAY['ServiceCreated','ServiceSpecChanged','ServiceMetadataChanged','LoadBalancerIngressChanged','ServiceConditionChanged','ServiceConditionRemoved',
        'ServiceConditionsReplaced','ServiceManagedFieldsChanged','ServiceDeletionRequested','KubeEventCreated'])[g % 10 + 1]`,
      )},
      ${quiet('{}', "''")}, '2026-01-01T00:00:00Z', ${quiet('auditor', "''")}, '[]', 'ua', 'fm' || g % 7, 'r' || g, 'update',
      CASE WHEN ${QUIET} THEN NULL ELSE '\\x007b7d'::bytea END,
      CASE WHEN ${QUIET} THEN NULL ELSE (SELECT id FROM repeated_texts WHERE text = CASE WHEN ${RARE_ACTOR} THEN 'auditor' ELSE 'user' || g % 10 END) END
    FROM generate_series(1, ${N}) g`,
  `INSERT INTO services (namespace, name, uid, resource_version, stream_version, object)
    SELECT 'ns' || g % 20, 'svc' || g, 'u' || g, g, 1, '{}' FROM generate_series(0, 499) g UNION ALL SELECT 'quiet', 'lonely', 'u-lonely', ${N}, 60, '{}'`,
  `INSERT INTO service_lifetimes (uid, namespace, name, created_resource_version)
    SELECT 'u' || g, 'ns' || g % 20, 'svc' || g, g + 1 FROM generate_series(0, 499) g UNION ALL SELECT 'u-lonely', 'quiet', 'lonely', 7`,
  `INSERT INTO condition_transitions (id, resource_version, uid, namespace, name, condition_type, reason, message, recorded_at, actor_user)
    SELECT g, g, ${flapping(steady(UID, 'u-steady'), 'u-flapping')}, ${flapping(steady(NS, 'ns3'), 'busy')}, ${flapping(steady(NAME, 'steady'), 'flapping')}, (ARRAY['Ready','Synced'])[g % 2 + 1], 'R', 'm', '2026-01-01T00:00:00Z', 'user' || g % 10
    FROM generate_series(1, ${N}) g`,
  `INSERT INTO ingress_intervals (id, address, address_type, uid, namespace, name, from_resource_version, from_time, set_by, to_resource_version, to_time, cleared_by)
    SELECT g, ${quiet('192.0.2.1', `'10.0.' || g % 2000 / 250 || '.' || g % 250`)}, 'ip', ${UID}, ${NS}, ${NAME}, g, '2026-01-01T00:00:00Z', 'lb',
      CASE WHEN g > ${N} - 500 THEN NULL ELSE g + 5 END, CASE WHEN g > ${N} - 500 THEN NULL ELSE '2026-01-01T00:00:00Z' END, CASE WHEN g > ${N} - 500 THEN NULL ELSE 'lb' END
    FROM generate_series(1, ${N}) g`,
  `INSERT INTO allocations (kind, value, uid) SELECT 'cluster-ip', '10.96.' || g / 250 || '.' || g % 250, 'u' || g % 500 FROM generate_series(0, 999) g`,
  `INSERT INTO kube_events (namespace, name, uid, resource_version, stream_version, object, expires_at)
    SELECT 'ns' || g % 20, 'svc' || g % 500 || '.' || g, 'e' || g, g * 3, 1, '{}', '2026-01-01T' || lpad((g % 24)::text, 2, '0') || ':00:00Z' FROM generate_series(1, 20000) g`,
  `INSERT INTO kube_event_occurrences (resource_version, uid, namespace, name, involved_kind, involved_namespace, involved_name, involved_uid, type, reason, reporting_controller)
    SELECT g, 'e' || g % 20000, ${NS}, 'svc' || g % 500 || '.' || g, 'Service', ${NS}, ${NAME}, ${UID}, 'Normal', 'Sync', 'lb'
    FROM generate_series(1, ${N}) g`,
  `INSERT INTO observed_writes (resource_version, source_resource_version, via, observed_at) SELECT g, (g + 1000)::text, 'watch', '2026-01-01T00:00:00Z' FROM generate_series(1, ${N}) g`,
  `INSERT INTO pending_audit_events (audit_id, namespace, name, source_resource_version, write, received_at)
    SELECT 'a' || g, 'ns' || g % 20, 'svc' || g % 500, (g + 1000)::text, '{}', '2026-01-01T00:00:00Z' FROM generate_series(1, 2000) g`,
  `INSERT INTO compactions (id, horizon_resource_version, horizon_time, actor_user, started_at) SELECT g, g * 100, '2026-01-01T00:00:00Z', 'admin', '2026-01-01T00:00:00Z' FROM generate_series(1, 500) g`,
  // Statistics from every row (the sample is 300 × the target rows), so the plans do not depend on a random sample.
  'SET default_statistics_target = 1000',
  'ANALYZE',
];

/** One round of matchingWrites with ?actor= as the repository asks it on a store whose events all name their actor by id (the seed's 'auditor': id 11). */
function actorRound(): Statement {
  const params = new SqlParams(0, 0, 0, 0);
  const sql = new ChangeHistoryRepository({ dialect: POSTGRES_DIALECT } as SqlReader).rangeSql({ ...range, actor: 'auditor' }, params, undefined, 11);
  return { sql, values: [range.fromPosition, range.toRv, range.fromRv, 20, ...params.values.slice(4)] };
}

const READERS: Reader[] = [
  // events: the log. UNIQUE(stream_id, stream_version) is also the last guard of a stream's versions.
  { index: 'events_stream_version_unique', reader: 'Events API: the fact before an Event write (factBefore)', run: (r) => r.events.factBefore('u7', 50) },
  { index: 'events_name_position', reader: 'history changes of one Service (by name)', run: (r) => r.changes.matchingWrites({ ...range, namespace: 'quiet', name: 'lonely' }, 10) },
  { index: 'events_name_position', reader: 'activity buckets of one Service', run: (r) => r.activity.buckets({ namespace: 'quiet', name: 'lonely' }, [[N - 10, N - 5]]) },
  { index: 'events_namespace_position', reader: 'history changes of a namespace', run: (r) => r.changes.matchingWrites({ ...range, namespace: 'quiet' }, 10) },
  // Once every event names its actor by id (the seed's quiet events do not yet: the repository reads their texts in order then).
  { index: 'events_actor_position', reader: 'history changes ?actor= (every actor by id)', statement: actorRound() },
  { index: 'events_type_position', reader: 'history changes ?eventType=', run: (r) => r.changes.matchingWrites({ ...range, eventType: 'ServiceDeleted' }, 10) },
  // The quiet scope's events are the ones still unpacked (written before packed event data, the rest packed: '{}' in the codec's plain form).
  // repeated_texts: a write's groups, user agent and field manager by their text (svctrail_text_id's look-up, under the append lock).
  { index: 'repeated_texts_text_unique', reader: 'svctrail_append: the id of a repeated text', statement: { sql: 'SELECT id FROM repeated_texts WHERE text = $1', values: ['ua'] } },
  { index: 'events_actor_position', reader: 'the conversion of older events: the next batch', statement: { sql: UNCONVERTED, values: [0, PACKING_BATCH] } },
  { index: 'events_actor_position', reader: 'the conversion of older events: how many are left (at start)', statement: { sql: UNCONVERTED_COUNT, values: [] } },
  // services: the live objects.
  { index: 'services_uid_unique', reader: 'svctrail_append: a deletion removes the live row by uid', statement: { sql: 'DELETE FROM services WHERE uid = $1', values: ['u3'] } },
  { index: 'services_uid_unique', reader: 'replay catch-up: the present rows of the written Services', statement: { sql: 'DELETE FROM services WHERE uid = ANY($1)', values: [['u3']] } },
  // service_lifetimes.
  { index: 'service_lifetimes_name', reader: 'LIST as of a resourceVersion (a namespace, a name)', statement: lifetimesOfNamespace() },
  // condition_transitions.
  { index: 'condition_transitions_uid_type_rv', reader: 'conditionsummaries ?uid=: the incarnation of a uid', run: (r) => r.conditions.serviceOf('u-lonely', {}) },
  { index: 'condition_transitions_uid_type_rv', reader: 'condition summary of one incarnation', run: (r) => r.conditions.summaryTransitionsOfService('u-lonely', N) },
  {
    index: 'condition_transitions_name_rv',
    reader: 'history conditiontransitions of one Service',
    run: (r) => r.conditions.transitions({ fromRv: N / 2, toRv: N / 2 + 2000, namespace: 'ns3', name: 'steady' }, 10),
  },
  {
    index: 'condition_transitions_name_rv',
    reader: 'activity buckets of one Service (transitions)',
    run: (r) => r.activity.buckets({ namespace: 'ns3', name: 'steady' }, [[N / 2, N / 2 + 2000]]),
  },
  { index: 'condition_transitions_rv', reader: 'history conditiontransitions across the cluster', run: (r) => r.conditions.transitions(range, 10) },
  { index: 'condition_transitions_rv', reader: 'activity ranking across the cluster', run: (r) => r.activity.ranking(range, 10) },
  { index: 'condition_transitions_namespace_rv', reader: 'history conditiontransitions of a namespace', run: (r) => r.conditions.transitions({ ...range, namespace: 'quiet' }, 10) },
  { index: 'condition_transitions_service', reader: 'conditionsummaries: the incarnations of a scope', run: (r) => r.conditions.services({ namespace: 'quiet' }, 10) },
  // ingress_intervals.
  { index: 'ingress_intervals_address_uid_from', reader: 'ingressconflicts: the other holders of an address', run: (r) => r.ingress.conflicts({ ...window }, 10) },
  { index: 'ingress_intervals_address_uid_from', reader: 'ingressintervals ?address=', run: (r) => r.ingress.intervals({ ...range, windowed: false, address: '192.0.2.1' }, 10) },
  { index: 'ingress_intervals_uid_from', reader: 'ingressintervals ?uid=', run: (r) => r.ingress.intervals({ ...range, windowed: false, uid: 'u-lonely' }, 10) },
  { index: 'ingress_intervals_uid_from', reader: 'ingressconflicts ?uid=', run: (r) => r.ingress.conflicts({ ...window, uid: 'u-lonely' }, 10) },
  {
    index: 'ingress_intervals_open',
    reader: 'svctrail_append: a write closes the open intervals of its Service',
    statement: { sql: 'UPDATE ingress_intervals SET to_resource_version = $1 WHERE uid = $2 AND to_resource_version IS NULL', values: [N + 1, 'u3'] },
  },
  { index: 'ingress_intervals_from', reader: 'ingressintervals across the cluster', run: (r) => r.ingress.intervals({ ...range, windowed: false }, 10) },
  { index: 'ingress_intervals_namespace_from', reader: 'ingressintervals of a namespace', run: (r) => r.ingress.intervals({ ...range, windowed: false, namespace: 'quiet' }, 10) },
  { index: 'ingress_intervals_name_from', reader: 'ingressintervals of one Service', run: (r) => r.ingress.intervals({ ...range, windowed: false, namespace: 'quiet', name: 'lonely' }, 10) },
  { index: 'ingress_intervals_name_from', reader: 'ingressconflicts of one Service', run: (r) => r.ingress.conflicts({ ...window, namespace: 'quiet', name: 'lonely' }, 10) },
  { index: 'ingress_intervals_span', reader: 'ingressintervals, ingressowners at one resourceVersion', run: (r) => r.ingress.intervals({ fromRv: at, toRv: at, windowed: true }, 10) },
  // allocations.
  { index: 'allocations_uid', reader: 'replay catch-up: the allocations of the written Services', statement: { sql: 'DELETE FROM allocations WHERE uid = ANY($1)', values: [['u3']] } },
  // kube_events: the live Events.
  { index: 'kube_events_resource_version', reader: 'Events LIST across the cluster', run: (r) => r.events.writtenPage({ afterPosition: 3 * N - 300, untilPosition: 3 * N, limit: 10 }) },
  {
    index: 'kube_events_namespace_resource_version',
    reader: 'Events LIST of a namespace',
    run: (r) => r.events.writtenPage({ namespace: 'quiet', afterPosition: 3 * N - 300, untilPosition: 3 * N, limit: 10 }),
  },
  { index: 'kube_events_expires_at', reader: 'the --event-ttl sweep', run: (r) => r.events.expired('2026-01-01T00:00:00Z', 10) },
  // kube_event_occurrences.
  {
    index: 'kube_event_occurrences_involved',
    reader: 'history events of one Service',
    run: (r) => r.occurrences.occurrences({ ...range, involved: { kind: 'Service', namespace: 'quiet', name: 'lonely' } }, 10),
  },
  { index: 'kube_event_occurrences_namespace', reader: 'history events of a namespace', run: (r) => r.occurrences.occurrences({ ...range, namespace: 'quiet' }, 10) },
  // Mirror mode and compaction.
  {
    index: 'observed_writes_source',
    reader: 'audit webhook: the recorded write an audit event names',
    statement: {
      sql: `SELECT o.resource_version FROM observed_writes o JOIN events e ON e.position = o.resource_version WHERE o.source_resource_version = $1 AND e.namespace = $2 AND e.name = $3`,
      values: ['1003', 'ns3', 'svc3'],
    },
  },
  {
    index: 'pending_audit_events_object',
    reader: 'mirror: a recorded write takes its waiting audit events',
    statement: { sql: 'DELETE FROM pending_audit_events WHERE namespace = $1 AND name = $2 AND source_resource_version = $3 RETURNING audit_id, write', values: ['ns3', 'svc3', '1003'] },
  },
  {
    index: 'pending_audit_events_received',
    reader: 'mirror: audit events waiting over an hour are dropped',
    statement: { sql: 'DELETE FROM pending_audit_events WHERE received_at < $1', values: ['2026-01-01T00:00:00Z'] },
  },
  {
    index: 'compactions_horizon',
    reader: 'the store horizon (every read as of the past)',
    statement: { sql: 'SELECT coalesce(max(horizon_resource_version), 0) AS horizon FROM compactions', values: [] },
  },
];

function lifetimesOfNamespace(): Statement {
  return {
    sql: `SELECT l.uid FROM service_lifetimes l WHERE l.namespace = $1 AND l.created_resource_version <= $2
      AND (l.deleted_resource_version IS NULL OR l.deleted_resource_version > $2) ORDER BY l.namespace, l.name LIMIT $3`,
    values: ['ns3', N, 10],
  };
}

/** The index names a PostgreSQL plan (text format) reads. */
function indexesOf(plan: string[]): string[] {
  return [...new Set(plan.flatMap((line) => [...line.matchAll(/(?:Index(?: Only)? Scan(?: Backward)? using|Bitmap Index Scan on) (\w+)/g)].map((m) => m[1])))];
}

describePostgres('PostgreSQL: every secondary index has a reader whose plan uses it', (database) => {
  let handle: PostgresHandle;
  let client: PoolClient;
  let recorded: Statement[] = [];
  let repositories: Repositories;

  beforeAll(async () => {
    handle = await openPostgres(database().url);
    client = await handle.pool.connect();
    for (const statement of SEED) await client.query(statement);
    // A store too big to read whole: what the planner does then is what these pins are about.
    await client.query('SET enable_seqscan = off');
    const reader = new PgSqlReader(() => ({
      query: ((sql: string, values?: unknown[]) => {
        recorded.push({ sql, values: values ?? [] });
        return handle.pool.query(sql, values);
      }) as PoolClient['query'],
    }));
    repositories = {
      changes: new ChangeHistoryRepository(reader),
      conditions: new ConditionHistoryRepository(reader),
      ingress: new IngressHistoryRepository(reader),
      activity: new ActivitySummaryRepository(reader),
      occurrences: new KubeEventHistoryRepository(reader),
      events: new KubeEventLog(reader),
    };
  });
  afterAll(async () => {
    client?.release();
    await handle?.close();
  });

  /** The indexes a reader's statements read. */
  async function indexesRead(reader: Reader): Promise<{ indexes: string[]; plans: string[][] }> {
    recorded = [];
    if (reader.run) await reader.run(repositories);
    const statements = reader.statement ? [reader.statement] : recorded;
    expect(statements.length).toBeGreaterThan(0);
    const plans: string[][] = [];
    for (const { sql, values } of statements) {
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, values);
      plans.push(rows.map((r) => r['QUERY PLAN']));
    }
    return { indexes: indexesOf(plans.flat()), plans };
  }

  it.each(READERS.map((r) => [r.index, r.reader, r] as const))('%s: %s', async (_index, _reader, reader) => {
    const { indexes, plans } = await indexesRead(reader);
    if (!indexes.includes(reader.index)) throw new Error(`${reader.reader} does not read ${reader.index}:\n${plans.map((p) => p.join('\n')).join('\n---\n')}`);
  });

  it('every secondary index of the schema is in the table, and nothing else', async () => {
    // Primary keys are the tables' own keys; every other index must have a reader above.
    const { rows } = await client.query<{ name: string }>(
      `SELECT i.indexrelid::regclass::text AS name FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = current_schema() AND NOT i.indisprimary ORDER BY 1`,
    );
    expect(rows.map((r) => r.name)).toEqual([...new Set(READERS.map((r) => r.index))].sort());
  });
});
