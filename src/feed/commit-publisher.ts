// Where the write path hands a write once it is committed. With SQLite this process is the only
// writer, so the write goes straight to the change feed. With PostgreSQL several replicas write
// one log, and the feed is fed by reading that log in order (PgLogFollower): a local write only
// asks it to catch up, so local and remote writes reach watchers in one resourceVersion order.
import type { LoggedWrite } from '../store/ports/committed-event-write';

export interface CommitPublisher {
  committed(write: LoggedWrite): void;
}

/** DI token of the engine's CommitPublisher. */
export const COMMIT_PUBLISHER = Symbol('COMMIT_PUBLISHER');
