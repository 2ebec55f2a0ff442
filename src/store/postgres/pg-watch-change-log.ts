// ServiceChangeLog's reads for watch on PostgreSQL: where a watch may resume from, and the writes
// after a resourceVersion as watch changes, read from the log by any replica. The change of a
// write is derived exactly as the change feed derives it (changeFromWrite), so a watcher cannot
// tell a change read back from the log from one heard live.
//
// MERGE: the history engineer's PostgreSQL ServiceChangeLog (branch pg-history) supersedes this
// when it lands; it is a separate file so that either can be provided under the ServiceChangeLog
// token (store.module.ts, `postgresChangeLog`).
import { changeFromWrite, ServiceChange } from '../../watch/service-change';
import type { PgCommittedWriteReader } from './pg-committed-write-reader';

export class PgWatchChangeLog {
  constructor(private readonly reader: PgCommittedWriteReader) {}

  /** The oldest resourceVersion a watch can resume from (the log's first position - 1). */
  oldestResumable(): Promise<number> {
    return this.reader.oldestResumable();
  }

  /** Up to `limit` writes after `resourceVersion`, oldest first. */
  async changesAfter(resourceVersion: number, limit: number): Promise<ServiceChange[]> {
    const page = await this.reader.writesAfter(resourceVersion, limit);
    return page.writes.map(changeFromWrite);
  }
}
