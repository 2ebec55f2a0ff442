// The PostgreSQL log on a real server: migrations applied at open (and again, and by two
// replicas at once), appends from two pools ("replicas") under the append lock numbered in commit
// order without gaps a watcher could miss (the discipline svctrail_append follows; the write store's
// own tests append through it), the stream version index, and the log's append-only rule.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { DatabaseError } from 'pg';
import { lockAppends } from '../../src/store/postgres/pg-event-store';
import { recordingTime } from '../../src/store/recording-time';
import { PgServiceReadStore } from '../../src/store/postgres/pg-service-read-store';
import { inTransaction, openPostgres, POSTGRES_MIGRATIONS_FOLDER, type PostgresHandle } from '../../src/store/postgres/postgres-database';
import { describePostgres } from '../helpers/postgres';

const INSERT = `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data, recorded_at,
    actor_user, actor_groups, user_agent, field_manager, request_id, verb)
  VALUES ($1, $2, $3, $4, 'default', $3, 'ServiceDeleted', '{}', '2026-01-02T03:04:05.000Z', 'u', '[]', 'a', 'f', 'r', 'create')`;

/** One write of `count` events, appended as svctrail_append appends: under the lock, after the head read then. */
const append = (pool: Pool, streamId: string, count: number) =>
  inTransaction(pool, async (client) => {
    await lockAppends(client);
    const { rows } = await client.query<{ head: number; version: number }>(
      'SELECT (SELECT coalesce(max(position), 0) FROM events) AS head, (SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = $1) AS version',
      [streamId],
    );
    const { head, version } = rows[0];
    for (let i = 1; i <= count; i++) await client.query(INSERT, [head + i, head + count, streamId, version + i]);
  });

const journalEntries = (): number => (JSON.parse(readFileSync(join(POSTGRES_MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

describePostgres('PostgreSQL event store', (database) => {
  let replicaA: PostgresHandle;
  let replicaB: PostgresHandle;

  beforeAll(async () => {
    // Two replicas starting at once on an empty database: the migrations run once, in turn.
    [replicaA, replicaB] = await Promise.all([openPostgres(database().url), openPostgres(database().url)]);
  });
  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
  });

  it('applies its migrations at open, once, however often and by however many it is opened', async () => {
    const again = await openPostgres(database().url);
    await again.close();
    const applied = await replicaA.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(applied.rows[0].n).toBe(journalEntries());
    const tables = await replicaA.pool.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`);
    expect(tables.rows.map((r) => r.table_name)).toEqual([
      'allocations',
      'audit_actors',
      'compactions',
      'condition_transitions',
      'events',
      'ingress_intervals',
      'kube_event_occurrences',
      'kube_events',
      'mirror_source',
      'observed_writes',
      'pending_audit_events',
      'repeated_texts',
      'revision_facts',
      'service_lifetimes',
      'service_revisions',
      'services',
      'write_leader',
    ]);
  });

  it('reads an empty log as position 0, before the first append', async () => {
    const reads = new PgServiceReadStore(replicaA.pool);
    expect(await reads.head()).toBe(0);
    expect(await reads.resourceVersionAt('2030-01-01T00:00:00.000Z')).toBe(0);
    expect(await reads.listPage({ limit: 10 })).toEqual([]);
    expect(await reads.listPage({ limit: 10, asOf: 0 })).toEqual([]);
    expect(await reads.liveJson('default', 'none')).toBeUndefined();
  });

  it('numbers concurrent appends from two replicas in commit order, without a gap any reader could see', async () => {
    const before = (await replicaA.pool.query<{ head: number }>('SELECT coalesce(max(position), 0) AS head FROM events')).rows[0].head;
    // A watcher reading "everything after the last position I saw" while the replicas append:
    // each read must continue exactly where the previous one stopped.
    let writing = true;
    const seenGaps: string[] = [];
    let seen = before;
    const watcher = (async () => {
      while (writing) {
        const { rows } = await replicaB.pool.query<{ position: number }>('SELECT position FROM events WHERE position > $1 ORDER BY position', [seen]);
        for (const { position } of rows) {
          if (position !== seen + 1) seenGaps.push(`after ${seen} came ${position}`);
          seen = position;
        }
      }
    })();
    const writers = [replicaA, replicaB].flatMap((replica, r) =>
      Array.from({ length: 4 }, async (_, w) => {
        const streamId = `stream-${r}-${w}`;
        let version = 0;
        for (let i = 0; i < 8; i++) {
          const count = 1 + ((w + i) % 3); // writes of one, two and three events
          await append(replica.pool, streamId, count);
          version += count;
        }
        return version;
      }),
    );
    let versions: number[];
    try {
      versions = await Promise.all(writers);
    } finally {
      writing = false;
      await watcher;
    }

    expect(seenGaps).toEqual([]);
    const { rows } = await replicaA.pool.query<{ position: number; resource_version: number; stream_id: string; stream_version: number }>(
      'SELECT position, resource_version, stream_id, stream_version FROM events WHERE position > $1 ORDER BY position',
      [before],
    );
    const total = versions.reduce((a, b) => a + b, 0);
    expect(rows.map((r) => r.position)).toEqual(Array.from({ length: total }, (_, i) => before + i + 1));
    // Every event of one write shares the resourceVersion of its last one, and a stream's
    // versions follow its positions one by one.
    const lastVersion = new Map<string, number>();
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const next = rows[i + 1];
      const endsWrite = !next || next.resource_version !== row.resource_version;
      if (endsWrite) expect(row.resource_version).toBe(row.position);
      else expect(next.stream_id).toBe(row.stream_id);
      expect(row.stream_version).toBe((lastVersion.get(row.stream_id) ?? 0) + 1);
      lastVersion.set(row.stream_id, row.stream_version);
    }
  });

  it('has the unique stream version index as the last guard', async () => {
    await append(replicaA.pool, 'guarded', 1);
    // A row that skipped the version check (as a buggy writer would) is refused by the index.
    const error = await replicaA.pool
      .query(
        `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data, recorded_at,
           actor_user, actor_groups, user_agent, field_manager, request_id, verb)
         SELECT max(position) + 1, max(position) + 1, 'guarded', 1, 'default', 'guarded', 'ServiceDeleted', '{}', '2026-01-02T03:04:05.000Z',
           'u', '[]', 'a', 'f', 'r', 'create' FROM events`,
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseError);
    expect(error).toMatchObject({ code: '23505', constraint: 'events_stream_version_unique' });
  });

  it('keeps the log append-only', async () => {
    await expect(replicaA.pool.query(`UPDATE events SET verb = 'tampered' WHERE position = 1`)).rejects.toThrow('events are append-only');
    await expect(replicaA.pool.query('DELETE FROM events WHERE position = 1')).rejects.toThrow('events are append-only');
    await expect(replicaA.pool.query('TRUNCATE events')).rejects.toThrow('events are append-only');
  });

  it('never records a write before the newest one', () => {
    const newest = '2026-01-02T03:04:05.500Z';
    expect(recordingTime(new Date('2026-01-02T03:04:04.000Z'), newest).toISOString()).toBe(newest);
    expect(recordingTime(new Date('2026-01-02T03:04:06.000Z'), newest).toISOString()).toBe('2026-01-02T03:04:06.000Z');
    expect(recordingTime(new Date('2026-01-02T03:04:04.000Z'), undefined).toISOString()).toBe('2026-01-02T03:04:04.000Z');
  });
});
