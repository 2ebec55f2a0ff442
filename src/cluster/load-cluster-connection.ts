// What a flag that names a cluster (--mirror, --authentication-kubeconfig,
// --authorization-kubeconfig) names: a kubeconfig file, or `in-cluster`, the Pod's own cluster as
// client-go's rest.InClusterConfig reads it (k8s.io/apiserver's delegating options fall back to
// it the same way when no kubeconfig is given).
import { type InClusterEnvironment, inClusterConnection } from './in-cluster-connection';
import { type ClusterConnection, loadKubeconfigConnection } from './kubeconfig-connection';

export const IN_CLUSTER = 'in-cluster';

export interface LoadedConnection {
  connection: ClusterConnection;
  warnings: string[];
}

export interface ConnectionSource {
  /** A kubeconfig path, or `in-cluster`. */
  source: string;
  /** The flag that gave it, for messages (`--mirror`). */
  flag: string;
  /** A kubeconfig's context; empty: its current-context. */
  context?: string;
  /** How to name a context, when the kubeconfig has no current-context (`: name one with --mirror-context`). */
  contextHint?: string;
  environment: InClusterEnvironment;
}

/** Throws ClusterConfigError with the reason when the cluster cannot be named that way. */
export function loadClusterConnection(options: ConnectionSource): LoadedConnection {
  if (options.source === IN_CLUSTER) return inClusterConnection(options.environment, options.flag);
  return { connection: loadKubeconfigConnection(options.source, options.context || undefined, options.contextHint), warnings: [] };
}
