// The conversion of a store written before migration 0014 (SQLite) / 0012 (PostgreSQL): every
// event whose data is still JSON text in `data` gets it packed into `packed_data`
// (packed-event-data.ts), a batch per short write transaction, so that a running server's writes
// wait at most one batch. The partial index events_unpacked holds exactly the rows still to do:
// each batch is its first rows (a seek, not a scan), an interrupted conversion resumes where it
// stopped, and a converted store finds the index empty in one seek. The log's append-only
// trigger lets this one change through (the data moved, every other column as it was), and each
// row's packed bytes are checked to decode to its text before they are written.
//
// The same steps on both engines (the SQL write port): the server runs them in the background
// (EventDataPacker), a command that writes a store runs them to the end first.
import { eventDataText, packEventData } from './packed-event-data';
import type { SqlWriter } from './sql/sql-writer';

/** The next batch of events not packed yet (exported for the index-reader pins). */
export const UNPACKED = 'SELECT position, data FROM events WHERE packed_data IS NULL AND position > $1 ORDER BY position LIMIT $2';
/** How many events are not packed yet. */
export const UNPACKED_COUNT = 'SELECT count(*) AS n FROM events WHERE packed_data IS NULL AND position > 0';
const PACK = "UPDATE events SET packed_data = $1, data = '' WHERE position = $2 AND packed_data IS NULL";

/** Events per transaction: a few ms of a running server's write lock. */
export const PACKING_BATCH = 1000;

export class EventDataPacking {
  /** The last position packed: the next batch starts after it. */
  private after = 0;

  constructor(private readonly db: SqlWriter) {}

  /** How many events are still to pack. */
  async remaining(): Promise<number> {
    return Number((await this.db.one<{ n: number | string }>(UNPACKED_COUNT))!.n);
  }

  /** Packs the next batch; returns how many events it packed (0: none was left). */
  async step(batch = PACKING_BATCH): Promise<number> {
    const rows = await this.db.all<{ position: number | string; data: string }>(UNPACKED, [this.after, batch]);
    if (!rows.length) return 0;
    const statements = rows.map((row) => {
      const packed = packEventData(row.data);
      if (eventDataText({ plainData: '', packedData: packed }) !== row.data) throw new Error(`packing event ${row.position}: its packed data does not decode to its text`);
      return { sql: PACK, params: [packed, Number(row.position)] };
    });
    await this.db.transaction(statements);
    this.after = Number(rows[rows.length - 1].position);
    return rows.length;
  }

  /** Packs every event left, reporting each batch. */
  async run(onBatch: (packed: number) => void = () => {}): Promise<number> {
    let total = 0;
    for (let n = await this.step(); n > 0; n = await this.step()) {
      total += n;
      onBatch(n);
    }
    return total;
  }
}
