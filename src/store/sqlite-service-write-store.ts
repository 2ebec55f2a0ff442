// The embedded engine's ServiceWriteStore: every write runs synchronously inside the group
// commit's shared transaction (its own savepoint), so a batch is one fsync and no other request
// can observe it half done. Load, append and the inline projections are SQLite statements here.
import { foldWrite } from '../projections/committed-write';
import type { CommittedWrite } from './ports/committed-write';
import { type Projector } from '../projections/projector';
import type { Clock } from '../shared/clock';
import type { SqliteMirrorSourceStore } from './sqlite-mirror-source-store';
import { type SqliteEventStore } from './event-store';
import { type GroupCommitter } from './group-commit';
import { type ServiceRepository } from './service-repository';
import type { ServiceWriteStore, StoredFacts, WriteStep } from './ports/service-write-store';

export class SqliteServiceWriteStore implements ServiceWriteStore {
  constructor(
    private readonly committer: GroupCommitter,
    private readonly eventStore: SqliteEventStore,
    private readonly repository: ServiceRepository,
    private readonly projector: Projector,
    private readonly clock: Clock,
    private readonly mirror: SqliteMirrorSourceStore,
  ) {}

  write<R>(namespace: string, name: string, step: WriteStep<R>): Promise<{ result: R; committed?: CommittedWrite }> {
    return this.committer.run(() => {
      const facts: StoredFacts = {
        state: this.repository.loadLive(namespace, name),
        now: this.eventStore.recordingTime(this.clock.now()),
        clusterIPTaken: (ip) => this.repository.clusterIPHolder(ip) !== undefined,
        nodePortTaken: (port) => this.repository.nodePortHolder(port) !== undefined,
      };
      const outcome = step(facts);
      if (outcome.resume) this.mirror.recordResumePoint(outcome.resume, facts.now);
      const append = outcome.append;
      if (!append) return { result: outcome.finish() };
      const recorded = this.eventStore.append({
        streamId: append.streamId,
        namespace,
        name,
        expectedVersion: append.expectedVersion,
        events: append.events,
        metadata: append.metadata,
      });
      // The state was parsed from the services row, whose JSON is the stream's last revision's
      // (one encode feeds both): the revisions projection diffs it instead of reading that back.
      const committed: CommittedWrite = { ...foldWrite(append.before, recorded, append.folded), beforeStored: true, ...(append.observation ? { observation: append.observation } : {}) };
      this.projector.apply(committed);
      if (append.observation) this.mirror.recordObservation(committed.resourceVersion, append.observation);
      return { result: outcome.finish(committed), committed };
    });
  }
}
