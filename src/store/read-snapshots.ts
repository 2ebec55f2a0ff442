// Read snapshots on the embedded engine's one connection. A snapshot is a deferred read
// transaction held across the reads of one request, so they agree even when another process
// (a replay swapping tables in) commits meanwhile. The reads are asynchronous only in form:
// every statement answers at once, so a snapshot opens and ends within one turn of the event
// loop; requests whose reads interleave in that turn share it. The group commit never starts a
// write transaction while one is open (it waits a turn).
import type Database from 'better-sqlite3';
import type { ReadSnapshotScope } from './service-read-repository';

interface OpenSnapshot {
  readers: number;
  /** Whether the readers' own BEGIN opened the transaction (else they joined one already open). */
  began: boolean;
}

const openSnapshots = new WeakMap<Database.Database, OpenSnapshot>();

/** True while a read snapshot is open on the connection. */
export function readSnapshotOpen(sqlite: Database.Database): boolean {
  return (openSnapshots.get(sqlite)?.readers ?? 0) > 0;
}

export class ReadSnapshots implements ReadSnapshotScope {
  private readonly begin;
  private readonly commit;

  constructor(private readonly sqlite: Database.Database) {
    this.begin = sqlite.prepare('BEGIN DEFERRED');
    this.commit = sqlite.prepare('COMMIT');
  }

  async inSnapshot<T>(reads: () => Promise<T>): Promise<T> {
    let snapshot = openSnapshots.get(this.sqlite);
    if (!snapshot || snapshot.readers === 0) {
      const began = !this.sqlite.inTransaction;
      if (began) this.begin.run();
      snapshot = { readers: 0, began };
      openSnapshots.set(this.sqlite, snapshot);
    }
    snapshot.readers++;
    try {
      return await reads();
    } finally {
      snapshot.readers--;
      if (snapshot.readers === 0 && snapshot.began && this.sqlite.inTransaction) this.commit.run();
    }
  }
}
