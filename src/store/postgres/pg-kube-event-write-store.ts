// The PostgreSQL engine's KubeEventWriteStore, built as the Services' (pg-service-write-store.ts)
// and sharing its group commit (pg-append-queue.ts): a recorder's Events and the Service writes
// of the same turn go to the database in one svctrail_append statement, one COMMIT.
//
// 1. One snapshot read loads the live kube_events row of every name the batch writes and the
//    log's newest time; each write's step runs on its row (a write on a name an earlier write of
//    the batch changed runs on the state that write leaves).
// 2. Its fact, its kube_events row and its kube_event_occurrences row follow from the decision,
//    computed by the SQLite projections' own functions (liveEventRow, occurrenceRow), with a token
//    standing for the resourceVersion the log hands out under the lock.
// 3. svctrail_append (migrations/postgres/0011) compares the live row with the one the write was
//    decided on (its uid and stream version; none: the name must be free) and appends when
//    nothing moved; a moved write is decided again (an expiry another replica already wrote then
//    finds nothing left to expire and answers quietly).
import type { Pool } from 'pg';
import { initialKubeEventState, type KubeEventState } from '../../domain/kube-event/kube-event.evolve';
import type { KubeEvent } from '../../domain/kube-event/kube-event.types';
import { foldEventWrite } from '../../projections/committed-event-write';
import { occurrenceRow } from '../../projections/kube-event-occurrences.projection';
import { liveEventRow } from '../../projections/live-kube-events.projection';
import type { Clock } from '../../shared/clock';
import type { CommittedEventWrite } from '../ports/committed-event-write';
import type { KubeEventStepAppend, KubeEventStepOutcome, KubeEventWriteStep, KubeEventWriteStore } from '../ports/kube-event-write-store';
import { ResumePointMovedError } from '../ports/mirror-source-store';
import { numberedEvents } from '../ports/recorded-event';
import { StreamVersionConflictError } from '../ports/stream-version-conflict-error';
import { WriteNotStoredError } from '../ports/write-not-stored-error';
import { recordingTime } from '../recording-time';
import { packEventData } from '../packed-event-data';
import { appendToken, occurrences } from './append-token';
import type { AppendKind, AppendOutcome, DecidedWrites, PgAppendQueue, QueuedWrite, SentWrite } from './pg-append-queue';

interface PendingEventWrite extends QueuedWrite {
  step: KubeEventWriteStep<unknown>;
}

/** An Event write decided on the batch's snapshot. */
interface Decided {
  write: PendingEventWrite;
  outcome?: KubeEventStepOutcome<unknown>;
  /** The step's refusal. */
  failure?: unknown;
  /** The write of the batch on the same name it was decided after, when that one appends. */
  after?: Decided;
  /** Present when it goes to svctrail_append (`index`: among the batch's sent Event writes). */
  sent?: { append?: KubeEventStepAppend; write: SentWrite; index: number };
}

const keyOf = (w: { namespace: string; name: string }) => `${w.namespace}\u0000${w.name}`;

