// File-level handling of scratch databases: create one with the real migrations, remove one with
// its WAL, and make a finished one durable before it is renamed into place.
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { type DatabaseHandle, openDatabase } from '../store/database';

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
 * SQLite in defensive mode.) `allowConcurrentReaders` switches to WAL once the bulk of the
 * writes is done.
 */
export function createScratchDatabase(path: string, migrationsFolder: string): DatabaseHandle {
  removeDatabaseFiles(path);
  const handle = openDatabase({ path, migrationsFolder, synchronous: 'NORMAL' });
  handle.sqlite.pragma('synchronous = OFF');
  handle.sqlite.pragma('journal_mode = MEMORY');
  return handle;
}

/**
 * Switches a scratch database to WAL, so another connection can read it while this one writes
 * (replay's reader of the R-tree). Only after the fold: its one transaction, in WAL, wrote the
 * whole scratch (2.2 GB for a 1M-event log) into the WAL and a checkpoint then copied all of it
 * into the file again. The switch needs the file to itself: call it before opening a reader.
 */
export function allowConcurrentReaders(handle: DatabaseHandle, path: string): void {
  const mode = handle.sqlite.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`could not switch ${path} to WAL: journal mode is still ${String(mode)}`);
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
