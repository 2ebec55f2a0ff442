// One process at a time owns a data directory: the server or `svctrail import`. Two servers on
// one database would each miss the other's writes (the watch feed and the resourceVersion counter
// live in the process), so a second one must refuse to start. `svctrail replay` is built to run
// next to a live server (short transactions, a renaming swap), so it takes a lock of its own
// instead: one replay at a time per directory.
//
// The lock is SQLite's own: data/svctrail.lock is an empty database held in an open EXCLUSIVE
// transaction. SQLite takes it with POSIX fcntl locks, which the kernel drops when the process
// dies however it dies (kill -9 included), so a crash never leaves the directory locked and
// there is no pid file to judge as stale. Nothing is ever written to the file.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createPrivately } from './database';

export const LOCK_FILE = 'svctrail.lock';
/** Held by `svctrail replay`, which shares the directory with a running server. */
export const REPLAY_LOCK_FILE = 'svctrail.replay.lock';

export class DataDirectoryLockedError extends Error {}

export interface DataDirectoryLock {
  readonly path: string;
  release(): void;
}

/**
 * Takes the data directory's lock, or throws DataDirectoryLockedError at once: it never waits
 * for another process. The directory must exist. Released by release() or the process's end.
 */
export function lockDataDirectory(dataDir: string, file = LOCK_FILE): DataDirectoryLock {
  const path = join(dataDir, file);
  // Created 0600 before SQLite opens it (SQLite would create it 0644).
  createPrivately(path, 0o600);
  const sqlite = new Database(path, { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 0');
    // No -journal file beside it: the transaction never writes anything to roll back.
    sqlite.pragma('journal_mode = MEMORY');
    sqlite.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    sqlite.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DataDirectoryLockedError(`data directory ${dataDir} is in use by another svctrail process (a server, replay or import holds ${path}); ` + `stop it first or use another --data-dir`);
    }
    throw error;
  }
  let held = true;
  return {
    path,
    release: () => {
      if (!held) return;
      held = false;
      // Closing rolls the empty transaction back and drops the lock.
      sqlite.close();
    },
  };
}

/** The lock when no other process holds it, else undefined (never waits). */
export function tryLockDataDirectory(dataDir: string, file = LOCK_FILE): DataDirectoryLock | undefined {
  try {
    return lockDataDirectory(dataDir, file);
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) return undefined;
    throw error;
  }
}

/** Runs `work` holding one of the data directory's locks; refused while another process holds it. */
export async function withDataDirectoryLock<T>(dataDir: string, work: () => T | Promise<T>, file = LOCK_FILE): Promise<T> {
  const lock = lockDataDirectory(dataDir, file);
  try {
    return await work();
  } finally {
    lock.release();
  }
}
