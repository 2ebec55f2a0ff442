// The ingress history as a fold over whole intervals, for the bulk paths (SQLite's rebuild,
// PostgreSQL's row fold): an interval is held while its address is set and handed out once,
// whole, when a write clears it, instead of inserted open and updated on close. What is left
// open at the end is what the live projection leaves open.
import { eventIngressChanges } from './ingress-addresses';
import type { CommittedWrite } from '../store/ports/committed-write';

/** One ingress_intervals row, in the table's column order. */
export type IngressIntervalRow = [
  id: number,
  address: string,
  addressType: string,
  uid: string,
  namespace: string,
  name: string,
  fromResourceVersion: number,
  fromTime: string,
  setBy: string,
  toResourceVersion: number | null,
  toTime: string | null,
  clearedBy: string | null,
];

/**
 * Folds one write into its Service's open intervals (as the live projection would change
 * them): each interval it clears is completed and handed to `closed`; each address it sets
 * opens an interval numbered by `nextId`. Returns the intervals still open.
 */
export function foldIngressIntervals(write: CommittedWrite, open: readonly IngressIntervalRow[], nextId: () => number, closed: (row: IngressIntervalRow) => void): IngressIntervalRow[] {
  let held = [...open];
  // The live UPDATE closes every open interval that matches, so this does too.
  const close = (matches: (row: IngressIntervalRow) => boolean) => {
    const kept: IngressIntervalRow[] = [];
    for (const row of held) {
      if (!matches(row)) kept.push(row);
      else closed([...row.slice(0, 9), write.resourceVersion, write.metadata.recordedAt, write.metadata.user] as IngressIntervalRow);
    }
    held = kept;
  };
  for (const { event } of write.events) {
    if (event.type === 'ServiceDeleted') {
      close(() => true);
      continue;
    }
    const changes = eventIngressChanges(event);
    if (!changes) continue;
    for (const a of changes.cleared) close((row) => row[1] === a.address && row[2] === a.addressType);
    for (const a of changes.set) {
      held.push([nextId(), a.address, a.addressType, write.streamId, write.namespace, write.name, write.resourceVersion, write.metadata.recordedAt, write.metadata.user, null, null, null]);
    }
  }
  return held;
}
