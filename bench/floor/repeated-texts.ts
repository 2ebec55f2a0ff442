// The floor's few lines for svctrail's repeated texts (src/store/sqlite-repeated-texts.ts): an
// actor's user and groups, a user agent and a field manager are stored once in repeated_texts and the events
// refer to them by id, so floor-full's writes look each up (adding a new one) as svctrail does, and
// every floor read of them resolves the id (a row not converted yet keeps its text).
import type { LazyStatement } from './lazy-statement';

/** The id of a text, added when new. */
export function textIds(prepare: (sql: string) => LazyStatement): (text: string) => number {
  const find = prepare('SELECT id FROM repeated_texts WHERE text = ?').pluck();
  const add = prepare('INSERT INTO repeated_texts (text) VALUES (?)');
  return (text) => (find.get(text) as number | undefined) ?? Number(add.run(text).lastInsertRowid);
}

/** An events column's text, whether by id or not (`alias.` prefixed when given). */
export function repeatedText(column: 'actor_user' | 'actor_groups' | 'user_agent' | 'field_manager', alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return `coalesce((SELECT rt.text FROM repeated_texts rt WHERE rt.id = ${a}${column}_id), ${a}${column})`;
}

/** The repeated-text columns of a floor read: ids as svctrail stores them, texts in a row not converted. */
interface TextColumns {
  user: string;
  userId: number | null;
  groups: string;
  groupsId: number | null;
  userAgent: string;
  userAgentId: number | null;
  fieldManager: string;
  fieldManagerId: number | null;
}

/**
 * A read whose rows' repeated texts are resolved from memory (svctrail's RepeatedTextCache): ids
 * read from repeated_texts a range at a time, kept for good (a text's id never changes).
 */
export function resolvingTexts(statement: LazyStatement, prepare: (sql: string) => LazyStatement): LazyStatement {
  const texts = new Map<number, string>();
  const range = prepare('SELECT id, text FROM repeated_texts WHERE id >= ? AND id <= ?');
  const text = (id: number | null, own: string): string => {
    if (id === null) return own;
    let found = texts.get(id);
    if (found === undefined) {
      for (const row of range.all(id, id + 1000) as { id: number; text: string }[]) texts.set(row.id, row.text);
      found = texts.get(id)!;
    }
    return found;
  };
  const resolve = (row: TextColumns) => {
    row.user = text(row.userId, row.user);
    row.groups = text(row.groupsId, row.groups);
    row.userAgent = text(row.userAgentId, row.userAgent);
    row.fieldManager = text(row.fieldManagerId, row.fieldManager);
    return row;
  };
  return {
    all: (...params: unknown[]) => (statement.all(...params) as TextColumns[]).map(resolve),
    *iterate(...params: unknown[]) {
      for (const row of statement.iterate(...params) as Iterable<TextColumns>) yield resolve(row);
    },
  } as unknown as LazyStatement;
}
