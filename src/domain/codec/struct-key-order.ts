// One level of an object's keys put in a struct's Go order, its values shared: for folds whose
// parts are each canonical already (a stored object, an event's payload, both encoded once when
// written) but whose assembly can add a key out of place (a label set added to metadata after its
// managedFields). Re-encoding the whole object instead copies every level, every write.
import type { StructSchema } from './go-schema';
import { memberRanks, placeMembers, unknownMembersOf } from './unknown-members';

export type KeyOrder = <T extends object>(obj: T) => T;

export function structKeyOrder(schema: StructSchema): KeyOrder {
  const rank = memberRanks(schema);
  return <T extends object>(obj: T): T => {
    let previous = -1;
    let ordered = true;
    for (const key of Object.keys(obj)) {
      const at = rank.get(key);
      // Keys the struct does not have (a mirrored newer field) stay after the known key they follow.
      if (at === undefined) continue;
      if (at < previous) {
        ordered = false;
        break;
      }
      previous = at;
    }
    if (ordered) return obj;
    const source = obj as Record<string, unknown>;
    return placeMembers(schema, source, unknownMembersOf(schema, source)) as T;
  };
}
