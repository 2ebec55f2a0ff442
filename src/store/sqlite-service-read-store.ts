// The embedded engine's ServiceReadStore: the shared reads (service-read-repository.ts) over
// better-sqlite3's cached statements, each answered at once (the promises keep callers
// engine-neutral), and snapshots held on the one connection (read-snapshots.ts).
import type { DatabaseHandle } from './database';
import { ReadSnapshots } from './read-snapshots';
import { ServiceReadRepository } from './service-read-repository';
import { SqliteSqlReader } from './sqlite-sql-reader';

export class SqliteServiceReadStore extends ServiceReadRepository {
  constructor(handle: DatabaseHandle) {
    super(new SqliteSqlReader(handle), new ReadSnapshots(handle.sqlite));
  }
}
