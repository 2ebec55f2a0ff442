// A metav1.ObjectMeta printed with Go's `%#v`, as field.Invalid's message shows a non-Stringer
// struct BadValue (`metadata: Invalid value: v1.ObjectMeta{Name:"x", …}: must be empty`). Covers
// what a JSON or protobuf body can set; nested owner references and managed fields are printed
// by count only, since their full Go syntax would dwarf the message.
import { parseRfc3339 } from './go-time';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const quote = (value: unknown) => JSON.stringify(typeof value === 'string' ? value : '');

/** metav1.Time's promoted time.Time.GoString(); a decoded time is in time.Local (UTC here). */
function goTime(value: unknown): string {
  const parsed = typeof value === 'string' ? parseRfc3339(value) : undefined;
  if (!parsed || !parsed.ok) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  const d = new Date(parsed.seconds * 1000);
  return `time.Date(${d.getUTCFullYear()}, time.${MONTHS[d.getUTCMonth()]}, ${d.getUTCDate()}, ${d.getUTCHours()}, ${d.getUTCMinutes()}, ${d.getUTCSeconds()}, 0, time.Local)`;
}

function goStringMap(value: unknown): string {
  if (typeof value !== 'object' || value === null) return 'map[string]string(nil)';
  const entries = Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${quote((value as Record<string, unknown>)[k])}`);
  return `map[string]string{${entries.join(', ')}}`;
}

function goSlice(value: unknown, type: string, item: (v: unknown) => string): string {
  if (!Array.isArray(value)) return `${type}(nil)`;
  return `${type}{${value.map(item).join(', ')}}`;
}

export function objectMetaGoSyntax(meta: Record<string, unknown>): string {
  // Go prints a set pointer as its address, which no one can reproduce; a fixed one stands in.
  const pointerInt = (v: unknown) => (typeof v === 'number' ? '(*int64)(0xc000010000)' : '(*int64)(nil)');
  const fields = [
    `Name:${quote(meta.name)}`,
    `GenerateName:${quote(meta.generateName)}`,
    `Namespace:${quote(meta.namespace)}`,
    `SelfLink:${quote(meta.selfLink)}`,
    `UID:${quote(meta.uid)}`,
    `ResourceVersion:${quote(meta.resourceVersion)}`,
    `Generation:${typeof meta.generation === 'number' ? meta.generation : 0}`,
    `CreationTimestamp:${goTime(meta.creationTimestamp)}`,
    `DeletionTimestamp:${meta.deletionTimestamp ? goTime(meta.deletionTimestamp) : '<nil>'}`,
    `DeletionGracePeriodSeconds:${pointerInt(meta.deletionGracePeriodSeconds)}`,
    `Labels:${goStringMap(meta.labels)}`,
    `Annotations:${goStringMap(meta.annotations)}`,
    `OwnerReferences:${goSlice(meta.ownerReferences, '[]v1.OwnerReference', () => 'v1.OwnerReference{…}')}`,
    `Finalizers:${goSlice(meta.finalizers, '[]string', quote)}`,
    `ManagedFields:${goSlice(meta.managedFields, '[]v1.ManagedFieldsEntry', () => 'v1.ManagedFieldsEntry{…}')}`,
  ];
  return `v1.ObjectMeta{${fields.join(', ')}}`;
}
