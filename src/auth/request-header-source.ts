// Where the request-header settings come from, as k8s.io/apiserver's DelegatingAuthenticationOptions
// decide it: --requestheader-client-ca-file and the header flags when the CA file is given;
// otherwise the kube-system/extension-apiserver-authentication ConfigMap of the
// --authentication-kubeconfig cluster, watched; otherwise no front proxy is believed.
import type { ClusterClient } from '../cluster/cluster-client';
import { AuthenticationConfigMapWatch, type ConfigMapWatchLog } from './authentication-config-map-watch';
import { type RequestHeaderFlags, type RequestHeaderSettings, requestHeaderSettingsFromFlags } from './request-header-settings';

export interface RequestHeaderSource {
  current(): RequestHeaderSettings | undefined;
  /** Called after the settings changed (a rotated CA): the TLS layer offers the new CAs. */
  onChange(listener: (settings: RequestHeaderSettings) => void): void;
  stop(): Promise<void>;
}

/** Throws RequestHeaderCaFileError or AuthenticationConfigMapError when the settings cannot be had at start. */
export async function startRequestHeaderSource(flags: RequestHeaderFlags | undefined, cluster: ClusterClient | undefined, log: ConfigMapWatchLog): Promise<RequestHeaderSource | undefined> {
  if (flags) {
    const settings = requestHeaderSettingsFromFlags(flags);
    return { current: () => settings, onChange: () => undefined, stop: () => Promise.resolve() };
  }
  if (!cluster) return undefined;
  const watch = new AuthenticationConfigMapWatch(cluster, log);
  await watch.start();
  return { current: () => watch.current(), onChange: (listener) => watch.onChange(listener), stop: () => watch.stop() };
}
