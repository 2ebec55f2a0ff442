// Reads the log as accepted writes (one item per resourceVersion) for the history API's change
// log: which writes match, their events and actor, and the objects before and after each. The
// range is driven by the index that matches the narrowest filter (on SQLite named with INDEXED
// BY, so the plan does not depend on statistics; PostgreSQL's planner finds the same index); the
// other filters are checked on the rows of that range. One implementation for both engines.
import type { Service } from '../domain/service.types';
import { DELETED_PATCH, jsonPatchText } from '../domain/json-patch-diff';
import type { ManagedFieldsEntry } from '../domain/service.types';
import type { OwnershipWrite } from '../domain/field-management';
import { storedToRecorded } from './event-store';
import { RepeatedTextCache } from './repeated-text-cache';
import { eventColumns, eventRowOf, repeatedText, type EventRow, type StoredEventRow } from './sql/event-columns';
import { serviceRowsOnly } from './sql/log-stream-kinds';
import type { RecordedEvent } from './ports/recorded-event';
import { SqlParams, type SqlReader } from './sql/sql-reader';
import { decodeStoredText, type StoredText } from './stored-text-codec';
import { filtersWholeWrites } from './ports/change-history';
import type { ChangeFilters, ChangeHistory, ChangeRange, RecordedWrite, StoredLogWrite, StoredWrite } from './ports/change-history';
import { isKubeEventFact } from '../domain/kube-event/kube-event.facts';

/**
 * The events of the write at $1: the positions after the last earlier one of another write, up to
 * $1 (a write's events are consecutive positions ending at its resourceVersion). The bound is a
 * backwards walk of the primary key that stops at the write's first event.
 */
const EVENTS_OF_WRITE = `SELECT ${eventColumns()} FROM events
  WHERE position <= $1 AND position > coalesce((SELECT position FROM events WHERE position <= $1 AND resource_version <> $1 ORDER BY position DESC LIMIT 1), 0)
  ORDER BY position`;
const REVISION_AT = 'SELECT object FROM service_revisions WHERE uid = $1 AND resource_version = $2';
const REVISION_BEFORE = 'SELECT object FROM service_revisions WHERE uid = $1 AND resource_version < $2 ORDER BY resource_version DESC LIMIT 1';
/** A write's stored patch: on its revision, or (below a compaction's horizon) on the facts kept of it. */
const STORED_PATCH = `SELECT coalesce((SELECT patch FROM service_revisions WHERE uid = $1 AND resource_version = $2),
  (SELECT patch FROM revision_facts WHERE uid = $1 AND resource_version = $2)) AS patch`;
/**
 * A revision's managedFields: in its object, or (below a compaction's horizon) kept on their own.
 * A Service's revisions left in service_revisions are all newer than those moved to
 * revision_facts, so the facts count only when those hold none. null: no revision (before a
 * create, after a delete); undefined: one without managedFields.
 */
function managedFieldsOf(object: StoredText | null, facts: number | null, managedFields: StoredText | null): readonly ManagedFieldsEntry[] | undefined | null {
  if (object !== null) return (JSON.parse(decodeStoredText(object)) as Service).metadata.managedFields;
  if (facts === null) return null;
  return managedFields === null ? undefined : (JSON.parse(decodeStoredText(managedFields)) as ManagedFieldsEntry[]);
}
/**
 * What field ownership reads of a write, on its last event (position = resource_version), with the
 * write's events: the revisions it wrote and superseded (as REVISION_AT, REVISION_BEFORE), and
 * (for below a compaction's horizon) the managedFields kept of them on their own, `…Facts` 1 when
 * that row exists. Each a seek on a primary key, in the pass over the range (see managedFieldsOf).
 */
