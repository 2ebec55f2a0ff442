// A reader's texts of repeated_texts by id (an actor's user and groups, a user agent, a field manager:
// stored once, referred to by id from the events), kept in memory: resolving a row's four ids is
// four Map look-ups where SQL cost a subquery each (a third of the time a history page spends
// reading its rows). A text's id never changes once committed, and a reader only sees committed
// rows (PostgreSQL: other replicas' included), so a kept text is right for good; an id not kept
// yet is read, with the others of the range it falls in. Bounded: past MAX_TEXTS, it starts over.
import type { RepeatedTextFields } from './ports/event-row';
import type { SqlReader } from './sql/sql-reader';

export type { RepeatedTextFields };

const MAX_TEXTS = 10_000;
const RANGE = 'SELECT id, text FROM repeated_texts WHERE id >= $1 AND id <= $2';

export class RepeatedTextCache {
  private readonly texts = new Map<number, string>();

  constructor(private readonly db: SqlReader) {}

  /** The rows with their texts in place of their ids (the same objects). */
  async resolve<R extends RepeatedTextFields>(rows: R[]): Promise<R[]> {
    let low = Infinity;
    let high = -Infinity;
    for (const row of rows) {
      for (const id of [row.actorUserId, row.actorGroupsId, row.userAgentId, row.fieldManagerId]) {
        if (id === null || this.texts.has(Number(id))) continue;
        low = Math.min(low, Number(id));
        high = Math.max(high, Number(id));
      }
    }
    if (low <= high) await this.load(low, high);
    for (const row of rows) {
      if (row.actorUserId !== null) row.actorUser = this.text(row.actorUserId);
      if (row.actorGroupsId !== null) row.actorGroups = this.text(row.actorGroupsId);
      if (row.userAgentId !== null) row.userAgent = this.text(row.userAgentId);
      if (row.fieldManagerId !== null) row.fieldManager = this.text(row.fieldManagerId);
    }
    return rows;
  }

  private async load(low: number, high: number): Promise<void> {
    if (this.texts.size + (high - low + 1) > MAX_TEXTS) this.texts.clear();
    for (const { id, text } of await this.db.all<{ id: number | string; text: string }>(RANGE, [low, high])) this.texts.set(Number(id), text);
  }

  private text(id: number): string {
    const text = this.texts.get(Number(id));
    // The log refers to it: its text was committed with the row, or before.
    if (text === undefined) throw new Error(`the repeated text ${id} an event refers to is not in repeated_texts`);
    return text;
  }
}
