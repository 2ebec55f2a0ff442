// Copies the events of whole writes up to a resourceVersion from one connection into a scratch
// database, as they are stored, with the repeated texts they refer to (the same ids: every one
// the source holds, so that a later catch-up copies only the newer ones). The caller holds a read
// transaction on the source, so the copy is one snapshot. Rows the source has not converted yet
// stay so: the copy's server converts them (store/event-data-packing.ts).
import type Database from 'better-sqlite3';
import type { DatabaseHandle } from '../store/database';
import { EVENT_TABLE_INSERT, EVENT_TABLE_SELECT } from './event-columns';
import type { Progress } from './progress';

export function copyEvents(source: Database.Database, target: DatabaseHandle, untilResourceVersion: number, progress: Progress): number {
  // position <= R uses the primary key; resource_version <= R drops a write R would cut in half.
  const where = 'position <= @until AND resource_version <= @until';
  const total = source.prepare(`SELECT count(*) FROM events WHERE ${where}`).pluck().get({ until: untilResourceVersion }) as number;
  progress.start('copy events', total, 'events');
  const insert = target.sqlite.prepare(EVENT_TABLE_INSERT);
  const insertText = target.sqlite.prepare('INSERT INTO repeated_texts (id, text) VALUES (?, ?)');
  let copied = 0;
  target.sqlite
    .transaction(() => {
      for (const [id, text] of source.prepare('SELECT id, text FROM repeated_texts ORDER BY id').raw().iterate() as IterableIterator<[number, string]>) insertText.run(id, text);
      for (const row of source.prepare(`SELECT ${EVENT_TABLE_SELECT} FROM events WHERE ${where} ORDER BY position`).iterate({ until: untilResourceVersion })) {
        insert.run(row);
        if (++copied % 1000 === 0) progress.advance(1000);
      }
    })
    .immediate();
  progress.advance(copied % 1000);
  progress.done();
  return copied;
}
