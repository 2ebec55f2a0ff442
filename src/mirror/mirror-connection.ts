// The source cluster `--mirror` names: a kubeconfig (and `--mirror-context`), or `in-cluster`.
import type { AppConfig } from '../config/app-config';
import { type LoadedConnection, loadClusterConnection } from '../cluster/load-cluster-connection';

export function mirrorConnection(config: AppConfig): LoadedConnection {
  return loadClusterConnection({
    source: config.mirror,
    flag: '--mirror',
    context: config.mirrorContext,
    contextHint: ': name one with --mirror-context',
    environment: config.inClusterEnvironment,
  });
}