const OWNERSHIP_COLUMNS = [
  ['atObject', 'SELECT r.object FROM service_revisions r WHERE r.uid = events.stream_id AND r.resource_version = events.resource_version'],
  ['atFacts', 'SELECT 1 FROM revision_facts f WHERE f.uid = events.stream_id AND f.resource_version = events.resource_version'],
  ['atManagedFields', 'SELECT f.managed_fields FROM revision_facts f WHERE f.uid = events.stream_id AND f.resource_version = events.resource_version'],
  ['beforeObject', 'SELECT r.object FROM service_revisions r WHERE r.uid = events.stream_id AND r.resource_version < events.resource_version ORDER BY r.resource_version DESC LIMIT 1'],
  ['beforeFacts', 'SELECT 1 FROM revision_facts f WHERE f.uid = events.stream_id AND f.resource_version < events.resource_version ORDER BY f.resource_version DESC LIMIT 1'],
  ['beforeManagedFields', 'SELECT f.managed_fields FROM revision_facts f WHERE f.uid = events.stream_id AND f.resource_version < events.resource_version ORDER BY f.resource_version DESC LIMIT 1'],
]
  .map(([name, sql]) => `CASE WHEN position = resource_version THEN (${sql}) END AS "${name}"`)
  .join(',\n  ');

/** An events row read with OWNERSHIP_COLUMNS (set on a write's last event only). */
interface OwnershipRow extends EventRow {
  atObject: StoredText | null;
  atFacts: number | null;
  atManagedFields: StoredText | null;
  beforeObject: StoredText | null;
  beforeFacts: number | null;
  beforeManagedFields: StoredText | null;
}
/** Events read per round by the feed. */
const FEED_EVENTS = 400;
/**
 * The log after $1 up to $2, both kinds of stream, with each Service write's stored patch read on
 * its last event (the one at the write's resourceVersion; an Event's uid has no revision).
 */
const FEED = `SELECT ${eventColumns('e')}, coalesce(r.patch, f.patch) AS patch FROM events e
  LEFT JOIN service_revisions r ON e.position = e.resource_version AND r.uid = e.stream_id AND r.resource_version = e.resource_version
  LEFT JOIN revision_facts f ON e.position = e.resource_version AND f.uid = e.stream_id AND f.resource_version = e.resource_version
  WHERE e.position > $1 AND e.position <= $2 ORDER BY e.position LIMIT ${FEED_EVENTS}`;

/** Whether any event still names its actor user by text (not converted yet): a seek of events_actor_position's NULL key. */
const ANY_ACTOR_BY_TEXT = 'SELECT 1 AS found FROM events WHERE actor_user_id IS NULL AND position > 0 LIMIT 1';
/** The id of a text in repeated_texts. */
const TEXT_ID = 'SELECT id FROM repeated_texts WHERE text = $1';

/** Rows read per round while collecting distinct writes, at most. */
const BATCH = 500;

export class ChangeHistoryRepository implements ChangeHistory {
  private readonly texts: RepeatedTextCache;
  private allActorsById = false;

  constructor(private readonly db: SqlReader) {
    this.texts = new RepeatedTextCache(db);
  }

  /**
   * How an actor filter reads: the id of the actor's text, through events_actor_position, once
   * every event refers to its actor user by id (no row is left for the conversion,
   * event-data-packing.ts; once so, so for good: every row written since does); null when no event
   * names that actor; undefined (each row's text, in the range's order) until then. The id is
   * looked up first, not in a subquery: PostgreSQL plans with the value and its statistics, so a
   * rare actor is read through the index.
   */
  private async actorIdOf(range: ChangeFilters): Promise<number | null | undefined> {
    if (range.actor === undefined) return undefined;
    if (!this.allActorsById) {
      this.allActorsById = (await this.db.all(ANY_ACTOR_BY_TEXT)).length === 0;
      if (!this.allActorsById) return undefined;
    }
    const found = await this.db.one<{ id: number | string }>(TEXT_ID, [range.actor]);
    return found === undefined ? null : Number(found.id);
  }

