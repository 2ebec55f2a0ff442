// The watch's change log on the chosen engine (StoreModule provides it under SERVICE_CHANGES).
import { PgServiceChangeLog } from './postgres/history/pg-service-change-log';
import { ServiceChangeLog } from './service-change-log';
import type { ServiceChanges } from './service-change-log';
import type { StoreEngine } from './store-engine';

export function serviceChangeLogFor(engine: StoreEngine): ServiceChanges {
  return engine.kind === 'sqlite' ? new ServiceChangeLog(engine.handle) : new PgServiceChangeLog(engine.handle.pool);
}
