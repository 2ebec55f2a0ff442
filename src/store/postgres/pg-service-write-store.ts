// The PostgreSQL engine's ServiceWriteStore. Writes are decided before the append lock is taken
// and appended in one statement that holds it only while the server runs it:
//
// 1. The writes one replica receives together form a batch (group commit, pg-append-queue.ts: one
//    statement, one WAL flush for all, Event writes included). One snapshot read loads the live
//    row of every name the batch writes and the log's newest time.
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
import { initialServiceState, evolveAll, type ServiceState } from '../../domain/service.evolve';
import type { Service } from '../../domain/service.types';
import { foldWrite } from '../../projections/committed-write';
import type { CommittedWrite } from '../ports/committed-write';
import { projectionRows } from '../../projections/projection-rows';
import { objectResourceVersion, patchResourceVersion } from '../revision-texts';
import { encodeStoredText, type TextSpan } from '../stored-text-codec';
import { packEventData } from '../packed-event-data';
import type { AllocationKind } from '../../projections/projection-rows';
import type { Clock } from '../../shared/clock';
import { StreamVersionConflictError } from '../ports/stream-version-conflict-error';
import { ResumePointMovedError } from '../ports/mirror-source-store';
import { numberedEvents } from '../ports/recorded-event';
import type { ServiceWriteStore, StepAppend, StepOutcome, StoredFacts, WriteStep } from '../ports/service-write-store';
import type { CommitObserver } from '../ports/commit-observer';
import { WriteNotStoredError } from '../ports/write-not-stored-error';
import { recordingTime } from '../recording-time';
import { type AppendKind, type AppendOutcome, type DecidedWrites, PgAppendQueue, type QueuedWrite, type SentWrite } from './pg-append-queue';
import { appendToken, occurrences } from './append-token';

interface PendingWrite extends QueuedWrite {
  step: WriteStep<unknown>;
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

/** Rounds of allocation questions before the rest of a kind's table is read whole. */
const MAX_ALLOCATION_ROUNDS = 4;

const keyOf = (w: { namespace: string; name: string }) => `${w.namespace}\u0000${w.name}`;
const cellKey = (kind: AllocationKind, value: string) => `${kind}\u0000${value}`;

export class PgServiceWriteStore implements ServiceWriteStore, AppendKind {
  readonly noun = 'Service';

  /** `queue`: the replica's group commit, shared with its Event writes (a queue of its own when absent). */
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    observer?: CommitObserver,
    private readonly queue = new PgAppendQueue(pool, observer),
  ) {}

  write<R>(namespace: string, name: string, step: WriteStep<R>): Promise<{ result: R; committed?: CommittedWrite }> {
    return new Promise((resolve, reject) => {
      const write: PendingWrite = { kind: this, namespace, name, step, resolve, reject, attempts: 0 };
      this.queue.enqueue(write);
    });
  }

  async decide(writes: QueuedWrite[]): Promise<DecidedWrites> {
    const decided = await this.decideAll(writes as PendingWrite[]);
    const sent = decided.filter((d) => d.sent).map((d) => sentWrite(d.sent!));
    return { sent, answer: (outcomes) => this.answer(decided, outcomes) };
  }

  /** Answers every decided write from the statement's results (by sent index); returns those to decide again. */
  private answer(decided: Decided[], results: AppendOutcome[]): PendingWrite[] {
    const again: PendingWrite[] = [];
    const stored = new Set<Decided>();
    for (const d of decided) {
      const { write } = d;
      const result = d.sent ? results[d.sent.index] : undefined;
      // Decided on a state an earlier write of the batch was to leave: only valid if it did.
      if (d.after && !stored.has(d.after)) {
        const failure = results[d.after.sent!.index];
        if (failure && 'failed' in failure) write.reject(new WriteNotStoredError(failure.failed));
        else again.push(write);
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
        else again.push(write);
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
    return again;
  }

  /** Runs every write's step on the snapshot, asking the allocation table only what the steps asked. */
  private async decideAll(batch: PendingWrite[]): Promise<Decided[]> {
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
      // Each event's data packed, base64 (svctrail_append stores the bytes).
      events: append.events.map((event) => ({ type: event.type, data: packEventData(JSON.stringify(event.data)).toString('base64') })),
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
    const { rows } = await this.pool.query<{ namespace: string | null; name: string; object: string; stream_version: number; newest: string | null }>({
      // Named: parsed and planned once per connection.
      name: 'svctrail-service-snapshot',
      text: `SELECT s.namespace, s.name, s.object, s.stream_version, NULL AS newest
         FROM unnest($1::text[], $2::text[]) AS k(namespace, name) JOIN services s ON s.namespace = k.namespace AND s.name = k.name
       UNION ALL SELECT NULL, NULL, NULL, NULL, (SELECT recorded_at FROM events ORDER BY position DESC LIMIT 1)`,
      values: [namespaces, nameList],
    });
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

/** Where svctrail_append's answer goes, and where the log would hold the write. */
function sentWrite(sent: NonNullable<Decided['sent']>): SentWrite {
  const append = sent.append;
  return {
    payload: sent.payload,
    streamId: append?.streamId ?? '',
    firstStreamVersion: (append?.expectedVersion ?? 0) + 1,
    requestId: append?.metadata.requestId ?? '',
    firstData: (sent.payload.events as { data: string }[])[0]?.data ?? '',
    events: append?.events.length ?? 0,
  };
}