  /**
   * The SQL of one round over a range: $1 fromPosition, $2 toRv, $3 fromRv, $4 the batch, then
   * the filters' values (in `params`, which holds the four first). `actorId`: see actorIdOf().
   */
  rangeSql(range: ChangeFilters, params: SqlParams, columns = 'position, resource_version AS rv', actorId?: number): string {
    // A Service's change log: an Event's facts (same namespace, maybe the same name) are not its changes.
    const where = ['position >= $1', 'position <= $2', 'resource_version >= $3', serviceRowsOnly()];
    let index: string;
    // A stream's events in stream_version order are its events in position order.
    if (range.uid !== undefined) index = 'events_stream_version_unique';
    else if (range.name !== undefined) index = 'events_name_position';
    else if (range.namespace !== undefined) index = 'events_namespace_position';
    else if (range.actor !== undefined) index = actorId === undefined ? '' : 'events_actor_position';
    else if (range.eventType !== undefined) index = 'events_type_position';
    else index = '';
    if (range.uid !== undefined) where.push(`stream_id = ${params.param(range.uid)}`);
    if (range.namespace !== undefined) where.push(`namespace = ${params.param(range.namespace)}`);
    if (range.name !== undefined) where.push(`name = ${params.param(range.name)}`);
    if (range.actor !== undefined && actorId !== undefined) where.push(`actor_user_id = ${params.param(actorId)}`);
    else if (range.actor !== undefined) where.push(`${repeatedText('actor_user')} = ${params.param(range.actor)}`);
    if (range.eventType !== undefined) where.push(`type = ${params.param(range.eventType)}`);
    if (range.fieldManager !== undefined) where.push(`${repeatedText('field_manager')} = ${params.param(range.fieldManager)}`);
    const from = index ? `events${this.db.dialect.indexedBy(index)}` : 'events';
    const order = range.uid !== undefined ? 'stream_version' : 'position';
    return `SELECT ${columns} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $4`;
  }

  /**
   * The SQL that reads whole writes of a range: every event row with, on a write's last event
   * (the one at its resourceVersion), the patch its revision stores.
   */
  storedWritesSql(range: ChangeFilters, params: SqlParams, actorId?: number): string {
    const patch = `CASE WHEN position = resource_version THEN coalesce(
      (SELECT r.patch FROM service_revisions r WHERE r.uid = events.stream_id AND r.resource_version = events.resource_version),
      (SELECT f.patch FROM revision_facts f WHERE f.uid = events.stream_id AND f.resource_version = events.resource_version)) END AS patch`;
    return this.rangeSql(range, params, `${eventColumns()}, ${patch}`, actorId);
  }

  /**
   * Up to `limit` matching writes as the change log serves them, oldest first, read in one pass
   * over the range's index like a raw reader would: no statement per write. Only for filters that
   * keep writes whole (see filtersWholeWrites); an event-type filter matches single events, so
   * its writes are found by matchingWrites and read by storedWrite.
   */
  async matchingStoredWrites(range: ChangeRange, limit: number): Promise<StoredWrite[]> {
    if (!filtersWholeWrites(range)) throw new Error('matchingStoredWrites needs filters that keep writes whole');
    const params = new SqlParams(0, 0, 0, 0);
    const actorId = await this.actorIdOf(range);
    if (actorId === null) return [];
    const sql = this.storedWritesSql(range, params, actorId);
    return this.wholeWrites<EventRow & { patch: StoredText | null }, StoredWrite>(sql, range, params, limit, (rows) => this.withPatch(rows, rows[rows.length - 1].patch));
  }

  /**
   * The SQL that reads whole writes of a range for field ownership: every event row with, on a
   * write's last event, the managedFields of the revisions before and after it (OWNERSHIP_COLUMNS).
   */
  private ownershipWritesSql(range: ChangeFilters, params: SqlParams, actorId: number | undefined): string {
    return this.rangeSql(range, params, `${eventColumns()},\n  ${OWNERSHIP_COLUMNS}`, actorId);
  }

