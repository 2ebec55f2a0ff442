// Checkpoints run in a worker thread: the main connection never checkpoints on COMMIT, yet the
// WAL's frames are copied back into the database. Nothing else checkpoints, so a failing worker
// is logged, counted and replaced rather than left to let the WAL grow.
import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/shared/project-root';
import { type DatabaseHandle, openDatabase } from '../../src/store/database';
import { type CheckpointFailureStage, WalCheckpointer } from '../../src/store/wal-checkpointer';

describe('WalCheckpointer', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let checkpointer: WalCheckpointer | undefined;
  const open = (path: string) => openDatabase({ path, migrationsFolder: join(PROJECT_ROOT, 'migrations'), synchronous: 'FULL' });
  const fillWal = () => {
    handle.sqlite.exec('CREATE TABLE IF NOT EXISTS t (v TEXT)');
    const insert = handle.sqlite.prepare('INSERT INTO t (v) VALUES (?)');
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(1000));
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-wal-'));
    handle = open(join(dir, 'db'));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await checkpointer?.stop();
    checkpointer = undefined;
    handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checkpoints the WAL from a worker thread while the main connection only commits', async () => {
    checkpointer = new WalCheckpointer(handle, join(dir, 'db'), { intervalMs: 60_000 });
    expect(handle.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    fillWal();
    const result = await checkpointer.checkpointNow();
    expect(result.log).toBeGreaterThan(10);
    expect(result.checkpointed).toBe(result.log);
    expect(result.busy).toBe(0);
  });

  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('parks its worker when checkpoints find nothing to copy, and starts one again when the WAL is written', async () => {
    checkpointer = new WalCheckpointer(handle, join(dir, 'db'), { intervalMs: 10, parkAfterMs: 50 });
    await until(() => checkpointer!.parked);
    fillWal();
    // The next look at the WAL starts a worker, whose first checkpoint copies every frame.
    await until(() => !checkpointer!.parked);
    await until(() => (checkpointer!.lastResult?.log ?? 0) > 10);
    expect(checkpointer.lastResult!.checkpointed).toBe(checkpointer.lastResult!.log);
    // And with nothing more written it parks again.
    await until(() => checkpointer!.parked);
    expect(checkpointer.failures).toBe(0);
  });

  it('does not park while writes keep coming, though each checkpoint copies every frame', async () => {
    checkpointer = new WalCheckpointer(handle, join(dir, 'db'), { intervalMs: 10, parkAfterMs: 100 });
    handle.sqlite.exec('CREATE TABLE t (v TEXT)');
    const insert = handle.sqlite.prepare('INSERT INTO t (v) VALUES (?)');
    let parkedWhileWriting = false;
    for (let i = 0; i < 25; i++) {
      insert.run('x'.repeat(100));
      await new Promise((resolve) => setTimeout(resolve, 20));
      parkedWhileWriting ||= checkpointer.parked;
    }
    expect(checkpointer.lastResult!.checkpointed).toBe(checkpointer.lastResult!.log);
    expect(parkedWhileWriting).toBe(false);
  });

  it('answers a checkpoint requested while parked', async () => {
    // Parks at its first periodic run; a request may reach a worker that is about to park.
    checkpointer = new WalCheckpointer(handle, join(dir, 'db'), { intervalMs: 10, parkAfterMs: 0 });
    const parked = checkpointer;
    await until(() => parked.parked);
    fillWal();
    const result = await checkpointer.checkpointNow();
    expect(result.busy).toBe(0);
    expect(result.checkpointed).toBe(result.log);
    expect(checkpointer.failures).toBe(0);
  });

  it('logs and counts a worker that dies, and starts a new one that checkpoints', async () => {
    const errors: string[] = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void errors.push(String(message)));
    // The worker opens this path; it does not exist until the first failure has been reported.
    const link = join(dir, 'link.db');
    const failures: CheckpointFailureStage[] = [];
    let firstFailure!: () => void;
    const failed = new Promise<void>((resolve) => (firstFailure = resolve));
    checkpointer = new WalCheckpointer(handle, link, {
      intervalMs: 60_000,
      restartDelayMs: 1,
      observer: {
        checkpointFailed: (stage) => {
          failures.push(stage);
          if (failures.length === 1) {
            symlinkSync(join(dir, 'db'), link);
            firstFailure();
          }
        },
      },
    });
    await failed;
    fillWal();
    // Queued until the replacement worker has opened the database.
    const result = await checkpointer.checkpointNow();
    expect(result.checkpointed).toBe(result.log);
    expect(result.log).toBeGreaterThan(10);
    expect(failures).toEqual(['worker']);
    expect(checkpointer.failures).toBe(1);
    expect(errors).toEqual([expect.stringMatching(/^WAL checkpoint worker died \(.*unable to open database file.*\); restarting it in 1 ms$/)]);
  });

  it('logs and counts a failing checkpoint, rejects its requester and replaces the worker', async () => {
    const errors: string[] = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void errors.push(String(message)));
    // Opens fine (SQLite reads lazily); the checkpoint then finds no database in it.
    const notADatabase = join(dir, 'not-a-database');
    writeFileSync(notADatabase, 'x'.repeat(8192));
    const failures: CheckpointFailureStage[] = [];
    checkpointer = new WalCheckpointer(handle, notADatabase, { intervalMs: 60_000, restartDelayMs: 60_000, observer: { checkpointFailed: (stage) => failures.push(stage) } });
    await expect(checkpointer.checkpointNow()).rejects.toThrow(/not a database/);
    expect(failures).toEqual(['checkpoint']);
    expect(errors).toEqual([expect.stringMatching(/^WAL checkpoint failed \(.*not a database.*\); replacing the worker in 60000 ms$/)]);
  });

  it('stops cleanly while its worker is down', async () => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    let down!: () => void;
    const failed = new Promise<void>((resolve) => (down = resolve));
    checkpointer = new WalCheckpointer(handle, join(dir, 'missing.db'), { intervalMs: 60_000, restartDelayMs: 60_000, observer: { checkpointFailed: () => down() } });
    await failed;
    const pending = checkpointer.checkpointNow();
    await checkpointer.stop();
    await expect(pending).rejects.toThrow('the checkpointer stopped');
    checkpointer = undefined;
  });
});
