// apiserver's IgnoreManagedFieldsTimestampsTransformer (endpoints/handlers/fieldmanager/
// equality.go): a write whose only effect is newer managedFields times keeps the old times, so
// that a repeated apply or update stays a no-op (same bytes, same resourceVersion, no event).
import { type ManagedFieldsEntry, type Service } from '../service.types';
import { type ManagedKind, type ManagedObject } from './managed-kind';
import { SERVICE_MANAGED_KIND } from './service-managed-kind';

function withoutTimes(entries: readonly ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  return entries.map((e) => ({ ...e, time: undefined }));
}

function canonical(object: ManagedObject, managedFields: ManagedFieldsEntry[] | undefined, kind: ManagedKind<ManagedObject>): string {
  return JSON.stringify(kind.encode({ ...object, metadata: { ...object.metadata, managedFields } }));
}

/**
 * Returns `next` with `old`'s managedFields times when the two objects differ in nothing but
 * those times (entry by entry, in order); otherwise `next` unchanged. Run it on the final
 * object (decoded, defaulted, strategy applied) before the no-op check.
 */
export function ignoreManagedFieldsTimestamps(old: Service, next: Service): Service;
export function ignoreManagedFieldsTimestamps<T extends ManagedObject>(old: T, next: T, kind: ManagedKind<T>): T;
export function ignoreManagedFieldsTimestamps(old: ManagedObject, next: ManagedObject, kind: ManagedKind<ManagedObject> = SERVICE_MANAGED_KIND): ManagedObject {
  const oldEntries = old.metadata?.managedFields ?? [];
  const newEntries = next.metadata?.managedFields ?? [];
  if (oldEntries.length !== newEntries.length || newEntries.length === 0) return next;
  if (newEntries.every((e, i) => (e.time ?? undefined) === (oldEntries[i].time ?? undefined))) return next;
  const stripped = withoutTimes(newEntries);
  if (canonical(old, withoutTimes(oldEntries), kind) !== canonical(next, stripped, kind)) return next;
  const restored = newEntries.map((e, i) => {
    const { time: _time, ...rest } = e;
    const time = oldEntries[i].time;
    return time ? { ...rest, time } : rest;
  });
  // Encoded again so each restored time sits at its wire position: the no-op check compares
  // bytes, and a time moved to the end of its entry would read as a change.
  return kind.encode({ ...next, metadata: { ...next.metadata, managedFields: restored } });
}
