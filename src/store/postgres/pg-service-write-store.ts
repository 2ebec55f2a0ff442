// The PostgreSQL engine's ServiceWriteStore: the writes a replica receives together share one
// READ COMMITTED transaction (PgGroupCommitter: one savepoint each, one WAL flush for all) that
// first takes the append lock (see pg-event-store.ts), so that every write, from whichever
// replica, reads the live state, decides, appends and projects as if it were alone, exactly as a
// write inside SQLite's single-writer transaction does. It resolves only after COMMIT has
// returned (synchronous_commit: the commit is flushed to the WAL).
//
// The pure step asks allocation questions synchronously (clusterIPTaken, nodePortTaken) while
// this engine can only answer them with a query. So the allocation table of a kind is read
// whole, under the lock, before the step runs when the write creates a Service (every creation
// allocates), and otherwise only when the step asked about it: that first run's answers are
// discarded and the step runs again with the table at hand (the port allows a step to run more
// than once).
import type { Pool } from 'pg';
import { initialServiceState, ServiceState } from '../../domain/service.evolve';
import type { Service } from '../../domain/service.types';
import { foldWrite } from '../../projections/committed-write';
import type { CommittedWrite } from '../../projections/projection';
import type { Clock } from '../../shared/clock';
import type { ServiceWriteStore, StepOutcome, StoredFacts, WriteStep } from '../service-write-store';
import type { CommitObserver } from '../group-commit';
import { PgEventStore, recordingTime } from './pg-event-store';
import { PgGroupCommitter } from './pg-group-commit';
import { recordObservation, recordResumePoint } from './pg-mirror-source-store';
import type { Queryable } from './postgres-database';
import { PgProjector } from './projections/pg-projector';

type AllocationKind = 'cluster-ip' | 'node-port';

/** The allocation table, by kind, as far as this write has read it. */
class AllocationTable {
  private readonly held = new Map<AllocationKind, Set<string>>();

  async load(client: Queryable, kinds: Iterable<AllocationKind>): Promise<void> {
    const wanted = [...kinds].filter((kind) => !this.held.has(kind));
    if (!wanted.length) return;
    for (const kind of wanted) this.held.set(kind, new Set());
    const { rows } = await client.query<{ kind: AllocationKind; value: string }>('SELECT kind, value FROM allocations WHERE kind = ANY($1)', [wanted]);
    for (const row of rows) this.held.get(row.kind)!.add(row.value);
  }

  /** Whether `value` is held; undefined when the kind's table has not been read. */
  taken(kind: AllocationKind, value: string): boolean | undefined {
    return this.held.get(kind)?.has(value);
  }
}

/** Runs of a step per write: one, plus at most one more per allocation kind it asked about. */
const MAX_STEP_RUNS = 3;

export class PgServiceWriteStore implements ServiceWriteStore {
  private readonly committer: PgGroupCommitter;

  constructor(
    pool: Pool,
    private readonly eventStore: PgEventStore,
    private readonly projector: PgProjector,
    private readonly clock: Clock,
    observer?: CommitObserver,
  ) {
    this.committer = new PgGroupCommitter(pool, eventStore, observer);
  }

  write<R>(namespace: string, name: string, step: WriteStep<R>): Promise<{ result: R; committed?: CommittedWrite }> {
    return this.committer.run((client) => this.run(client, namespace, name, step));
  }

  /** One write inside the batch's transaction (its own savepoint), under the append lock. */
  private async run<R>(client: Queryable, namespace: string, name: string, step: WriteStep<R>): Promise<{ result: R; committed?: CommittedWrite }> {
    // The append lock is held (taken with BEGIN): what follows sees every write committed before.
    const { state, newest } = await this.loadLive(client, namespace, name);
    const now = recordingTime(this.clock.now(), newest);
    const table = new AllocationTable();
    if (!state.object) await table.load(client, ['cluster-ip', 'node-port']);
    const outcome = await this.decide(client, step, state, now, table);
    if (outcome.resume) await recordResumePoint(client, outcome.resume, now);
    const append = outcome.append;
    // A no-op or a dry run: nothing to append, the write's savepoint is released empty.
    if (!append) return { result: outcome.finish() };
    const recorded = await this.eventStore.append(
      client,
      { streamId: append.streamId, namespace, name, expectedVersion: append.expectedVersion, events: append.events, metadata: append.metadata },
      { lockHeld: true },
    );
    const committed = foldWrite(append.before, recorded, append.folded);
    await this.projector.apply(client, committed);
    if (append.observation) await recordObservation(client, committed.resourceVersion, append.observation);
    return { result: outcome.finish(committed), committed };
  }

  /** Runs the step until it asked nothing the allocation table read so far cannot answer. */
  private async decide<R>(client: Queryable, step: WriteStep<R>, state: ServiceState, now: Date, table: AllocationTable): Promise<StepOutcome<R>> {
    for (let run = 1; ; run++) {
      const unread = new Set<AllocationKind>();
      const ask = (kind: AllocationKind, value: string): boolean => {
        const taken = table.taken(kind, value);
        if (taken !== undefined) return taken;
        unread.add(kind);
        // This run's outcome is discarded once the table is read. "Free" ends a random scan at
        // its first candidate; "taken" would walk the whole range (a /12 is a million questions).
        return false;
      };
      const facts: StoredFacts = {
        state,
        now,
        clusterIPTaken: (ip) => ask('cluster-ip', ip),
        nodePortTaken: (port) => ask('node-port', String(port)),
      };
      let outcome: StepOutcome<R> | undefined;
      let failure: unknown;
      let failed = false;
      try {
        outcome = step(facts);
      } catch (error) {
        failed = true;
        failure = error;
      }
      if (unread.size === 0 || run >= MAX_STEP_RUNS) {
        if (failed) throw failure;
        if (unread.size) throw new Error('a write step kept asking about allocations it had been given');
        return outcome!;
      }
      await table.load(client, unread);
    }
  }

  /** The live state of the name and when the log's newest write was recorded, in one round trip. */
  private async loadLive(client: Queryable, namespace: string, name: string): Promise<{ state: ServiceState; newest?: string }> {
    const { rows } = await client.query<{ object: string | null; stream_version: number | null; recorded_at: string | null }>(
      `SELECT s.object, s.stream_version, t.recorded_at FROM (SELECT 1) one
         LEFT JOIN services s ON s.namespace = $1 AND s.name = $2
         LEFT JOIN LATERAL (SELECT recorded_at FROM events ORDER BY position DESC LIMIT 1) t ON true`,
      [namespace, name],
    );
    const row = rows[0];
    const newest = row.recorded_at ?? undefined;
    if (row.object === null) return { state: initialServiceState, newest };
    return { state: { object: JSON.parse(row.object) as Service, streamVersion: row.stream_version!, deleted: false }, newest };
  }
}
