// The event store on a real SQLite file with the real migrations.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/shared/project-root';
import type { ServiceEvent } from '../../src/domain/service.events';
import { DamagedDatabaseError, type DatabaseHandle, openDatabase } from '../../src/store/database';
import { isStreamVersionCollision, SqliteEventStore } from '../../src/store/event-store';
import { StreamVersionConflictError } from '../../src/store/ports/stream-version-conflict-error';
import { statusForError } from '../../src/kube-api/kube-status';
import type { WriteMetadata } from '../../src/store/ports/recorded-event';

const migrationsFolder = join(PROJECT_ROOT, 'migrations');
const meta: WriteMetadata = {
  user: 'alice',
  groups: ['devs', 'system:authenticated'],
  userAgent: 'test/1.0',
  fieldManager: 'test',
  requestId: 'r1',
  verb: 'update',
  subresource: 'status',
  recordedAt: '2026-01-02T03:04:05.678Z',
};
const ingress = (ip: string): ServiceEvent => ({ type: 'LoadBalancerIngressChanged', data: { ingress: [{ ip, ipMode: 'VIP' }], previous: [] } });

describe('SqliteEventStore', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-store-'));
    handle = openDatabase({ path: join(dir, 'svctrail.db'), migrationsFolder, synchronous: 'FULL' });
    store = new SqliteEventStore(handle);
  });
  afterEach(() => {
    if (handle.sqlite.open) handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens in WAL mode with synchronous=FULL and applies the migrations', () => {
    expect(handle.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(handle.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    const tables = handle.sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['events', 'services', 'service_revisions', 'condition_transitions', 'ingress_intervals', 'allocations']));
  });

  it('gives every event of one write the resourceVersion of the last, and records who wrote it', () => {
    const first = store.append({ streamId: 'u1', namespace: 'default', name: 'web', expectedVersion: 0, events: [ingress('1.1.1.1')], metadata: meta });
    const second = store.append({
      streamId: 'u1',
      namespace: 'default',
      name: 'web',
      expectedVersion: 1,
      events: [ingress('2.2.2.2'), ingress('3.3.3.3')],
      metadata: meta,
    });
    expect(first.map((e) => [e.position, e.resourceVersion, e.streamVersion])).toEqual([[1, 1, 1]]);
    expect(second.map((e) => [e.position, e.resourceVersion, e.streamVersion])).toEqual([
      [2, 3, 2],
      [3, 3, 3],
    ]);
    expect(store.head()).toBe(3);
    const stream = store.readStream('u1');
    expect(stream).toHaveLength(3);
    expect(stream[1].metadata).toEqual(meta);
    expect(stream[2].event).toEqual(ingress('3.3.3.3'));
    expect(store.readAll(1, 10).map((e) => e.position)).toEqual([2, 3]);
    expect(store.readAll(0, 2).map((e) => e.position)).toEqual([1, 2]);
  });

  it('refuses an append at a stale stream version', () => {
    store.append({ streamId: 'u1', namespace: 'default', name: 'web', expectedVersion: 0, events: [ingress('1.1.1.1')], metadata: meta });
    expect(() => store.append({ streamId: 'u1', namespace: 'default', name: 'web', expectedVersion: 0, events: [ingress('2.2.2.2')], metadata: meta })).toThrow(StreamVersionConflictError);
    expect(store.head()).toBe(1);
  });

  it('keeps stream versions unique even if a caller bypasses the expected-version check', () => {
    store.append({ streamId: 'u1', namespace: 'default', name: 'web', expectedVersion: 0, events: [ingress('1.1.1.1')], metadata: meta });
    const insert = () =>
      handle.sqlite
        .prepare(
          `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data, recorded_at,
            actor_user, actor_groups, user_agent, field_manager, request_id, verb) VALUES (9, 9, 'u1', 1, 'default', 'web', 'X', '{}', '', '', '[]', '', '', '', '')`,
        )
        .run();
    expect(insert).toThrow(/UNIQUE constraint failed/);
  });

  it('answers a write that lost the race on its stream with 409 Conflict, not 500', () => {
    store.append({ streamId: 'u1', namespace: 'default', name: 'web', expectedVersion: 0, events: [ingress('1.1.1.1')], metadata: meta });
    let raced: unknown;
    try {
      store.append({ streamId: 'u1', namespace: 'default', name: 'web', expectedVersion: 0, events: [ingress('2.2.2.2')], metadata: meta });
    } catch (error) {
      raced = error;
    }
    expect(statusForError(raced)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Operation cannot be fulfilled on services "web": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'web', kind: 'services' },
      code: 409,
    });
  });

  it('recognises the stream-version collision by its SQLite error code, not by message text', () => {
    store.append({ streamId: 'u1', namespace: 'default', name: 'web', expectedVersion: 0, events: [ingress('1.1.1.1')], metadata: meta });
    const thrown = (sql: string): unknown => {
      try {
        handle.sqlite.exec(sql);
      } catch (error) {
        return error;
      }
      throw new Error(`${sql} did not fail`);
    };
    const row = (position: number, streamVersion: number) =>
      `INSERT INTO events (position, resource_version, stream_id, stream_version, namespace, name, type, data, recorded_at,
        actor_user, actor_groups, user_agent, field_manager, request_id, verb) VALUES (${position}, ${position}, 'u1', ${streamVersion}, 'default', 'web', 'X', '{}', '', '', '[]', '', '', '', '')`;
    expect(isStreamVersionCollision(thrown(row(9, 1)))).toBe(true);
    // Same position (the primary key), a new stream version: not a stream race.
    expect(isStreamVersionCollision(thrown(row(1, 7)))).toBe(false);
    // A message that merely reads like one is not one either.
    handle.sqlite.exec(`CREATE TEMP TRIGGER lookalike BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: events.stream_id, events.stream_version'); END`);
    expect(isStreamVersionCollision(thrown(row(10, 2)))).toBe(false);
  });

  it('never appends an event with an empty stream id', () => {
    expect(() => store.append({ streamId: '', namespace: 'default', name: 'web', expectedVersion: 0, events: [ingress('1.1.1.1')], metadata: meta })).toThrow(/without a stream id/);
    expect(store.head()).toBe(0);
  });

  it('is append-only: UPDATE and DELETE on events are refused by triggers', () => {
    store.append({ streamId: 'u1', namespace: 'default', name: 'web', expectedVersion: 0, events: [ingress('1.1.1.1')], metadata: meta });
    expect(() => handle.sqlite.prepare(`UPDATE events SET name = 'x'`).run()).toThrow('events are append-only');
    expect(() => handle.sqlite.prepare('DELETE FROM events').run()).toThrow('events are append-only');
  });

  it('refuses to open a damaged database with a clear message', () => {
    handle.close();
    const path = join(dir, 'broken.db');
    writeFileSync(path, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4096, 0xab)]));
    expect(() => openDatabase({ path, migrationsFolder, synchronous: 'FULL' })).toThrow(DamagedDatabaseError);
    expect(() => openDatabase({ path, migrationsFolder, synchronous: 'FULL' })).toThrow(/is damaged and will not be served|failed its integrity check/);
  });
});
