// The conversion of a store written before migration 0014/0015 (SQLite) / 0012/0014 (PostgreSQL):
// every event whose data is still JSON text in `data` gets it packed into `packed_data`
// (packed-event-data.ts), and its actor's user, groups, user agent and field manager moved into
// the ids of their texts in repeated_texts (those a row still holds as text), a batch per short
// write transaction, so that a running server's writes wait at most one batch. The rows still to
// do are those without an actor user id (every row 0015 converts, packed or not), under the NULL
// key of events_actor_position in position order: each batch is its first rows (a seek, not a
// scan), an interrupted conversion resumes where it stopped, and a converted store finds none in
// one seek.
// The log's append-only trigger lets these changes through (the data moved, each text into its id,
// every other column as it was), and each row's packed bytes are checked to decode to its text
// before they are written.
//
// The same steps on both engines (the SQL write port): the server runs them in the background
// (EventDataPacker), a command that writes a store runs them to the end first.
import { eventDataText, packEventData } from './packed-event-data';
import { REPEATED_TEXT_COLUMNS } from './sql/event-columns';
import type { SqlWriter } from './sql/sql-writer';

/** The next batch of events not converted yet (exported for the index-reader pins). */
export const UNCONVERTED = `SELECT position, data, packed_data IS NULL AS unpacked, ${REPEATED_TEXT_COLUMNS.flatMap((c) => [c, `${c}_id`]).join(', ')}
  FROM events WHERE actor_user_id IS NULL AND position > $1 ORDER BY position LIMIT $2`;
/** How many events are not converted yet. */
export const UNCONVERTED_COUNT = 'SELECT count(*) AS n FROM events WHERE actor_user_id IS NULL AND position > 0';
// A text is added unless there (another session may add it meanwhile: ON CONFLICT); looked up first,
// since on PostgreSQL an INSERT that conflicts still takes a value of the identity's sequence.
const ADD_TEXT = 'INSERT INTO repeated_texts (text) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM repeated_texts WHERE text = $1) ON CONFLICT (text) DO NOTHING';
// A column still holding its text gets the text's id and ''; one converted by 0014 stays. (The
// right-hand sides read the row as it was.)
const textId = (column: string) =>
  `${column}_id = coalesce(${column}_id, (SELECT t.id FROM repeated_texts t WHERE t.text = events.${column})), ${column} = CASE WHEN ${column}_id IS NULL THEN '' ELSE ${column} END`;
// $1: the packed data of a row not packed yet, NULL for one packed already.
const CONVERT = `UPDATE events SET packed_data = coalesce(packed_data, $1), data = CASE WHEN packed_data IS NULL THEN '' ELSE data END,
  ${REPEATED_TEXT_COLUMNS.map(textId).join(', ')}
  WHERE position = $2 AND actor_user_id IS NULL`;

type UnconvertedRow = { position: number | string; data: string; unpacked: boolean | number } & Record<string, string | number | null | boolean>;

/** Events per transaction: a few ms of a running server's write lock. */
export const PACKING_BATCH = 1000;

export class EventDataPacking {
  /** The last position converted: the next batch starts after it. */
  private after = 0;

  constructor(private readonly db: SqlWriter) {}

  /** How many events are still to convert. */
  async remaining(): Promise<number> {
    return Number((await this.db.one<{ n: number | string }>(UNCONVERTED_COUNT))!.n);
  }

  /** Converts the next batch; returns how many events it converted (0: none was left). */
  async step(batch = PACKING_BATCH): Promise<number> {
    const rows = await this.db.all<UnconvertedRow>(UNCONVERTED, [this.after, batch]);
    if (!rows.length) return 0;
    const texts = [...new Set(rows.flatMap((row) => REPEATED_TEXT_COLUMNS.filter((c) => row[`${c}_id`] === null).map((c) => String(row[c]))))];
    const converts = rows.map((row) => {
      if (!row.unpacked) return { sql: CONVERT, params: [null, Number(row.position)] };
      const packed = packEventData(row.data);
      if (eventDataText({ plainData: '', packedData: packed }) !== row.data) throw new Error(`packing event ${row.position}: its packed data does not decode to its text`);
      return { sql: CONVERT, params: [packed, Number(row.position)] };
    });
    await this.db.transaction([...texts.map((text) => ({ sql: ADD_TEXT, params: [text] })), ...converts]);
    this.after = Number(rows[rows.length - 1].position);
    return rows.length;
  }

  /** Converts every event left, reporting each batch. */
  async run(onBatch: (packed: number) => void = () => {}): Promise<number> {
    let total = 0;
    for (let n = await this.step(); n > 0; n = await this.step()) {
      total += n;
      onBatch(n);
    }
    return total;
  }
}
