// PostgreSQL's group commit: every write a replica receives in one turn of the event loop,
// Service or Event, goes to the database in one svctrail_append statement (one append lock, one
// COMMIT, one WAL flush), as SQLite's group commit puts both kinds in one transaction. Each kind
// of write decides its writes of a batch itself, on a snapshot of its own live rows, before the
// lock (pg-service-write-store.ts, pg-kube-event-write-store.ts); this queue sends what they
// decided and tells them what the statement answered:
//
// - the statement committed: each write's result (appended, moved, resume point moved);
// - the server refused it: nothing of the batch is stored (a refusal of one write's data sends
//   every write of the batch again, each alone, so the others are not refused with it);
// - the session ended under it (the server's FATAL): the log says which writes are stored;
// - no answer came: each write may or may not be stored.
//
// A write whose row moved (another replica wrote first) is decided again in the next batch, at
// most MAX_ATTEMPTS times.
//
// A failover: while no server accepts writes (the old primary gone or read-only, the standby not
// promoted yet, an address that leads to a standby), nothing of a batch could be stored, since no
// connection was made or the server refused it as read-only. Its writes are decided and sent
// again, a moment apart, on the server that accepts writes by then (PrimaryLocator), for up to
// FAILOVER_PATIENCE_MS after they arrived; then each is answered "not stored", which the API
// answers as it answers an unreachable database (ServerTimeout, retried by clients).
import type { Pool } from 'pg';
import { DatabaseError } from 'pg';
import { checkout } from './postgres-database';
import type { CommitObserver } from '../ports/commit-observer';
import { WriteNotStoredError } from '../ports/write-not-stored-error';
import { WriteOutcomeUnknownError } from '../ports/write-outcome-unknown-error';

/** One write waiting for its batch. */
export interface QueuedWrite {
  /** Who decides and answers it. */
  readonly kind: AppendKind;
  readonly namespace: string;
  readonly name: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** Times it was decided and found moved. */
  attempts: number;
  /** Sent in a batch of its own: a batch holding it failed on a data error. */
  alone?: boolean;
  /** When it first waited for a server that accepts writes (ms since the epoch). */
  waitingSince?: number;
}

/** A decided write as svctrail_append takes it, and where its first event would be in the log. */
export interface SentWrite {
  payload: Record<string, unknown>;
  /** Found in the log by these when the statement's outcome must be looked up (lookUp). */
  streamId: string;
  firstStreamVersion: number;
  requestId: string;
  /** The first event's packed data, base64, as sent. */
  firstData: string;
  events: number;
}

/** What svctrail_append answered for one write. */
export type AppendResult = { p: number | null; rv: number | null; t: string } | { moved: 'object' | 'allocation' } | { resumeMoved: string | null; found: boolean };
/** What became of a sent write: the statement's answer, or its failure. */
export type AppendOutcome = AppendResult | { failed: unknown };

/** One kind's writes of a batch, decided. */
export interface DecidedWrites {
  /** The writes to append, in the order they were decided. */
  sent: SentWrite[];
  /** Answers every write given to `decide` from the outcomes of `sent`, in order; returns those to decide again. */
  answer(outcomes: AppendOutcome[]): QueuedWrite[];
}

/** A kind of write (Services, Events): how its writes are decided on a snapshot of its live rows. */
export interface AppendKind {
  /** What the writes are of, for messages. */
  readonly noun: string;
  /** Decides the kind's writes of a batch, in order. A rejection refuses them all as not stored. */
  decide(writes: QueuedWrite[]): Promise<DecidedWrites>;
}

/** Writes in one statement: enough to share a flush, few enough that the lock is never held long. */
const MAX_BATCH = 256;
/** Decisions of one write that found its row moved before it is answered as not stored. */
const MAX_ATTEMPTS = 25;

/** How long a write waits for a server that accepts writes again (a failover) before it is answered "not stored". */
const FAILOVER_PATIENCE_MS = 10_000;
/** The pause between two tries while no server accepts writes. */
const FAILOVER_RETRY_MS = 200;

/** Socket errors that happen before anything is sent (connecting), and node-postgres's words for a connection never made. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const CONNECT_TIMEOUT = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/;

/**
 * Nothing was stored, and a server that accepts writes may be found elsewhere or soon: no
 * connection could be made, or the server refused the statement as read-only (25006: a standby,
 * a fenced old primary; PrimaryLocator's ServerNotWritableError) or is still starting (57P03).
 */
