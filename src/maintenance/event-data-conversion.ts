// A writing command's conversion of a store written before packed event data: every event left
// is packed (store/event-data-packing.ts) before the command's own work, as a phase of its
// progress. Short transactions, as the server's background run: a running server's writes go on.
import { EventDataPacking } from '../store/event-data-packing';
import type { SqlWriter } from '../store/sql/sql-writer';
import type { Progress } from './progress';

/** Packs every event not packed yet; returns how many it packed. */
export async function packRemainingEventData(writer: SqlWriter, progress: Progress): Promise<number> {
  const packing = new EventDataPacking(writer);
  const total = await packing.remaining();
  if (total === 0) return 0;
  progress.start('pack event data', total, 'events');
  const packed = await packing.run((n) => progress.advance(n));
  progress.done();
  return packed;
}
