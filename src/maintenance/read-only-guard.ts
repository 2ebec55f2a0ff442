// Makes a point-in-time copy refuse writes when a server serves it: a trigger rejects appends to
// the log, so every write fails before it changes anything (the server answers 500 with this
// message). The one exception is the server's own start-up creation of default/kubernetes when
// the copy predates it, so that `npm start -- --data-dir` can start on any point in time.
import type { DatabaseHandle } from '../store/database';

export const READ_ONLY_MESSAGE = 'svctrail: this database is a read-only point-in-time copy made by svctrail replay --until';

export function makeReadOnly(handle: DatabaseHandle): void {
  handle.sqlite.exec(`CREATE TRIGGER point_in_time_read_only BEFORE INSERT ON events
    WHEN NOT (NEW.request_id = 'bootstrap' AND NEW.actor_user = 'system:apiserver')
    BEGIN SELECT RAISE(ABORT, '${READ_ONLY_MESSAGE}'); END`);
}