function primaryMissing(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code === '25006' || code === '57P03') return true;
  if (typeof code === 'string' && NOT_CONNECTED.has(code)) return true;
  if (CONNECT_TIMEOUT.test(error.message)) return true;
  if (error instanceof AggregateError) return error.errors.every(primaryMissing);
  return false;
}

/** The server answered, but the session or the server is going away: the statement may have committed. */
function sessionLost(error: DatabaseError): boolean {
  return error.severity === 'FATAL' || error.severity === 'PANIC' || /^(08|57P)/.test(error.code ?? '');
}

/** A refusal of one write's data (not of the batch, the lock or the server): worth retrying the others alone. */
function dataRefusal(error: DatabaseError): boolean {
  return /^(22|23)/.test(error.code ?? '');
}

export class PgAppendQueue {
  private queue: QueuedWrite[] = [];
  private draining = false;

  constructor(
    private readonly pool: Pool,
    private readonly observer?: CommitObserver,
  ) {}

  /** Queues a write; its kind decides it with the others of its batch, and resolves or rejects it. */
  enqueue(write: QueuedWrite): void {
    this.queue.push(write);
    if (this.draining) return;
    this.draining = true;
    // Everything that arrives during this turn of the event loop joins the first batch.
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      // A write sent alone goes on its own; the others in order up to the next such write.
      const alone = this.queue.findIndex((w, i) => i > 0 && w.alone);
      const size = this.queue[0].alone ? 1 : Math.min(MAX_BATCH, alone === -1 ? this.queue.length : alone);
      const batch = this.queue.splice(0, size);
      const again = await this.runBatch(batch);
      // Writes decided again go first, in their order: a name's writes keep their arrival order.
      this.queue.unshift(...again);
      if (again.some((write) => write.waitingSince !== undefined)) await new Promise((resolve) => setTimeout(resolve, FAILOVER_RETRY_MS));
    }
    this.draining = false;
  }

  /** Decides, appends and answers one batch; returns the writes to decide again (counted). Never rejects. */
  private async runBatch(batch: QueuedWrite[]): Promise<QueuedWrite[]> {
    const kinds = new Map<AppendKind, QueuedWrite[]>();
    /** Writes to send again once a server accepts writes. */
    const waiting: QueuedWrite[] = [];
    for (const write of batch) (kinds.get(write.kind) ?? kinds.set(write.kind, []).get(write.kind)!).push(write);
    const decided = (
      await Promise.all(
        [...kinds].map(async ([kind, writes]) => {
          try {
            return { writes, decided: await kind.decide(writes) };
          } catch (error) {
            return { writes, error };
          }
        }),
      )
    ).filter((part) => {
      if (!('error' in part)) return true;
      waiting.push(...this.waitForPrimary(part.writes, part.error));
      return false;
    }) as { writes: QueuedWrite[]; decided: DecidedWrites }[];
    const ready = (again: QueuedWrite[]) => {
      for (const write of again) write.waitingSince = undefined;
      return [...again, ...waiting];
    };
    const sent = decided.flatMap((part) => part.decided.sent);
    const answer = (outcomes: AppendOutcome[]) => {
      let at = 0;
      return this.limited(decided.flatMap((part) => part.decided.answer(outcomes.slice(at, (at += part.decided.sent.length)))));
    };
    if (!sent.length) return ready(answer([]));
    const started = process.hrtime.bigint();
    let unreplicated: string | undefined;
    try {
      const rows = await this.append(sent, (why) => (unreplicated = why));
      this.observer?.committed(sent.length, Number(process.hrtime.bigint() - started) / 1e9);
      this.observer?.appendLockHeld?.(rows[0].out.held);
      // Committed here, but the wait for the synchronous standby was cancelled: a failover may still lose it.
      if (unreplicated) return ready(answer(sent.map(() => ({ failed: new WriteOutcomeUnknownError(new Error(unreplicated)) }))));
      return ready(answer(rows[0].out.results));
    } catch (error) {
      if (primaryMissing(error))
        return [
          ...waiting,
          ...this.waitForPrimary(
            decided.flatMap((part) => part.writes),
            error,
          ),
        ];
      if (error instanceof DatabaseError && !sessionLost(error)) {
        // The server refused the statement: it rolled back whole. One write's data may be the cause.
        if (dataRefusal(error) && sent.length > 1) {
          const writes = decided.flatMap((part) => part.writes);
          for (const write of writes) write.alone = true;
          return ready(writes);
        }
        return ready(answer(sent.map(() => ({ failed: new WriteNotStoredError(error) }))));
      }
      // The log of a server whose synchronous standby may lack the write does not tell whether it will stay.
      if (unreplicated) return ready(answer(sent.map(() => ({ failed: new WriteOutcomeUnknownError(error) }))));
      return ready(answer(await this.lookUp(sent, error)));
    }
  }

  /**
   * Sends one batch's statement. PostgreSQL answers a COMMIT whose wait for the synchronous
   * standby was cancelled (the backend cancelled or terminated meanwhile) with a warning, and the
   * commit stands on this server only: `unreplicated` hears of it.
   */
  private async append(sent: SentWrite[], unreplicated: (why: string) => void): Promise<{ out: { results: AppendResult[]; held: number } }[]> {
    const client = await checkout(this.pool);
    const heard = (notice: { message?: string }) => {
      if (/synchronous replication/i.test(notice.message ?? '')) unreplicated(notice.message!);
    };
    client.on('notice', heard);
    let broken: Error | undefined;
    try {
      // Named: each connection parses and plans it once (a batch's fixed cost is paid per batch, and smaller batches are more of them).
      const { rows } = await client.query<{ out: { results: AppendResult[]; held: number } }>({
        name: 'svctrail-append',
        text: 'SELECT svctrail_append($1::jsonb) AS out',
        values: [JSON.stringify(sent.map((s) => s.payload))],
      });
      return rows;
    } catch (error) {
      broken = error as Error;
      throw error;
    } finally {
      client.off('notice', heard);
      client.releaseChecked(broken);
    }
  }

  /** Writes of which nothing was stored, to send again after a pause while no server accepts writes; those that waited long enough are answered "not stored". */
  private waitForPrimary(writes: QueuedWrite[], error: unknown): QueuedWrite[] {
    const now = Date.now();
    return writes.filter((write) => {
      if (primaryMissing(error) && now - (write.waitingSince ??= now) < FAILOVER_PATIENCE_MS) return true;
      write.reject(new WriteNotStoredError(error));
      return false;
    });
  }

  /** Counts a decision again; a write that kept moving is answered as not stored. */
  private limited(again: QueuedWrite[]): QueuedWrite[] {
    return again.filter((write) => {
      if (++write.attempts <= MAX_ATTEMPTS) return true;
      write.reject(new WriteNotStoredError(new Error(`the ${write.kind.noun} ${write.namespace}/${write.name} kept changing under ${MAX_ATTEMPTS} attempts to write it`)));
      return false;
    });
  }

  /**
   * The statement got no answer, or its session ended with it. When the server itself ended the
   * session (a FATAL error: its backend is gone, so is the statement), the log says which writes
   * it stored; otherwise, or when the log cannot be read, each may or may not have been stored.
   */
  private async lookUp(sent: SentWrite[], error: unknown): Promise<AppendOutcome[]> {
    const unknown = sent.map(() => ({ failed: new WriteOutcomeUnknownError(error) }));
    if (!(error instanceof DatabaseError && (error.severity === 'FATAL' || error.severity === 'PANIC'))) return unknown;
    try {
      const { rows } = await this.pool.query<{ i: number; position: number; recorded_at: string }>(
        `SELECT k.i, e.position, e.recorded_at FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY AS k(stream_id, stream_version, request_id, data, i)
           JOIN events e ON e.stream_id = k.stream_id AND e.stream_version = k.stream_version AND e.request_id = k.request_id AND e.packed_data = decode(k.data, 'base64')`,
        [sent.map((s) => s.streamId), sent.map((s) => s.firstStreamVersion), sent.map((s) => s.requestId), sent.map((s) => s.firstData)],
      );
      const found = new Map(rows.map((row) => [Number(row.i) - 1, row]));
      return sent.map((s, i) => {
        const row = found.get(i);
        // A write that appends nothing (a resume point alone) leaves no trace to look for.
        if (!s.events) return unknown[i];
        if (!row) return { failed: new WriteNotStoredError(error) };
        return { p: row.position, rv: row.position + s.events - 1, t: row.recorded_at };
      });
    } catch {
      return unknown;
    }
  }
}
