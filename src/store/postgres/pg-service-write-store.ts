// The PostgreSQL engine's ServiceWriteStore. Writes are decided before the append lock is taken
// and appended in one statement that holds it only while the server runs it:
//
// 1. The writes one replica receives together form a batch (group commit: one statement, one
//    WAL flush for all). One snapshot read loads the live row of every name the batch writes and
//    the log's newest time.
// 2. Each write's pure step runs on that state (a write on a name an earlier write of the batch
//    changed runs on the state that write leaves). Allocation questions are answered by asking
//    the table for just the values the steps asked about, and running those steps again.
// 3. Every projection row follows from the decision (projection-rows.ts); the batch goes to
//    svctrail_append (migrations/postgres/0005), which takes the append lock, checks that each
//    write's live row and allocations are still the ones it was decided on (compare-and-append),
//    and appends those that are, with the positions and time the log hands out then.
// 4. A write whose row moved (another replica wrote first) is decided again in the next batch.
//
// So no client round trip ever happens under the append lock: a replica that freezes (a long GC,
// a stopped VM, a partition) cannot make another replica's writes wait. Each caller hears back
// after the statement's COMMIT returned (synchronous_commit); when the server answered with an
// error, nothing of the batch is stored; when no answer came, the outcome is unknown.
import type { Pool } from 'pg';
import { DatabaseError } from 'pg';
import { initialServiceState, evolveAll, type ServiceState } from '../../domain/service.evolve';
import type { Service } from '../../domain/service.types';
import { foldWrite } from '../../projections/committed-write';
import type { CommittedWrite } from '../ports/committed-write';
import { projectionRows } from '../../projections/projection-rows';
import { objectResourceVersion, patchResourceVersion } from '../revision-texts';
import { encodeStoredText, type TextSpan } from '../stored-text-codec';
import type { AllocationKind } from '../../projections/projection-rows';
import type { Clock } from '../../shared/clock';
import { StreamVersionConflictError } from '../ports/stream-version-conflict-error';
import { ResumePointMovedError } from '../ports/mirror-source-store';
import { numberedEvents } from '../ports/recorded-event';
import type { ServiceWriteStore, StepAppend, StepOutcome, StoredFacts, WriteStep } from '../ports/service-write-store';
import type { CommitObserver } from '../ports/commit-observer';
import { WriteNotStoredError } from '../ports/write-not-stored-error';
import { WriteOutcomeUnknownError } from '../ports/write-outcome-unknown-error';
import { recordingTime } from '../recording-time';
import { randomBytes } from 'node:crypto';

interface PendingWrite {
  namespace: string;
  name: string;
  step: WriteStep<unknown>;
  resolve: (value: { result: unknown; committed?: CommittedWrite }) => void;
  reject: (error: unknown) => void;
  /** Times it was decided and found moved. */
  attempts: number;
  /** Sent in a batch of its own: a batch holding it failed on a data error. */
  alone?: boolean;
}

/** A write decided on the batch's snapshot. */
interface Decided {
  write: PendingWrite;
  /** The step's answer; a refusal is kept as `failure`. */
  outcome?: StepOutcome<unknown>;
  failure?: unknown;
  /** The write of the batch on the same name it was decided after, when that one appends. */
  after?: Decided;
  /** The step asked about allocations (a value it takes was free when it asked). */
  asked?: boolean;
  /** Present when it goes to svctrail_append. */
  sent?: { append?: StepAppend; before: ServiceState; folded: ServiceState; payload: Record<string, unknown>; index: number };
}

type AppendResult = { p: number | null; rv: number | null; t: string } | { moved: 'object' | 'allocation' } | { resumeMoved: string | null; found: boolean };
/** What became of a sent write: the statement's answer, or its failure. */
type Outcome = AppendResult | { failed: unknown };

/** Writes in one statement: enough to share a flush, few enough that the lock is never held long. */
const MAX_BATCH = 256;
/** Decisions of one write that found its row moved before it is answered as not stored. */
const MAX_ATTEMPTS = 25;
/** Rounds of allocation questions before the rest of a kind's table is read whole. */
const MAX_ALLOCATION_ROUNDS = 4;

