// Checkpoints run in a worker thread: the main connection never checkpoints on COMMIT, yet the
// WAL's frames are copied back into the database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/config/app-config';
import { openDatabase } from '../../src/store/database';
import { WalCheckpointer } from '../../src/store/wal-checkpointer';

it('checkpoints the WAL from a worker thread while the main connection only commits', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svctrail-wal-'));
  const path = join(dir, 'db');
  const handle = openDatabase({ path, migrationsFolder: join(PROJECT_ROOT, 'migrations'), synchronous: 'FULL' });
  const checkpointer = new WalCheckpointer(handle, path, 60_000);
  try {
    expect(handle.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    handle.sqlite.exec('CREATE TABLE t (v TEXT)');
    const insert = handle.sqlite.prepare('INSERT INTO t (v) VALUES (?)');
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(1000));
    const result = await checkpointer.checkpointNow();
    expect(result.log).toBeGreaterThan(10);
    expect(result.checkpointed).toBe(result.log);
    expect(result.busy).toBe(0);
  } finally {
    await checkpointer.stop();
    handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
