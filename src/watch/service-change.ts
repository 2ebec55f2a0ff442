// One committed write as a watcher sees it: kube-apiserver's watch.Event plus the previous
// object, which selector filtering needs (an update can move an object in or out of a selector).
import type { ServiceEvent } from '../domain/service.events';
import { evolveAll, type ServiceState } from '../domain/service.evolve';
import type { Service } from '../domain/service.types';
import type { CommittedWrite } from '../projections/projection';
import { jsonCopy } from '../domain/json-copy';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ServiceChange {
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

export function changeFromWrite(write: CommittedWrite): ServiceChange {
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