const keyOf = (w: { namespace: string; name: string }) => `${w.namespace}\u0000${w.name}`;
const cellKey = (kind: AllocationKind, value: string) => `${kind}\u0000${value}`;

/** The server answered, but the session or the server is going away: the statement may have committed. */
function sessionLost(error: DatabaseError): boolean {
  return error.severity === 'FATAL' || error.severity === 'PANIC' || /^(08|57P)/.test(error.code ?? '');
}

/** A refusal of one write's data (not of the batch, the lock or the server): worth retrying the others alone. */
function dataRefusal(error: DatabaseError): boolean {
  return /^(22|23)/.test(error.code ?? '');
}

export class PgServiceWriteStore implements ServiceWriteStore {
  private queue: PendingWrite[] = [];
  private draining = false;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly observer?: CommitObserver,
  ) {}

  write<R>(namespace: string, name: string, step: WriteStep<R>): Promise<{ result: R; committed?: CommittedWrite }> {
    return new Promise((resolve, reject) => {
      this.queue.push({ namespace, name, step, resolve: resolve as PendingWrite['resolve'], reject, attempts: 0 });
      if (this.draining) return;
      this.draining = true;
      // Everything that arrives during this turn of the event loop joins the first batch.
      setImmediate(() => void this.drain());
    });
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
    }
    this.draining = false;
  }

  /** Decides, appends and answers one batch; returns the writes to decide again. Never rejects. */
  private async runBatch(batch: PendingWrite[]): Promise<PendingWrite[]> {
    let decided: Decided[];
    try {
      decided = await this.decide(batch);
    } catch (error) {
      for (const write of batch) write.reject(new WriteNotStoredError(error));
      return [];
    }
    const sent = decided.filter((d) => d.sent);
    if (!sent.length) return this.answer(decided, []);
    const started = process.hrtime.bigint();
    try {
      const { rows } = await this.pool.query<{ out: { results: AppendResult[]; held: number } }>('SELECT svctrail_append($1::jsonb) AS out', [JSON.stringify(sent.map((d) => d.sent!.payload))]);
      this.observer?.committed(sent.length, Number(process.hrtime.bigint() - started) / 1e9);
      this.observer?.appendLockHeld?.(rows[0].out.held);
      return this.answer(decided, rows[0].out.results);
    } catch (error) {
      if (error instanceof DatabaseError && !sessionLost(error)) {
        // The server refused the statement: it rolled back whole. One write's data may be the cause.
        if (dataRefusal(error) && sent.length > 1) {
          for (const d of decided) d.write.alone = true;
          return decided.map((d) => d.write);
        }
        return this.answer(
          decided,
          sent.map(() => ({ failed: new WriteNotStoredError(error) })),
        );
      }
      return this.answer(decided, await this.lookUp(sent, error));
    }
  }

  /**
   * The statement got no answer, or its session ended with it. When the server itself ended the
   * session (a FATAL error: its backend is gone, so is the statement), the log says which writes
   * it stored; otherwise, or when the log cannot be read, each may or may not have been stored.
   */
  private async lookUp(sent: Decided[], error: unknown): Promise<Outcome[]> {
    const unknown = sent.map(() => ({ failed: new WriteOutcomeUnknownError(error) }));
    if (!(error instanceof DatabaseError && (error.severity === 'FATAL' || error.severity === 'PANIC'))) return unknown;
    try {
      const { rows } = await this.pool.query<{ i: number; position: number; recorded_at: string }>(
        `SELECT k.i, e.position, e.recorded_at FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY AS k(stream_id, stream_version, request_id, data, i)
           JOIN events e ON e.stream_id = k.stream_id AND e.stream_version = k.stream_version AND e.request_id = k.request_id AND e.data = k.data`,
        [
          sent.map((d) => d.sent!.append!.streamId),
          sent.map((d) => d.sent!.append!.expectedVersion + 1),
          sent.map((d) => d.sent!.append!.metadata.requestId),
          sent.map((d) => (d.sent!.payload.events as { data: string }[])[0]?.data ?? ''),
        ],
      );
      const found = new Map(rows.map((row) => [Number(row.i) - 1, row]));
      return sent.map((d, i) => {
        const row = found.get(i);
        if (!row) return { failed: new WriteNotStoredError(error) };
        return { p: row.position, rv: row.position + d.sent!.append!.events.length - 1, t: row.recorded_at };
      });
    } catch {
      return unknown;
    }
  }

  /** Answers every decided write from the statement's results (by sent index); returns those to decide again. */
  private answer(decided: Decided[], results: Outcome[]): PendingWrite[] {
    const again: PendingWrite[] = [];
    const stored = new Set<Decided>();
    for (const d of decided) {
      const { write } = d;
      const result = d.sent ? results[d.sent.index] : undefined;
      // Decided on a state an earlier write of the batch was to leave: only valid if it did.
      if (d.after && !stored.has(d.after)) {
        const failure = results[d.after.sent!.index];
        if (failure && 'failed' in failure) write.reject(new WriteNotStoredError(failure.failed));
        else again.push(this.retried(write));
        continue;
      }
      if (!result) {
        if (d.failure !== undefined) write.reject(d.failure);
        else write.resolve({ result: d.outcome!.finish() });
        continue;
      }
      if ('failed' in result) write.reject(result.failed);
      else if ('moved' in result) {
        // A value the step never asked about is refused by the table alone: deciding again changes nothing.
        if (result.moved === 'allocation' && !d.asked) write.reject(new WriteNotStoredError(new Error('a value the write takes is allocated to another Service')));
        else again.push(this.retried(write));
      } else if ('resumeMoved' in result) write.reject(new ResumePointMovedError(d.outcome!.resume!.after, result.resumeMoved));
      else if (result.p === null) write.resolve({ result: d.outcome!.finish() });
      else {
        stored.add(d);
        const append = d.sent!.append!;
        const recorded = numberedEvents({ ...append, namespace: write.namespace, name: write.name, metadata: { ...append.metadata, recordedAt: result.t } }, result.p);
        const committed = foldWrite(d.sent!.before, recorded, d.sent!.folded.object ?? undefined);
        if (append.observation) committed.observation = append.observation;
        write.resolve({ result: d.outcome!.finish(committed), committed });
      }
    }
    return again.filter((w) => {
      if (w.attempts <= MAX_ATTEMPTS) return true;
      w.reject(new WriteNotStoredError(new Error(`the Service ${w.namespace}/${w.name} kept changing under ${MAX_ATTEMPTS} attempts to write it`)));
      return false;
    });
  }

  private retried(write: PendingWrite): PendingWrite {
    write.attempts++;
    return write;
  }

  /** Runs every write's step on the snapshot, asking the allocation table only what the steps asked. */
  private async decide(batch: PendingWrite[]): Promise<Decided[]> {
    const snapshot = await this.snapshot(batch);
    const now = recordingTime(this.clock.now(), snapshot.newest);
    const states = snapshot.states;
    const known = new Map<string, boolean>();
    const wholeKinds = new Set<AllocationKind>();
    const takenInBatch = new Set<string>();
    /** The last write of the batch that appends to each name. */
    const lastAppend = new Map<string, Decided>();
    const out: Decided[] = [];
    let sentCount = 0;
    let pending = batch;
    for (let round = 0; pending.length; round++) {
      const asked = new Map<AllocationKind, Set<string>>();
      const waiting = new Set<string>();
      const next: PendingWrite[] = [];
      for (const write of pending) {
        const key = keyOf(write);
        // An earlier write of the name waits for an answer: this one is decided after it.
        if (waiting.has(key)) {
          next.push(write);
          continue;
        }
        const state = states.get(key) ?? initialServiceState;
        const unknown: [AllocationKind, string][] = [];
        let asks = 0;
        const ask = (kind: AllocationKind, value: string): boolean => {
          asks++;
          if (takenInBatch.has(cellKey(kind, value))) return true;
          const taken = known.get(cellKey(kind, value));
          if (taken !== undefined || wholeKinds.has(kind)) return taken ?? false;
          unknown.push([kind, value]);
          // Discarded once the value is known. "Free" ends a random scan at its first candidate.
          return false;
        };
        const facts: StoredFacts = { state, now, clusterIPTaken: (ip) => ask('cluster-ip', ip), nodePortTaken: (port) => ask('node-port', String(port)) };
        const decision: Decided = { write, after: lastAppend.get(key) };
        try {
          decision.outcome = write.step(facts);
          const append = decision.outcome.append;
          // The log refuses a stream version the stream is not at; so does this engine, before sending it.
          if (append && append.expectedVersion !== append.before.streamVersion) throw new StreamVersionConflictError(write.name);
        } catch (error) {
          decision.outcome = undefined;
          decision.failure = error ?? new Error('a write step threw nothing');
        }
        decision.asked = asks > 0;
        if (unknown.length) {
          for (const [kind, value] of unknown) (asked.get(kind) ?? asked.set(kind, new Set()).get(kind)!).add(value);
          waiting.add(key);
          next.push(write);
          continue;
        }
        out.push(decision);
        const outcome = decision.outcome;
        if (!outcome || (!outcome.append && !outcome.resume)) continue;
        decision.sent = this.prepare(decision, outcome, state, now, sentCount++);
        if (outcome.append) {
          states.set(key, decision.sent.folded);
          lastAppend.set(key, decision);
          for (const cell of (decision.sent.payload.take as { kind: AllocationKind; value: string }[]) ?? []) takenInBatch.add(cellKey(cell.kind, cell.value));
        }
      }
      pending = next;
      if (asked.size) await this.learnAllocations(asked, known, wholeKinds, round >= MAX_ALLOCATION_ROUNDS);
    }
    return out;
  }

  /** What svctrail_append needs of one decided write. */
  private prepare(decision: Decided, outcome: StepOutcome<unknown>, live: ServiceState, now: Date, index: number): NonNullable<Decided['sent']> {
    const { write } = decision;
    const append = outcome.append;
    const before = append?.before ?? live;
    const payload: Record<string, unknown> = { ns: write.namespace, name: write.name, events: [] };
    if (outcome.resume) payload.resume = { after: outcome.resume.after, resourceVersion: outcome.resume.resourceVersion };
    if (!append) {
      payload.recordedAt = now.toISOString();
      return { before, folded: before, payload, index };
    }
    const count = append.events.length;
    const folded: ServiceState = append.folded ? { object: append.folded, streamVersion: before.streamVersion + count, deleted: false } : evolveAll(before, append.events, 0);
    const object = folded.object;
    let token: string;
    let objectJson: string | null = null;
    let rows: ReturnType<typeof projectionRows>;
    for (;;) {
      // The resourceVersion is the log's to hand out: the texts carry a token the statement replaces.
      token = appendToken();
      if (object) {
        object.metadata.resourceVersion = token;
        objectJson = JSON.stringify(object);
      }
      rows = projectionRows({ events: append.events.map((event) => ({ event })), before, after: folded, objectJson });
      if (!rows.revision || (occurrences(rows.revision.object, token) === 1 && occurrences(rows.revision.patch, token) <= 1)) break;
    }
    const m = append.metadata;
    Object.assign(payload, {
      uid: append.streamId,
      // The live row the write was decided on (none: the name was free), and the stream's version.
      expectUid: live.object ? live.object.metadata.uid : null,
      expectVersion: live.streamVersion,
      baseVersion: append.expectedVersion,
      token,
      recordedAt: m.recordedAt,
      user: m.user,
      groups: JSON.stringify(m.groups),
      userAgent: m.userAgent,
      fieldManager: m.fieldManager,
      requestId: m.requestId,
      verb: m.verb,
      subresource: m.subresource,
      events: append.events.map((event) => ({ type: event.type, data: JSON.stringify(event.data) })),
      service: rows.service,
      born: rows.born,
      died: rows.died,
      transitions: rows.transitions,
      ingress: rows.ingress,
      release: rows.release,
      take: rows.take,
      ...(rows.revision ? { revision: revisionTexts(rows.revision, token) } : {}),
      ...(append.observation ? { observation: append.observation } : {}),
    });
    return { append, before, folded, payload, index };
  }

  /** The asked allocation values (one query for every kind), or after enough rounds the asked kinds' whole tables. */
  private async learnAllocations(asked: Map<AllocationKind, Set<string>>, known: Map<string, boolean>, wholeKinds: Set<AllocationKind>, whole: boolean): Promise<void> {
    const kinds = [...asked.keys()];
    if (whole) {
      const { rows } = await this.pool.query<{ kind: AllocationKind; value: string }>('SELECT kind, value FROM allocations WHERE kind = ANY($1)', [kinds]);
      for (const kind of kinds) wholeKinds.add(kind);
      for (const row of rows) known.set(cellKey(row.kind, row.value), true);
      return;
    }
    const cells = [...asked].flatMap(([kind, values]) => [...values].map((value) => [kind, value] as const));
    const { rows } = await this.pool.query<{ kind: AllocationKind; value: string }>(
      'SELECT a.kind, a.value FROM unnest($1::text[], $2::text[]) AS k(kind, value) JOIN allocations a ON a.kind = k.kind AND a.value = k.value',
      [cells.map(([kind]) => kind), cells.map(([, value]) => value)],
    );
    for (const [kind, value] of cells) known.set(cellKey(kind, value), false);
    for (const row of rows) known.set(cellKey(row.kind, row.value), true);
  }

  /** The live row of every name the batch writes and the log's newest time, in one round trip. */
  private async snapshot(batch: PendingWrite[]): Promise<{ states: Map<string, ServiceState>; newest?: string }> {
    const names = new Map(batch.map((w) => [keyOf(w), w]));
    const namespaces = [...names.values()].map((w) => w.namespace);
    const nameList = [...names.values()].map((w) => w.name);
    const { rows } = await this.pool.query<{ namespace: string | null; name: string; object: string; stream_version: number; newest: string | null }>(
      `SELECT s.namespace, s.name, s.object, s.stream_version, NULL AS newest
         FROM unnest($1::text[], $2::text[]) AS k(namespace, name) JOIN services s ON s.namespace = k.namespace AND s.name = k.name
       UNION ALL SELECT NULL, NULL, NULL, NULL, (SELECT recorded_at FROM events ORDER BY position DESC LIMIT 1)`,
      [namespaces, nameList],
    );
    const states = new Map<string, ServiceState>();
    let newest: string | undefined;
    for (const row of rows) {
      if (row.namespace === null) newest = row.newest ?? undefined;
      else states.set(keyOf(row as { namespace: string; name: string }), { object: JSON.parse(row.object) as Service, streamVersion: row.stream_version, deleted: false });
    }
    return { states, newest };
  }
}

