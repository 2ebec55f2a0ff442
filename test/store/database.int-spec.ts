// Start-up checks only what is cheap (header, schema, the log's tail) so that a restart on a
// multi-GB store is quick; the full check of every page is `svctrail integrity-check`.
import Database from 'better-sqlite3';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runIntegrityCheck } from '../../src/cli/integrity-check.command';
import { PROJECT_ROOT } from '../../src/shared/project-root';
import { checkIntegrity, openDatabase } from '../../src/store/database';

const migrationsFolder = join(PROJECT_ROOT, 'migrations');

describe('opening the database', () => {
  let dataDir: string;
  let path: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svctrail-db-'));
    path = join(dataDir, 'svctrail.db');
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const integrityCheck = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runIntegrityCheck([...argv, '--data-dir', dataDir], (line) => lines.push(line));
    return { code, text: lines.join('\n') };
  };

  /** A store with an indexed table big enough to have leaf pages away from everything start-up reads. */
  const storeWithIndex = () => {
    const handle = openDatabase({ path, migrationsFolder, synchronous: 'FULL' });
    handle.sqlite.exec('CREATE TABLE padding (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX padding_v ON padding (v)');
    const insert = handle.sqlite.prepare('INSERT INTO padding (v) VALUES (?)');
    handle.sqlite.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run(`value-${i}-${'x'.repeat(40)}`);
    })();
    const page = handle.sqlite.prepare(`SELECT pageno FROM dbstat WHERE name = 'padding_v' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 3`).pluck().get() as number;
    const pageSize = handle.sqlite.pragma('page_size', { simple: true }) as number;
    handle.close(); // the last connection folds the WAL into the file
    return { page, pageSize };
  };

  it('creates the database, its WAL and shared memory 0600', () => {
    const handle = openDatabase({ path, migrationsFolder, synchronous: 'FULL' });
    try {
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect({ file, mode: statSync(file).mode & 0o777 }).toEqual({ file, mode: 0o600 });
    } finally {
      handle.close();
    }
  });

  it('keeps statement journals in memory: a status write dirties more pages than the 64 KiB SQLite journals before spilling to a temp file', () => {
    const handle = openDatabase({ path, migrationsFolder, synchronous: 'FULL' });
    try {
      expect(handle.sqlite.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
    } finally {
      handle.close();
    }
  });

  it('serves a store with a damaged index page (start-up does not read every page); integrity-check finds it', async () => {
    const { page, pageSize } = storeWithIndex();
    expect(await integrityCheck()).toEqual({ code: 0, text: `ok: ${path} passed integrity_check` });
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (page - 1) * pageSize);
    closeSync(fd);

    const handle = openDatabase({ path, migrationsFolder, synchronous: 'FULL' });
    expect(handle.sqlite.prepare('SELECT count(*) FROM events').pluck().get()).toBe(0);
    expect(checkIntegrity(handle, 'full').length).toBeGreaterThan(0);
    handle.close();

    const full = await integrityCheck();
    expect(full.code).toBe(1);
    expect(full.text).toMatch(new RegExp(`^FAILED: ${path} failed integrity_check:\\n.+`));
    const quick = await integrityCheck('--quick', '-o', 'json');
    expect(quick.code).toBe(1);
    const report = JSON.parse(quick.text);
    expect(report).toMatchObject({ database: path, check: 'quick_check', ok: false });
    expect(report.problems.length).toBeGreaterThan(0);
  });

  it('a read-only open writes nothing: no WAL mode change, migration or checkpoint', () => {
    storeWithIndex();
    const writer = new Database(path);
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('INSERT INTO padding (v) VALUES (1)');
    const walBytes = statSync(`${path}-wal`).size;
    writer.exec('BEGIN IMMEDIATE');
    try {
      const reader = openDatabase({ path, migrationsFolder, synchronous: 'NORMAL', readonly: true });
      expect(reader.sqlite.readonly).toBe(true);
      expect(reader.sqlite.prepare('SELECT count(*) FROM padding').pluck().get()).toBe(3001);
      expect(() => reader.sqlite.exec('DELETE FROM padding')).toThrow(/readonly/);
      reader.close();
    } finally {
      writer.exec('ROLLBACK');
    }
    expect(statSync(`${path}-wal`).size).toBe(walBytes);
    writer.close();
  });
});
