// File-level handling of scratch databases: create one with the real migrations, remove one with
// its WAL, and make a finished one durable before it is renamed into place.
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseHandle, openDatabase } from '../store/database';

const COMPANIONS = ['', '-wal', '-shm', '-journal'];

export function removeDatabaseFiles(path: string): void {
  for (const suffix of COMPANIONS) rmSync(`${path}${suffix}`, { force: true });
}

/**
 * A new database at `path` (leftovers of an earlier crashed run are removed first) with the same
 * migrations the server applies. synchronous=OFF and its rollback journal in memory: a scratch
 * file is worthless after a crash (its users discard it), and `sealDatabase` makes a kept one
 * durable. Every page is written once, into the file, instead of into the WAL and copied back by
 * a checkpoint; the journal stays small, since it holds only pages that existed when a
 * transaction began and the scratch grows by appending. (OFF is refused: better-sqlite3 runs
 * SQLite in defensive mode.) `concurrentReaders` keeps WAL, for a scratch that another
 * connection reads while this one writes (replay).
 */
export function createScratchDatabase(path: string, migrationsFolder: string, options: { concurrentReaders?: boolean } = {}): DatabaseHandle {
  removeDatabaseFiles(path);
  const handle = openDatabase({ path, migrationsFolder, synchronous: 'NORMAL' });
  handle.sqlite.pragma('synchronous = OFF');
  if (!options.concurrentReaders) handle.sqlite.pragma('journal_mode = MEMORY');
  return handle;
}

/**
 * Leaves a finished scratch database in journal_mode=DELETE (no WAL, no journal beside it),
 * closes and fsyncs it: the file alone is then the whole database and a rename publishes all of
 * it. The server switches it back to WAL when it opens it.
 */
export function sealDatabase(handle: DatabaseHandle, path: string): void {
  handle.sqlite.pragma('synchronous = FULL');
  const mode = handle.sqlite.pragma('journal_mode = DELETE', { simple: true });
  handle.close();
  if (mode !== 'delete') throw new Error(`could not finish ${path}: journal mode is still ${String(mode)}`);
  fsyncPath(path);
}

/** rename(2) within one directory is atomic; fsync the directory so the new name survives power loss. */
export function publishFile(from: string, to: string): void {
  renameSync(from, to);
  fsyncPath(dirname(to));
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
