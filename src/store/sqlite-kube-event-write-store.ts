// The embedded engine's KubeEventWriteStore: like the Services' writes, every Event write runs
// inside the group commit's shared transaction (its own savepoint), so a recorder's burst of
// Events shares one fsync with whatever else was written in the same turn.
import { initialKubeEventState, type KubeEventState } from '../domain/kube-event/kube-event.evolve';
import type { KubeEvent } from '../domain/kube-event/kube-event.types';
import { foldEventWrite } from '../projections/committed-event-write';
import type { Projector } from '../projections/projector';
import type { Clock } from '../shared/clock';
import type { DatabaseHandle } from './database';
import type { SqliteEventStore } from './event-store';
import type { GroupCommitter } from './group-commit';
import type { CommittedEventWrite } from './ports/committed-event-write';
import type { KubeEventWriteStep, KubeEventWriteStore } from './ports/kube-event-write-store';
import type { SqliteMirrorSourceStore } from './sqlite-mirror-source-store';

export class SqliteKubeEventWriteStore implements KubeEventWriteStore {
  private readonly live;

  constructor(
    handle: DatabaseHandle,
    private readonly committer: GroupCommitter,
    private readonly eventStore: SqliteEventStore,
    private readonly projector: Projector,
    private readonly clock: Clock,
    private readonly mirror: SqliteMirrorSourceStore,
  ) {
    this.live = handle.sqlite.prepare('SELECT object, stream_version AS streamVersion, expires_at AS expiresAt FROM kube_events WHERE namespace = ? AND name = ?');
  }

  /** The live Event's state, from its projection row (never by a fold). */
  private loadLive(namespace: string, name: string): KubeEventState {
    const row = this.live.get(namespace, name) as { object: string; streamVersion: number; expiresAt: string | null } | undefined;
    if (!row) return initialKubeEventState;
    return { object: JSON.parse(row.object) as KubeEvent, streamVersion: row.streamVersion, ...(row.expiresAt ? { expiresAt: row.expiresAt } : {}) };
  }

  write<R>(namespace: string, name: string, step: KubeEventWriteStep<R>): Promise<{ result: R; committed?: CommittedEventWrite }> {
    return this.committer.run(() => {
      const state = this.loadLive(namespace, name);
      const now = this.eventStore.recordingTime(this.clock.now());
      const outcome = step({ state, now });
      if (outcome.resume) this.mirror.recordResumePoint(outcome.resume, now, 'events');
      const append = outcome.append;
      if (!append) return { result: outcome.finish() };
      const [recorded] = this.eventStore.append({
        streamId: append.streamId,
        namespace,
        name,
        expectedVersion: append.expectedVersion,
        events: [append.fact],
        metadata: append.metadata,
      });
      const committed: CommittedEventWrite = { ...foldEventWrite(append.before, recorded), ...(append.observation ? { observation: append.observation } : {}) };
      this.projector.applyEvent(committed);
      if (append.observation) this.mirror.recordObservation(committed.resourceVersion, append.observation);
      return { result: outcome.finish(committed), committed };
    });
  }
}
