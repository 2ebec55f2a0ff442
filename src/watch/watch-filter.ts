// Which watchers see which changes: namespace, label and field selectors applied to the object
// before and after a write, as kube-apiserver's cacheWatcher does (an update that leaves the
// selector is a DELETED, one that enters it an ADDED).
import type { FieldSelector } from '../domain/selectors/field-selector';
import { matchesFields, serviceFieldSet } from '../domain/selectors/field-selector';
import type { LabelSelector } from '../domain/selectors/label-selector';
import { matchesLabels } from '../domain/selectors/label-selector';
import type { Service } from '../domain/service.types';
import { type ServiceWatchChange, type WatchEventType, withResourceVersion } from '../domain/service-change';

export interface WatchFilter {
  namespace?: string;
  labels?: LabelSelector;
  fields?: FieldSelector;
}

export function matchesFilter(filter: WatchFilter, object: Service): boolean {
  if (filter.namespace !== undefined && object.metadata.namespace !== filter.namespace) return false;
  if (filter.labels && !matchesLabels(filter.labels, object.metadata.labels)) return false;
  if (filter.fields && !matchesFields(filter.fields, serviceFieldSet(object))) return false;
  return true;
}

/** The object of the DELETED that watchers a write moved out of their selector get: one per change. */
const leftObjects = new WeakMap<ServiceWatchChange, Service>();

function leftObject(change: ServiceWatchChange): Service {
  let object = leftObjects.get(change);
  if (!object) leftObjects.set(change, (object = withResourceVersion(change.previous!, change.resourceVersion)));
  return object;
}

/**
 * Whether the object before the change was in the watcher's view. Without selectors only its
 * namespace matters, which a write never changes: an update's previous object matched when the
 * new one does, and is not read (a resumed watch reads it from the log only when needed).
 */
function previousMatches(filter: WatchFilter, change: ServiceWatchChange): boolean {
  if (change.type === 'ADDED') return false;
  if (change.type === 'MODIFIED' && !filter.labels && !filter.fields) return filter.namespace === undefined || change.object.metadata.namespace === filter.namespace;
  return change.previous !== null && matchesFilter(filter, change.previous);
}

/** The event this watcher receives for a change, or undefined when it sees none. */
export function eventFor(filter: WatchFilter, change: ServiceWatchChange): { type: WatchEventType; object: Service } | undefined {
  const before = previousMatches(filter, change);
  if (change.type === 'DELETED') return before ? { type: 'DELETED', object: change.object } : undefined;
  const after = matchesFilter(filter, change.object);
  if (after) return { type: before ? 'MODIFIED' : 'ADDED', object: change.object };
  if (before) return { type: 'DELETED', object: leftObject(change) };
  return undefined;
}
