// The watch's change log on the chosen engine (StoreModule provides it under SERVICE_CHANGES).
import { PgSqlReader } from './postgres/pg-sql-reader';
import { ServiceChangeLog } from './service-change-log';
import type { ServiceChanges } from './ports/service-changes';
import { SqliteSqlReader } from './sqlite-sql-reader';
import type { StoreEngine } from './store-engine';

export function serviceChangeLogFor(engine: StoreEngine): ServiceChanges {
  if (engine.kind === 'sqlite') return new ServiceChangeLog(new SqliteSqlReader(engine.handle));
  const pool = engine.handle.pool;
  return new ServiceChangeLog(new PgSqlReader(() => pool));
}