  /**
   * Up to `limit` matching writes as field ownership reads them, oldest first, in one pass over the
   * range's index (a statement per round, not several per write). Only for filters that keep
   * writes whole.
   */
  async managedFieldsWrites(range: ChangeRange, limit: number): Promise<OwnershipWrite[]> {
    if (!filtersWholeWrites(range)) throw new Error('managedFieldsWrites needs filters that keep writes whole');
    const params = new SqlParams(0, 0, 0, 0);
    const actorId = await this.actorIdOf(range);
    if (actorId === null) return [];
    const sql = this.ownershipWritesSql(range, params, actorId);
    return this.wholeWrites<OwnershipRow, OwnershipWrite>(sql, range, params, limit, (rows) => {
      const first = rows[0];
      const last = rows[rows.length - 1];
      return {
        resourceVersion: last.resourceVersion,
        time: last.recordedAt,
        uid: first.streamId,
        namespace: first.namespace,
        name: first.name,
        before: first.streamVersion === 1 ? undefined : (managedFieldsOf(last.beforeObject, last.beforeFacts, last.beforeManagedFields) ?? undefined),
        // No revision: the write deleted the Service.
        after: managedFieldsOf(last.atObject, last.atFacts, last.atManagedFields),
      };
    });
  }

  /**
   * Up to `limit` whole writes of a range read by `sql` (rangeSql's parameters), oldest first, each
   * made of its consecutive rows by `toWrite`.
   */
  private async wholeWrites<R extends EventRow, W>(sql: string, range: ChangeRange, params: SqlParams, limit: number, toWrite: (rows: R[]) => W | Promise<W>): Promise<W[]> {
    const out: W[] = [];
    let fromPosition = range.fromPosition;
    // A write has one event or a few: a first round of about what the page needs (each row costs
    // a lookup of its table row), later rounds grow. Rounds start at a write's first event.
    for (let batch = Math.min(BATCH, 3 * (limit + 1)); ;) {
      // Read stored, as the log means them (their data unpacked).
      const rows = (await this.texts.resolve(await this.db.all<StoredEventRow>(sql, [fromPosition, range.toRv, range.fromRv, batch, ...params.values.slice(4)]))).map(eventRowOf) as unknown as R[];
      const full = rows.length === batch;
      let start = 0;
      for (let i = 1; i <= rows.length; i++) {
        if (i < rows.length && rows[i].resourceVersion === rows[start].resourceVersion) continue;
        // A full batch may have cut its last write short: it is read again, whole, by the next.
        if (i === rows.length && full) break;
        out.push(await toWrite(rows.slice(start, i)));
        if (out.length === limit) return out;
        start = i;
      }
      if (!full) return out;
      if (start > 0) fromPosition = rows[start].position;
      // Later rounds read more; a write longer than a whole batch is read with a larger one.
      batch = start > 0 ? Math.max(batch, Math.min(BATCH, 2 * batch)) : 2 * batch;
    }
  }

  /** The resourceVersions of up to `limit` matching writes, oldest first. */
  async matchingWrites(range: ChangeRange, limit: number): Promise<number[]> {
    const params = new SqlParams(0, 0, 0, 0);
    const actorId = await this.actorIdOf(range);
    if (actorId === null) return [];
    const sql = this.rangeSql(range, params, undefined, actorId);
    const out: number[] = [];
    let fromPosition = range.fromPosition;
    // A write has one event or a few: a first round of twice the page reads about what the page
    // needs (each row costs a lookup of its table row), later rounds grow.
    for (let batch = Math.min(BATCH, 2 * limit); ; batch = Math.min(BATCH, 2 * batch)) {
      const rows = await this.db.all<{ position: number; rv: number }>(sql, [fromPosition, range.toRv, range.fromRv, batch, ...params.values.slice(4)]);
      for (const row of rows) {
        if (out[out.length - 1] === row.rv) continue;
        if (out.length === limit) return out;
        out.push(row.rv);
      }
      if (rows.length < batch) return out;
      fromPosition = rows[rows.length - 1].position + 1;
    }
  }