/**
 * A revision's object and patch for svctrail_append: stored texts (revision-texts.ts) cut before
 * their WITH_TAIL span, the token standing for the resourceVersion, whose digits the statement
 * appends (`patchTail`: the patch sets it too, as every write's does).
 */
function revisionTexts(revision: { object: string; patch: string }, token: string): { object: string; patch: string; patchTail: boolean } {
  const cut = (text: string, span: TextSpan | undefined): { bytes: string; tail: boolean } => {
    const tail = span !== undefined && text.slice(span.start, span.end) === token;
    if (!tail && text.includes(token)) throw new Error('the resourceVersion token is not where the stored text keeps the resourceVersion');
    const stored = encodeStoredText(text, span);
    return { bytes: (tail ? stored.subarray(0, stored.length - token.length) : stored).toString('base64'), tail };
  };
  const object = cut(revision.object, objectResourceVersion(revision.object));
  if (!object.tail) throw new Error('a revision without its resourceVersion token');
  const patch = cut(revision.patch, patchResourceVersion(revision.patch));
  return { object: object.bytes, patch: patch.bytes, patchTail: patch.tail };
}

function occurrences(text: string, token: string): number {
  let count = 0;
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + token.length)) count++;
  return count;
}

/** Stands for the write's resourceVersion in its texts until the log hands it out (unguessable, JSON-safe). */
function appendToken(): string {
  return `rv~${randomBytes(12).toString('base64url')}`;
}
