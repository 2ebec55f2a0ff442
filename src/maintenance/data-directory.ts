// Where a data directory keeps its database, and the migrations every copy is created with: the
// same AppConfig the server uses, so the CLI and `npm start -- --data-dir` agree.
import { existsSync, readdirSync } from 'node:fs';
import { validateConfig } from '../config/app-config';
import { LOCK_FILE } from '../store/data-directory-lock';
import { MaintenanceError } from './maintenance-error';

export interface DataDirectory {
  dataDir: string;
  databasePath: string;
  migrationsFolder: string;
}

export function dataDirectory(dataDir: string): DataDirectory {
  const config = validateConfig({ dataDir });
  return { dataDir: config.dataDir, databasePath: config.databasePath, migrationsFolder: config.migrationsFolder };
}

/** The data directory of an existing store; a missing database is a refusal, not a new store. */
export function existingDataDirectory(dataDir: string): DataDirectory {
  const dir = dataDirectory(dataDir);
  if (!existsSync(dir.databasePath)) throw new MaintenanceError(`no svctrail database at ${dir.databasePath}`);
  return dir;
}

/** A target directory that must not exist yet or be empty (import, replay --until). */
export function assertEmptyDirectory(path: string, what: string): void {
  if (!existsSync(path)) return;
  // An unheld lock file is what a crashed import leaves; the lock itself is checked by its taker.
  const entries = readdirSync(path).filter((entry) => entry !== LOCK_FILE);
  if (entries.length) {
    throw new MaintenanceError(`${what} ${path} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}); give a new or empty directory`);
  }
}
