// The core/v1 Events reader on the chosen engine (provided under KUBE_EVENTS).
import { KubeEventLog } from './kube-event-log';
import type { KubeEvents } from './ports/kube-events';
import { PgSqlReader } from './postgres/pg-sql-reader';
import { SqliteSqlReader } from './sqlite-sql-reader';
import type { StoreEngine } from './store-engine';

export function kubeEventLogFor(engine: StoreEngine): KubeEvents {
  if (engine.kind === 'sqlite') return new KubeEventLog(new SqliteSqlReader(engine.handle));
  const pool = engine.handle.pool;
  return new KubeEventLog(new PgSqlReader(() => pool));
}
