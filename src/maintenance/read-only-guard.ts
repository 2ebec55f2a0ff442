// Makes a point-in-time copy refuse writes when a server serves it: a trigger rejects appends to
// the log, so every write fails before it changes anything (the server answers 500 with this
// message). The one exception is the server's own start-up creation of default/kubernetes when
// the copy predates it, so that `npm start -- --data-dir` can start on any point in time. A
// mirror's facts are refused too: a copy served with --mirror records nothing, not even a resume
// point or an audit actor.
import type { DatabaseHandle } from '../store/database';

export const READ_ONLY_MESSAGE = 'svctrail: this database is a read-only point-in-time copy made by svctrail replay --until';

const MIRROR_WRITES = [
  ['observed_writes', 'INSERT'],
  ['audit_actors', 'INSERT'],
  ['pending_audit_events', 'INSERT'],
  ['mirror_source', 'INSERT'],
  ['mirror_source', 'UPDATE'],
] as const;

export function makeReadOnly(handle: DatabaseHandle): void {
  handle.sqlite.exec(`CREATE TRIGGER point_in_time_read_only BEFORE INSERT ON events
    WHEN NOT (NEW.request_id = 'bootstrap' AND coalesce((SELECT text FROM repeated_texts WHERE id = NEW.actor_user_id), NEW.actor_user) = 'system:apiserver')
    BEGIN SELECT RAISE(ABORT, '${READ_ONLY_MESSAGE}'); END`);
  for (const [table, operation] of MIRROR_WRITES) {
    handle.sqlite.exec(`CREATE TRIGGER point_in_time_read_only_${table}_${operation.toLowerCase()} BEFORE ${operation} ON ${table}
      BEGIN SELECT RAISE(ABORT, '${READ_ONLY_MESSAGE}'); END`);
  }
}
