// Which store a maintenance command works on: `--storage postgres://…` (or SVCTRAIL_STORAGE) for
// PostgreSQL, otherwise SQLite in --data-dir (default ./data) as before. The flag wins over the
// environment; a data directory given together with a PostgreSQL URL is refused rather than
// silently ignored (the operator meant one of them).
import { redactedUrl } from '../store/postgres/postgres-database';
import { parsePostgresUrl } from '../store/postgres-url';
import type { StorageChoice } from '../store/ports/store-settings';
import { DEFAULT_DATA_DIR } from '../tls/data-dir';
import { UsageError } from './usage-error';

export const STORAGE_USAGE = `  --storage postgres://USER:PASSWORD@HOST:PORT/DB (or SVCTRAIL_STORAGE): the PostgreSQL store
  instead of SQLite in --data-dir; "sqlite" (the default) names the data directory's store.`;

/** The store a command runs on: SQLite with its data directory (none given: the command refuses), or a PostgreSQL URL. */
export type CommandStore = { engine: 'sqlite'; dataDir: string } | Extract<StorageChoice, { engine: 'postgres' }>;

/** `storage`: the --storage flag; `env`: SVCTRAIL_STORAGE. */
export function parseStorageChoice(storage: string | undefined, env: string | undefined): StorageChoice {
  const given = storage ?? (env?.trim() ? env.trim() : undefined);
  const source = storage !== undefined ? '--storage' : 'SVCTRAIL_STORAGE';
  if (given === undefined || given === 'sqlite') return { engine: 'sqlite' };
  if (/^postgres(ql)?:\/\//i.test(given)) {
    try {
      parsePostgresUrl(given);
    } catch (error) {
      throw new UsageError(`${source} is not a valid URL: ${redactedUrl(given)} (${(error as Error).message})`);
    }
    return { engine: 'postgres', url: given };
  }
  throw new UsageError(`${source} must be "sqlite" or a postgres:// URL, not "${redactedUrl(given)}"`);
}

/** The command's store from its --storage and --data-dir flags (undefined: not given) and the environment; `defaultDataDir` null: --data-dir is required for SQLite. */
export function commandStore(
  flags: { storage?: string; dataDir?: string },
  env: string | undefined,
  defaultDataDir: string | null = DEFAULT_DATA_DIR,
  missing = 'needs --data-dir DIR (or --storage postgres://…)',
): CommandStore {
  const choice = parseStorageChoice(flags.storage, env);
  if (choice.engine === 'postgres') {
    if (flags.dataDir !== undefined) throw new UsageError('--data-dir is for the SQLite store; PostgreSQL is named by --storage (or SVCTRAIL_STORAGE), give one of them');
    return choice;
  }
  const dataDir = flags.dataDir ?? defaultDataDir;
  if (dataDir === null) throw new UsageError(missing);
  return { engine: 'sqlite', dataDir };
}
