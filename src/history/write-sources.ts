// Where recorded writes came from, for history items (mirror mode): the source's resourceVersion,
// when svctrail observed the write and how it found it, and who made it once the audit webhook
// said so. Without mirror mode there are no ports and no lookup: items of direct writes carry
// neither.
import type { AuditActorStore, JoinedActor } from '../store/ports/audit-actor-store';
import type { MirrorObservations } from '../store/ports/mirror-source-store';
import type { WriteSource } from './history-items';

/** What a history item adds for a mirrored write. */
export interface MirroredWrite {
  source: WriteSource;
  /** Who made it, when the audit webhook said so (as of the asked time). */
  actor?: JoinedActor;
  /** The manager whose managedFields entry the write changed: who made it, as far as the object tells. */
  fieldManager: string;
}

/** Who made a mirrored write as far as known: the audit event's user, else the field manager (a hint); undefined: neither. */
export function madeBy(write: MirroredWrite): { name: string; kind: 'audit' | 'fieldManager' } | undefined {
  if (write.actor) return { name: write.actor.user, kind: 'audit' };
  return write.fieldManager ? { name: write.fieldManager, kind: 'fieldManager' } : undefined;
}

export class WriteSources {
  constructor(
    private readonly observations?: MirrorObservations,
    private readonly actors?: Pick<AuditActorStore, 'actors'>,
  ) {}

  get mirrored(): boolean {
    return this.observations !== undefined;
  }

  /**
   * The source (and actor) of each mirrored write among `resourceVersions`, in one lookup each.
   * `knownAt`: an actor svctrail learned after this time is left out — the history as it was known then.
   */
  async of(resourceVersions: readonly number[], knownAt?: string): Promise<Map<number, MirroredWrite>> {
    const out = new Map<number, MirroredWrite>();
    if (!this.observations || !resourceVersions.length) return out;
    const rvs = [...new Set(resourceVersions)];
    const found = await this.observations.observations(rvs);
    const actors = this.actors && found.size ? await this.actors.actors([...found.keys()]) : new Map<number, JoinedActor>();
    for (const [rv, o] of found) {
      const actor = actors.get(rv);
      const known = actor && (knownAt === undefined || actor.identifiedAt <= knownAt);
      out.set(rv, { source: { resourceVersion: o.sourceResourceVersion, observedAt: o.observedAt, via: o.via }, ...(known ? { actor } : {}), fieldManager: o.fieldManager });
    }
    return out;
  }
}