export class PgKubeEventWriteStore implements KubeEventWriteStore, AppendKind {
  readonly noun = 'Event';

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly queue: PgAppendQueue,
  ) {}

  write<R>(namespace: string, name: string, step: KubeEventWriteStep<R>): Promise<{ result: R; committed?: CommittedEventWrite }> {
    return new Promise((resolve, reject) => {
      const write: PendingEventWrite = { kind: this, namespace, name, step, resolve, reject, attempts: 0 };
      this.queue.enqueue(write);
    });
  }

  async decide(writes: QueuedWrite[]): Promise<DecidedWrites> {
    const batch = writes as PendingEventWrite[];
    const { states, newest } = await this.snapshot(batch);
    const now = recordingTime(this.clock.now(), newest);
    const lastAppend = new Map<string, Decided>();
    const decided: Decided[] = [];
    const sent: SentWrite[] = [];
    for (const write of batch) {
      const key = keyOf(write);
      const live = states.get(key) ?? initialKubeEventState;
      const decision: Decided = { write, after: lastAppend.get(key) };
      decided.push(decision);
      try {
        decision.outcome = write.step({ state: live, now });
        const append = decision.outcome.append;
        if (append && append.expectedVersion !== append.before.streamVersion) throw new StreamVersionConflictError(write.name);
      } catch (error) {
        decision.outcome = undefined;
        decision.failure = error ?? new Error('a write step threw nothing');
        continue;
      }
      const { append, resume } = decision.outcome;
      if (!append && !resume) continue;
      const prepared = prepare(write, decision.outcome, live, now);
      decision.sent = { append, write: prepared.write, index: sent.length };
      sent.push(prepared.write);
      if (prepared.after) {
        states.set(key, prepared.after);
        lastAppend.set(key, decision);
      }
    }
    return { sent, answer: (outcomes) => this.answer(decided, outcomes) };
  }

  /** Answers every decided write from the statement's results (by sent index); returns those to decide again. */
  private answer(decided: Decided[], results: AppendOutcome[]): PendingEventWrite[] {
    const again: PendingEventWrite[] = [];
    const stored = new Set<Decided>();
    for (const d of decided) {
      const { write } = d;
      // Decided on a state an earlier write of the batch was to leave: only valid if it did.
      if (d.after && !stored.has(d.after)) {
        const failure = results[d.after.sent!.index];
        if (failure && 'failed' in failure) write.reject(new WriteNotStoredError(failure.failed));
        else again.push(write);
        continue;
      }
      const result = d.sent ? results[d.sent.index] : undefined;
      if (!result) {
        if (d.failure !== undefined) write.reject(d.failure);
        else write.resolve({ result: d.outcome!.finish() });
        continue;
      }
      if ('failed' in result) write.reject(result.failed);
      else if ('moved' in result) again.push(write);
      else if ('resumeMoved' in result) write.reject(new ResumePointMovedError(d.outcome!.resume!.after, result.resumeMoved, 'events'));
      else if (result.p === null) write.resolve({ result: d.outcome!.finish() });
      else {
        stored.add(d);
        const append = d.sent!.append!;
        const [recorded] = numberedEvents({ ...append, events: [append.fact], namespace: write.namespace, name: write.name, metadata: { ...append.metadata, recordedAt: result.t } }, result.p);
        const committed: CommittedEventWrite = { ...foldEventWrite(append.before, recorded), ...(append.observation ? { observation: append.observation } : {}) };
        write.resolve({ result: d.outcome!.finish(committed), committed });
      }
    }
    return again;
  }

  /** The live row of every name the batch writes and the log's newest time, in one round trip. */
  private async snapshot(batch: PendingEventWrite[]): Promise<{ states: Map<string, KubeEventState>; newest?: string }> {
    const names = new Map(batch.map((w) => [keyOf(w), w]));
    const { rows } = await this.pool.query<{ namespace: string | null; name: string; object: string; stream_version: number; expires_at: string | null; newest: string | null }>({
      // Named: parsed and planned once per connection.
      name: 'svctrail-event-snapshot',
      text: `SELECT k.namespace, k.name, k.object, k.stream_version, k.expires_at, NULL AS newest
         FROM unnest($1::text[], $2::text[]) AS n(namespace, name) JOIN kube_events k ON k.namespace = n.namespace AND k.name = n.name
       UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, (SELECT recorded_at FROM events ORDER BY position DESC LIMIT 1)`,
      values: [[...names.values()].map((w) => w.namespace), [...names.values()].map((w) => w.name)],
    });
    const states = new Map<string, KubeEventState>();
    let newest: string | undefined;
    for (const row of rows) {
      if (row.namespace === null) newest = row.newest ?? undefined;
      else {
        const state: KubeEventState = { object: JSON.parse(row.object) as KubeEvent, streamVersion: row.stream_version, ...(row.expires_at ? { expiresAt: row.expires_at } : {}) };
        states.set(keyOf({ namespace: row.namespace, name: row.name }), state);
      }
    }
    return { states, newest };
  }
}

/** What svctrail_append needs of one decided Event write, and the state it leaves (none: it appends nothing). */
function prepare(write: PendingEventWrite, outcome: KubeEventStepOutcome<unknown>, live: KubeEventState, now: Date): { write: SentWrite; after?: KubeEventState } {
  const payload: Record<string, unknown> = { kind: 'event', ns: write.namespace, name: write.name };
  if (outcome.resume) payload.resume = { after: outcome.resume.after, resourceVersion: outcome.resume.resourceVersion };
  const append = outcome.append;
  if (!append) {
    payload.recordedAt = now.toISOString();
    return { write: { payload, streamId: '', firstStreamVersion: 0, requestId: '', firstData: '', events: 0 } };
  }
  // The fact's data packed, base64 (svctrail_append stores the bytes).
  const data = packEventData(JSON.stringify(append.fact.data)).toString('base64');
  const m = append.metadata;
  // The projections' rows of the write as if at resourceVersion 0, the token in the object's.
  const [recorded] = numberedEvents({ ...append, events: [append.fact], namespace: write.namespace, name: write.name }, 0);
  const folded = foldEventWrite(append.before, recorded);
  let token: string;
  let objectJson: string | null = null;
  do {
    token = appendToken();
    if (folded.after.object) objectJson = JSON.stringify({ ...folded.after.object, metadata: { ...folded.after.object.metadata, resourceVersion: token } });
  } while (objectJson !== null && occurrences(objectJson, token) !== 1);
  const row = liveEventRow({ ...folded, objectJson });
  const { resourceVersion: _occurrenceAt, ...occurrence } = occurrenceRow(folded);
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
    type: append.fact.type,
    data,
    live: row ? { streamVersion: row.streamVersion, object: row.object, expiresAt: row.expiresAt } : null,
    occurrence,
    ...(append.observation ? { observation: append.observation } : {}),
  });
  return {
    write: { payload, streamId: append.streamId, firstStreamVersion: append.expectedVersion + 1, requestId: m.requestId, firstData: data, events: 1 },
    after: folded.after,
  };
}