  /** One write: its events, and the Service before and after it (null before a create, after a delete). */
  async write(resourceVersion: number): Promise<RecordedWrite> {
    // The change log asks only of a Service's writes (its ranges hold no Event's).
    const recorded = (await this.texts.resolve(await this.db.all<StoredEventRow>(EVENTS_OF_WRITE, [resourceVersion]))).map(storedToRecorded) as RecordedEvent[];
    const first = recorded[0];
    const parse = (json: string | undefined) => (json === undefined ? null : (JSON.parse(json) as Service));
    return {
      resourceVersion,
      uid: first.streamId,
      namespace: first.namespace,
      name: first.name,
      events: recorded,
      // The revision this write superseded: none before a create.
      previous: first.streamVersion === 1 ? null : parse(await this.revision(REVISION_BEFORE, first.streamId, resourceVersion)),
      object: parse(await this.revision(REVISION_AT, first.streamId, resourceVersion)),
    };
  }

  /**
   * One write as the change log serves it, nothing parsed: its event rows and the patch its
   * revision row stores (computed once, when it was written). A delete writes no revision: its
   * patch, like that of a row the start-up backfill has not reached, is computed from the
   * revisions as it always was.
   */
  async storedWrite(resourceVersion: number): Promise<StoredWrite> {
    return this.withPatch((await this.texts.resolve(await this.db.all<StoredEventRow>(EVENTS_OF_WRITE, [resourceVersion]))).map(eventRowOf));
  }

  private async revision(sql: string, uid: string, resourceVersion: number): Promise<string | undefined> {
    const object = (await this.db.one<{ object: StoredText }>(sql, [uid, resourceVersion]))?.object;
    return object === undefined ? undefined : decodeStoredText(object);
  }

  /** `stored`: the write's stored patch when already read with its events (null: none stored). */
  private async withPatch(rows: EventRow[], stored?: StoredText | null): Promise<StoredWrite> {
    const first = rows[0];
    const resourceVersion = first.resourceVersion;
    const patch = stored !== undefined ? stored : (await this.db.one<{ patch: StoredText | null }>(STORED_PATCH, [first.streamId, resourceVersion]))?.patch;
    let patchJson = patch === undefined || patch === null ? patch : decodeStoredText(patch);
    // A delete writes no revision; its patch is always the same (the previous object, compacted or not, is not read).
    if ((patchJson === undefined || patchJson === null) && rows.some((row) => row.type === 'ServiceDeleted')) patchJson = DELETED_PATCH;
    if (patchJson === undefined || patchJson === null) {
      const previous = first.streamVersion === 1 ? null : ((await this.revision(REVISION_BEFORE, first.streamId, resourceVersion)) ?? null);
      patchJson = jsonPatchText(previous, (await this.revision(REVISION_AT, first.streamId, resourceVersion)) ?? null);
    }
    return { resourceVersion, uid: first.streamId, namespace: first.namespace, name: first.name, events: rows, patchJson };
  }

  /**
   * Writes after a resourceVersion, oldest first, for the change feed: the log read in order, a
   * batch of events at a time, cut into writes (consecutive events sharing a resourceVersion; an
   * Event's write is its one fact).
   */
  async storedWritesAfter(resourceVersion: number, untilRv: number, limit: number): Promise<StoredLogWrite[]> {
    const out: StoredLogWrite[] = [];
    for (let after = resourceVersion; ;) {
      const rows = (await this.texts.resolve(await this.db.all<StoredEventRow & { patch: StoredText | null }>(FEED, [after, untilRv]))).map(eventRowOf);
      const full = rows.length === FEED_EVENTS;
      let start = 0;
      for (let i = 1; i <= rows.length; i++) {
        if (i < rows.length && rows[i].resourceVersion === rows[start].resourceVersion) continue;
        const eventWrite = isKubeEventFact(rows[start]);
        // The batch may have cut its last write short: that one is read again by the next batch.
        if (i === rows.length && full && start > 0 && !eventWrite) break;
        if (out.length === limit) return out;
        if (eventWrite) {
          const { patch: _none, ...row } = rows[start];
          out.push({ kind: 'Event', resourceVersion: row.resourceVersion, row });
        }
        // (A Service's write longer than a whole batch is read whole on its own.)
        else out.push(i === rows.length && full ? await this.storedWrite(rows[start].resourceVersion) : await this.withPatch(rows.slice(start, i), rows[i - 1].patch));
        after = out[out.length - 1].resourceVersion;
        start = i;
      }
      if (!full) return out;
    }
  }
}
