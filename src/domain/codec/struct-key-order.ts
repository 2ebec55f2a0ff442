// One level of an object's keys put in a struct's Go order, its values shared: for folds whose
// parts are each canonical already (a stored object, an event's payload, both encoded once when
// written) but whose assembly can add a key out of place (a label set added to metadata after its
// managedFields). Re-encoding the whole object instead copies every level, every write.
import type { StructSchema } from './go-schema';

export type KeyOrder = <T extends object>(obj: T) => T;

export function structKeyOrder(schema: StructSchema): KeyOrder {
  const rank = new Map(schema.fields.map((f, i) => [f.json, i]));
  const last = schema.fields.length;
  return <T extends object>(obj: T): T => {
    let previous = -1;
    let ordered = true;
    for (const key of Object.keys(obj)) {
      const at = rank.get(key) ?? last;
      if (at < previous) {
        ordered = false;
        break;
      }
      previous = at;
    }
    if (ordered) return obj;
    const source = obj as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const f of schema.fields) if (Object.hasOwn(source, f.json)) out[f.json] = source[f.json];
    // Keys the struct does not have keep their order, last (none in a canonical object).
    for (const key of Object.keys(source)) if (!rank.has(key)) out[key] = source[key];
    return out as T;
  };
}
