// Which watchers see which changes: namespace, label and field selectors applied to the object
// before and after a write, as kube-apiserver's cacheWatcher does (an update that leaves the
// selector is a DELETED, one that enters it an ADDED).
import type { FieldSelector } from '../domain/selectors/field-selector';
import { matchesFields, serviceFieldSet } from '../domain/selectors/field-selector';
import type { LabelSelector } from '../domain/selectors/label-selector';
import { matchesLabels } from '../domain/selectors/label-selector';
import type { Service } from '../domain/service.types';
import { ServiceChange, WatchEventType, withResourceVersion } from './service-change';

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
const leftObjects = new WeakMap<ServiceChange, Service>();

function leftObject(change: ServiceChange): Service {
  let object = leftObjects.get(change);
  if (!object) leftObjects.set(change, (object = withResourceVersion(change.previous!, change.resourceVersion)));
  return object;
}

/** The event this watcher receives for a change, or undefined when it sees none. */
export function eventFor(filter: WatchFilter, change: ServiceChange): { type: WatchEventType; object: Service } | undefined {
  const before = change.previous !== null && matchesFilter(filter, change.previous);
  if (change.type === 'DELETED') return before ? { type: 'DELETED', object: change.object } : undefined;
  const after = matchesFilter(filter, change.object);
  if (after) return { type: before ? 'MODIFIED' : 'ADDED', object: change.object };
  if (before) return { type: 'DELETED', object: leftObject(change) };
  return undefined;
}
