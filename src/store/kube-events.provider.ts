// The core/v1 Events reader on the chosen engine (provided under KUBE_EVENTS).
import { KubeEventLog } from './kube-event-log';
import type { KubeEvents } from './kube-event-log';
import { PgKubeEventLog } from './postgres/history/pg-kube-event-log';
import type { StoreEngine } from './store-engine';

export function kubeEventLogFor(engine: StoreEngine): KubeEvents {
  return engine.kind === 'sqlite' ? new KubeEventLog(engine.handle) : new PgKubeEventLog(engine.handle.pool);
}
