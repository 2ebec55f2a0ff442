// Copies the events of whole writes up to a resourceVersion from one connection into a scratch
// database. The caller holds a read transaction on the source, so the copy is one snapshot. A row
// copied from a store not converted yet is packed on its way (store/packed-event-data.ts): the
// copy (a replay's new store, a point-in-time copy) is this version's form.
import type Database from 'better-sqlite3';
import type { DatabaseHandle } from '../store/database';
import { packEventData } from '../store/packed-event-data';
import { STORED_EVENT_INSERT, STORED_EVENT_SELECT, type StoredEventRow } from './event-columns';
import type { Progress } from './progress';

export function copyEvents(source: Database.Database, target: DatabaseHandle, untilResourceVersion: number, progress: Progress): number {
  // position <= R uses the primary key; resource_version <= R drops a write R would cut in half.
  const where = 'position <= @until AND resource_version <= @until';
  const total = source.prepare(`SELECT count(*) FROM events WHERE ${where}`).pluck().get({ until: untilResourceVersion }) as number;
  progress.start('copy events', total, 'events');
  const insert = target.sqlite.prepare(STORED_EVENT_INSERT);
  let copied = 0;
  target.sqlite
    .transaction(() => {
      for (const row of source.prepare(`SELECT ${STORED_EVENT_SELECT} FROM events WHERE ${where} ORDER BY position`).iterate({ until: untilResourceVersion })) {
        const stored = row as StoredEventRow;
        insert.run(stored.packedData === null ? { ...stored, plainData: '', packedData: packEventData(stored.plainData) } : stored);
        if (++copied % 1000 === 0) progress.advance(1000);
      }
    })
    .immediate();
  progress.advance(copied % 1000);
  progress.done();
  return copied;
}
