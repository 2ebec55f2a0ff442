// Where recorded writes came from, for history items (mirror mode): the source's resourceVersion,
// when svctrail observed the write and how it found it. Without mirror mode there is no port and
// no lookup: items of direct writes carry no `source`.
import type { MirrorObservations } from '../store/mirror-source-store';
import type { WriteSource } from './history-items';

export class WriteSources {
  constructor(private readonly observations?: MirrorObservations) {}

  /** The source of each mirrored write among `resourceVersions`, in one lookup. */
  async of(resourceVersions: readonly number[]): Promise<Map<number, WriteSource>> {
    const out = new Map<number, WriteSource>();
    if (!this.observations || !resourceVersions.length) return out;
    for (const [rv, o] of await this.observations.observations([...new Set(resourceVersions)])) {
      out.set(rv, { resourceVersion: o.sourceResourceVersion, observedAt: o.observedAt, via: o.via });
    }
    return out;
  }
}
