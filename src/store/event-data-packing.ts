// The conversion of a store written before migration 0014 (SQLite) / 0012 (PostgreSQL): every
// event whose data is still JSON text in `data` gets it packed into `packed_data`
// (packed-event-data.ts), and its actor's groups, user agent and field manager moved into the ids
// of their texts in repeated_texts, a batch per short write transaction, so that a running
// server's writes wait at most one batch. The partial index events_unpacked holds exactly the rows still to do:
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
export const UNPACKED = 'SELECT position, data, actor_groups, user_agent, field_manager FROM events WHERE packed_data IS NULL AND position > $1 ORDER BY position LIMIT $2';
/** How many events are not packed yet. */
export const UNPACKED_COUNT = 'SELECT count(*) AS n FROM events WHERE packed_data IS NULL AND position > 0';
// A text is added unless there (another session may add it meanwhile: ON CONFLICT); looked up first,
// since on PostgreSQL an INSERT that conflicts still takes a value of the identity's sequence.
const ADD_TEXT = 'INSERT INTO repeated_texts (text) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM repeated_texts WHERE text = $1) ON CONFLICT (text) DO NOTHING';
const textId = (column: string) => `${column}_id = (SELECT t.id FROM repeated_texts t WHERE t.text = events.${column}), ${column} = ''`;
const PACK = `UPDATE events SET packed_data = $1, data = '', ${textId('actor_groups')}, ${textId('user_agent')}, ${textId('field_manager')}
  WHERE position = $2 AND packed_data IS NULL`;

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
    const rows = await this.db.all<{ position: number | string; data: string; actor_groups: string; user_agent: string; field_manager: string }>(UNPACKED, [this.after, batch]);
    if (!rows.length) return 0;
    const texts = [...new Set(rows.flatMap((row) => [row.actor_groups, row.user_agent, row.field_manager]))];
    const packs = rows.map((row) => {
      const packed = packEventData(row.data);
      if (eventDataText({ plainData: '', packedData: packed }) !== row.data) throw new Error(`packing event ${row.position}: its packed data does not decode to its text`);
      return { sql: PACK, params: [packed, Number(row.position)] };
    });
    await this.db.transaction([...texts.map((text) => ({ sql: ADD_TEXT, params: [text] })), ...packs]);
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
