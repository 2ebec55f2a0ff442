// The log on PostgreSQL: what its writers and readers share. Appends are made by the
// svctrail_append function (migrations/postgres/0005_append_function.sql, called by
// pg-service-write-store.ts) under the append lock below; maintenance takes the same lock to keep
// writers out (import, replay's swap); readers read rows as EventRow.
//
// Why appends are serialised by a transaction-level advisory lock, not numbered by a sequence:
// a watcher reads the log by position ("everything after the last position I saw"), so a
// position must never become visible after a greater one did. Sequence values are handed out
// when a transaction asks, not when it commits: two writers draw 7 and 8, 8 commits first, a
// reader sees 8 and moves past 7 for ever; a rolled-back writer leaves a hole as well. Under
// `pg_advisory_xact_lock` one append transaction at a time reads the head, appends head + 1... and
// holds the lock until its COMMIT, which makes its rows visible before the lock is released (the
// commit is recorded and published before a transaction's locks go). So positions are given in
// commit order, without holes, across every process on the database (kine numbers its rows the
// same way in spirit: one writer at a time decides the next revision).
//
// The write must run in READ COMMITTED (PostgreSQL's default): every statement after the lock
// sees every append committed before it. Under REPEATABLE READ the snapshot would be the one
// taken when the transaction's first statement began, possibly before the previous holder's commit.
import type { Queryable } from './postgres-database';

/** Key of the transaction advisory lock every append takes (a constant of svctrail's own; svctrail_append takes it too). */
export const APPEND_LOCK = '8319395769340735588';

/**
 * Takes the append lock for the rest of the caller's transaction (waiting for whichever
 * transaction holds it to end): no write is appended until it ends. Taking it again in the same
 * transaction is harmless.
 *
 * Always a statement of its own: a statement reads from the snapshot taken when it starts,
 * before the lock is granted, so a read in the same statement could miss the commit of the
 * transaction it waited for.
 */
export async function lockAppends(client: Queryable): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [APPEND_LOCK]);
}
