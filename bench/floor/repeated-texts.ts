// The floor's few lines for svctrail's repeated texts (src/store/sqlite-repeated-texts.ts): an
// actor's groups, a user agent and a field manager are stored once in repeated_texts and the events
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
export function repeatedText(column: 'actor_groups' | 'user_agent' | 'field_manager', alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return `coalesce((SELECT rt.text FROM repeated_texts rt WHERE rt.id = ${a}${column}_id), ${a}${column})`;
}
