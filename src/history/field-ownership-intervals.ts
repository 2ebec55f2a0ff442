// Who owned each field of a Service, from when to when: the managedFields of consecutive writes,
// compared owner by owner (ownershipChanges), become intervals. An interval ends when its owner
// loses the path: taken over by the owner(s) that gained it in the same write (an Apply taking a
// field from another manager can only do so forced), released (nobody took it), or deleted with
// the Service. Pure: the caller hands in the writes of one or more Services in log order.
import { ownershipChanges } from '../domain/field-management';
import type { FieldOwner, OwnershipWrite } from '../domain/field-management';

export interface OwnershipEnd {
  time: string;
  resourceVersion: number;
  /** takenOver: others gained the path in the same write; released: nobody did; deleted: the Service went. */
  reason: 'takenOver' | 'released' | 'deleted';
  takenOverBy?: FieldOwner[];
  /** An Apply took the field from another manager, which only `force` allows. */
  forced?: boolean;
}

export interface OwnershipInterval {
  service: { namespace: string; name: string; uid: string };
  field: string;
  owner: FieldOwner;
  from: { time: string; resourceVersion: number };
  to?: OwnershipEnd;
}

const ownerKey = (o: FieldOwner) => JSON.stringify([o.manager, o.operation, o.subresource ?? '', o.apiVersion ?? '']);

export function ownershipIntervals(writes: Iterable<OwnershipWrite>): OwnershipInterval[] {
  const all: OwnershipInterval[] = [];
  const open = new Map<string, OwnershipInterval>();
  for (const w of writes) {
    const service = { namespace: w.namespace, name: w.name, uid: w.uid };
    const at = { time: w.time, resourceVersion: w.resourceVersion };
    if (w.after === null) {
      for (const [key, interval] of open) {
        if (interval.service.uid !== w.uid) continue;
        interval.to = { ...at, reason: 'deleted' };
        open.delete(key);
      }
      continue;
    }
    const changes = ownershipChanges(w.before, w.after);
    const gainedBy = new Map<string, FieldOwner[]>();
    for (const c of changes) for (const path of c.gained) gainedBy.set(path, [...(gainedBy.get(path) ?? []), c.owner]);
    for (const c of changes) {
      for (const path of c.lost) {
        const key = `${w.uid}\u0000${path}\u0000${ownerKey(c.owner)}`;
        const interval = open.get(key);
        if (!interval) continue;
        const takers = gainedBy.get(path) ?? [];
        interval.to = takers.length ? { ...at, reason: 'takenOver', takenOverBy: takers, forced: takers.some((t) => t.operation === 'Apply') } : { ...at, reason: 'released' };
        open.delete(key);
      }
    }
    for (const c of changes) {
      for (const path of c.gained) {
        const interval: OwnershipInterval = { service, field: path, owner: c.owner, from: at };
        all.push(interval);
        open.set(`${w.uid}\u0000${path}\u0000${ownerKey(c.owner)}`, interval);
      }
    }
  }
  return all;
}
