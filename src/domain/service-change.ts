// One committed write as a watcher sees it: kube-apiserver's watch.Event plus the previous
// object, which selector filtering needs (an update can move an object in or out of a selector).
import type { ServiceEvent } from './service.events';
import { evolveAll, type ServiceState } from './service.evolve';
import type { Service } from './service.types';
import { jsonCopy } from './json-copy';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ServiceWatchChange {
  resourceVersion: number;
  type: WatchEventType;
  /** The object after the write; for DELETED the last state, carrying the deletion's resourceVersion. */
  object: Service;
  previous: Service | null;
}

/** Stamps a copy of an object with another resourceVersion (deletions carry their own). */
export function withResourceVersion(object: Service, resourceVersion: number): Service {
  const copy = jsonCopy(object);
  copy.metadata.resourceVersion = String(resourceVersion);
  return copy;
}

/**
 * The object a DELETED event carries: the last state, including whatever the deleting write
 * changed first (an update that removes the last finalizer deletes the updated object).
 */
export function deletedObject(before: ServiceState, events: readonly ServiceEvent[], resourceVersion: number): Service {
  const lastState =
    evolveAll(
      before,
      events.filter((e) => e.type !== 'ServiceDeleted'),
      resourceVersion,
    ).object ?? before.object!;
  return withResourceVersion(lastState, resourceVersion);
}

/** What a change needs of a committed write (the store's CommittedWrite is one). */
export interface WriteFold {
  resourceVersion: number;
  events: readonly { event: ServiceEvent }[];
  before: ServiceState;
  after: ServiceState;
}

export function changeFromWrite(write: WriteFold): ServiceWatchChange {
  if (!write.after.object) {
    return {
      resourceVersion: write.resourceVersion,
      type: 'DELETED',
      object: deletedObject(
        write.before,
        write.events.map((e) => e.event),
        write.resourceVersion,
      ),
      previous: write.before.object,
    };
  }
  return {
    resourceVersion: write.resourceVersion,
    type: write.before.object ? 'MODIFIED' : 'ADDED',
    object: write.after.object,
    previous: write.before.object,
  };
}
