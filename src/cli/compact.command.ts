// `svctrail compact --before TIME|RESOURCEVERSION [--data-dir DIR | --storage postgres://…] [-o json|yaml]`
import { statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { existingDataDirectory } from '../maintenance/data-directory';
import { parseLogPoint } from '../maintenance/log-point';
import { openPgStore } from '../maintenance/postgres/pg-store-connection';
import { openDatabase } from '../store/database';
import { pgHistoryCompactor } from '../store/postgres/pg-history-compactor';
import { sqliteHistoryCompactor } from '../store/sqlite-history-compactor';
import { WriteLockPacing } from '../store/write-lock-pacing';
import { PgSqlWriter } from '../store/postgres/pg-sql-writer';
import { SqliteSqlWriter } from '../store/sqlite-sql-writer';
import { packRemainingEventData } from '../maintenance/event-data-conversion';
import type { CompactionOutcome } from '../store/ports/history-compaction';
import { parseOutputFormat, structured } from './output-format';
import { ProgressBar } from './progress-bar';
import { commandStore, STORAGE_USAGE } from './storage-option';
import { UsageError } from './usage-error';

export const COMPACT_USAGE = `usage: svctrail compact --before TIME|RESOURCEVERSION [--data-dir DIR | --storage postgres://…] [-o json|yaml]
  Compacts the history below a horizon: the newest write at or before the given RFC 3339 time or
  resourceVersion. Below it the full objects go (a GET, LIST or watch at an older
  resourceVersion is answered 410 Expired, as by kube-apiserver after etcd compacted) and the
  facts stay, unchanged: every change record with its patch, condition transitions, ingress
  intervals, field ownership, Events. The Services alive at the horizon keep their state there
  (anchors), so reads from the horizon on answer as before. The compaction is recorded (GET
  /apis/history.svctrail.io/v1alpha1/compactions) and the freed space is given back to the file
  system. Safe beside a running server: it works in short transactions. Compacting at or before
  an earlier horizon changes nothing.
${STORAGE_USAGE}`;

export async function runCompact(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      before: { type: 'string' },
      'data-dir': { type: 'string' },
      storage: { type: 'string' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    out(COMPACT_USAGE);
    return 0;
  }
  const format = parseOutputFormat(values.output);
  if (values.before === undefined) throw new UsageError('compact needs --before TIME|RESOURCEVERSION');
  const point = parseLogPoint(values.before, '--before');
  const store = commandStore({ storage: values.storage, dataDir: values['data-dir'] }, process.env.SVCTRAIL_STORAGE);
  const progress = new ProgressBar();
  let reported = 0;
  const request = {
    point,
    actor: `cli:${userInfo().username}`,
    progress: (examined: number) => {
      progress.advance(examined - reported);
      reported = examined;
    },
  };
  let outcome: CompactionOutcome;
  let file: { before: number; after: number } | undefined;
  // SQLite only: how long its transactions held the write lock a running server's writes wait for.
  const pacing = new WriteLockPacing();
  if (store.engine === 'postgres') {
    const handle = await openPgStore(store.url, { existing: true, max: 2 });
    try {
      await packRemainingEventData(new PgSqlWriter(handle.pool), progress);
      progress.start('compact', undefined, 'revisions');
      outcome = await pgHistoryCompactor(handle.pool).compact(request);
    } finally {
      await handle.close();
    }
  } else {
    const dir = existingDataDirectory(store.dataDir);
    const bytes = () => fileBytes(dir.databasePath);
    const before = bytes();
    // Beside a running server: no start-up checkpoint of its WAL (the server owns it).
    const handle = openDatabase({ path: dir.databasePath, migrationsFolder: dir.migrationsFolder, synchronous: 'FULL', truncateWal: false });
    try {
      await packRemainingEventData(new SqliteSqlWriter(handle, undefined, pacing), progress);
      progress.start('compact', undefined, 'revisions');
      outcome = await sqliteHistoryCompactor(handle, undefined, undefined, pacing).compact(request);
    } finally {
      handle.close();
    }
    file = { before, after: bytes() };
  }
  progress.done();
  const tenths = (ms: number) => Math.round(ms * 10) / 10;
  const lock = file
    ? {
        transactions: pacing.transactions,
        longestMs: tenths(pacing.longestMs),
        longestMsByKind: Object.fromEntries(Object.entries(pacing.longestByKind).map(([kind, ms]) => [kind, tenths(ms)])),
      }
    : undefined;
  const report = { result: outcome.kind, ...(outcome.kind === 'empty' ? {} : { compaction: outcome.compaction }), ...(file ? { databaseBytes: file, lock } : {}) };
  const text = structured(format, report);
  if (text !== undefined) {
    out(text);
    return 0;
  }
  if (outcome.kind === 'empty') {
    out(`nothing to compact: no write at or before ${values.before}`);
    return 0;
  }
  const { horizon, removed } = outcome.compaction;
  if (outcome.kind === 'unchanged') {
    out(`unchanged: the history is already compacted to resourceVersion ${horizon.resourceVersion} (${horizon.time})`);
    return 0;
  }
  out(
    `compacted to resourceVersion ${horizon.resourceVersion} (${horizon.time}): ${removed.writes} writes fell below the horizon, ` +
      `${removed.objects} objects removed (${removed.bytes} bytes)${file ? `; database ${file.before} → ${file.after} bytes` : ''}` +
      `${lock ? `; ${lock.transactions} transactions, the longest held the write lock ${lock.longestMs} ms` : ''}`,
  );
  return 0;
}

/** The database file and its WAL, in bytes. */
function fileBytes(path: string): number {
  const size = (p: string) => statSync(p, { throwIfNoEntry: false })?.size ?? 0;
  return size(path) + size(`${path}-wal`);
}
