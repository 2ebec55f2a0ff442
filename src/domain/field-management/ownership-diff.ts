// What a write did to field ownership, read from the managedFields before and after it: the
// building block of the ownership history (who owned a path from when to when, who took it
// over). Paths are printed as in conflict messages (`.status.loadBalancer.ingress`).
import { type ManagedFieldsEntry } from '../service.types';
import { FieldSet } from './field-set';
import { fieldPathToString } from './field-path';
import { fieldsV1ToFieldSet } from './fields-v1';
import { managerIdentifier } from './managed-fields-codec';

export interface FieldOwner {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly subresource?: string;
  readonly apiVersion?: string;
}

export interface OwnershipChange {
  readonly owner: FieldOwner;
  /** Paths this owner holds after the write and did not before. */
  readonly gained: readonly string[];
  /** Paths this owner held before the write and no longer does. */
  readonly lost: readonly string[];
}

function owners(entries: readonly ManagedFieldsEntry[] | undefined): Map<string, { owner: FieldOwner; set: FieldSet }> {
  const out = new Map<string, { owner: FieldOwner; set: FieldSet }>();
  for (const e of entries ?? []) {
    const operation = e.operation === 'Apply' ? 'Apply' : 'Update';
    const owner: FieldOwner = {
      manager: e.manager ?? '',
      operation,
      ...(e.subresource ? { subresource: e.subresource } : {}),
      ...(operation === 'Update' && e.apiVersion ? { apiVersion: e.apiVersion } : {}),
    };
    let set: FieldSet;
    try {
      set = fieldsV1ToFieldSet(e.fieldsV1 ?? {});
    } catch {
      set = FieldSet.EMPTY;
    }
    const id = managerIdentifier({ ...owner, operation });
    out.set(id, { owner, set: (out.get(id)?.set ?? FieldSet.EMPTY).union(set) });
  }
  return out;
}

/** Per owner, the paths gained and lost between two managedFields lists (owners in identity order). */
export function ownershipChanges(before: readonly ManagedFieldsEntry[] | undefined, after: readonly ManagedFieldsEntry[] | undefined): OwnershipChange[] {
  const b = owners(before);
  const a = owners(after);
  const changes: OwnershipChange[] = [];
  for (const id of [...new Set([...b.keys(), ...a.keys()])].sort()) {
    const was = b.get(id)?.set ?? FieldSet.EMPTY;
    const now = a.get(id)?.set ?? FieldSet.EMPTY;
    const gained = now.difference(was).paths().map(fieldPathToString);
    const lost = was.difference(now).paths().map(fieldPathToString);
    if (gained.length > 0 || lost.length > 0) changes.push({ owner: (a.get(id) ?? b.get(id))!.owner, gained, lost });
  }
  return changes;
}

/** The owners of `path` (printed form) or of anything below it, in one managedFields list. */
export function ownersOf(entries: readonly ManagedFieldsEntry[] | undefined, path: string): FieldOwner[] {
  const out: FieldOwner[] = [];
  for (const { owner, set } of owners(entries).values()) {
    const hit = set.paths().some((p) => {
      const text = fieldPathToString(p);
      return text === path || text.startsWith(path + '.') || text.startsWith(path + '[');
    });
    if (hit) out.push(owner);
  }
  return out;
}
