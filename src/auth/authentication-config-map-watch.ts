// Keeps the request-header settings of the delegated cluster's
// kube-system/extension-apiserver-authentication ConfigMap current, as k8s.io/apiserver's
// RequestHeaderAuthRequestController and ConfigMap CA provider do: read once at start (a missing
// ConfigMap is no front proxy yet; a refused read is fatal, with the RoleBinding that fixes it),
// then listed and watched by name (fieldSelector metadata.name=…), so a rotated front-proxy CA
// or a changed allowed name applies to the next request without a restart. A deleted ConfigMap
// leaves the last settings in force until kube-apiserver writes it again.
import type { ClusterClient } from '../cluster/cluster-client';
import { ClusterHttpError } from '../cluster/cluster-http-error';
import { Backoff } from '../mirror/backoff';
import { AUTHENTICATION_CONFIG_MAP, ConfigMapFormatError, requestHeaderSettingsFromConfigMap } from './extension-apiserver-authentication';
import type { RequestHeaderSettings } from './request-header-settings';
import { pause } from '../shared/abortable-pause';

interface ConfigMap {
  metadata?: { resourceVersion?: string };
  data?: Record<string, string>;
}

interface WatchEvent {
  type?: string;
  object?: ConfigMap & { code?: number };
}

export interface ConfigMapWatchLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface ConfigMapWatchOptions {
  /** A watch is started again when nothing, not even a bookmark, arrives for this long. */
  idleTimeoutMs?: number;
  random?: () => number;
}

const BASE = `/api/v1/namespaces/${AUTHENTICATION_CONFIG_MAP.namespace}/configmaps`;
const BY_NAME = `fieldSelector=${encodeURIComponent(`metadata.name=${AUTHENTICATION_CONFIG_MAP.name}`)}`;
const NO_FRONT_PROXY: RequestHeaderSettings = { clientCas: [], clientCaPem: '', allowedNames: [], usernameHeaders: [], uidHeaders: [], groupHeaders: [], extraHeaderPrefixes: [] };

export class AuthenticationConfigMapError extends Error {}

export class AuthenticationConfigMapWatch {
  private settings: RequestHeaderSettings = NO_FRONT_PROXY;
  private readonly listeners: ((settings: RequestHeaderSettings) => void)[] = [];
  private readonly stopping = new AbortController();
  private loop?: Promise<void>;
  private readonly backoff: Backoff;
  private readonly idleTimeoutMs: number;

  constructor(
    private readonly client: ClusterClient,
    private readonly log: ConfigMapWatchLog,
    options: ConfigMapWatchOptions = {},
  ) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
    this.backoff = new Backoff({ initialMs: 800, maxMs: 30_000, random: options.random ?? Math.random });
  }

  current(): RequestHeaderSettings {
    return this.settings;
  }

  /** Called after each change of the settings (the TLS layer offers the new CAs). */
  onChange(listener: (settings: RequestHeaderSettings) => void): void {
    this.listeners.push(listener);
  }

  /** Reads the ConfigMap once (throws AuthenticationConfigMapError when it may not), then keeps watching it. */
  async start(): Promise<void> {
    let resourceVersion: string;
    try {
      resourceVersion = await this.list();
    } catch (error) {
      throw new AuthenticationConfigMapError(startFailure(error));
    }
    this.loop = this.watchForever(resourceVersion);
  }

  /** Ends the watch and the client's connections (nothing of it keeps the process alive). */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
    this.client.close();
  }

  private async watchForever(resourceVersion: string): Promise<void> {
    let from = resourceVersion;
    while (!this.stopping.signal.aborted) {
      try {
        if (from === '') from = await this.list();
        // A cluster that does not serve ConfigMaps gave no resourceVersion to watch from.
        if (from === '') {
          await pause(this.backoff.next(), this.stopping.signal);
          continue;
        }
        from = await this.watch(from);
        this.backoff.reset();
      } catch (error) {
        if (this.stopping.signal.aborted) return;
        if (error instanceof ClusterHttpError && error.status === 410) {
          from = '';
          continue;
        }
        this.log.warn(`watching ${AUTHENTICATION_CONFIG_MAP.namespace}/${AUTHENTICATION_CONFIG_MAP.name}: ${(error as Error).message}`);
        from = '';
        await pause(this.backoff.next(), this.stopping.signal);
      }
    }
  }

  /** The ConfigMap as it is now; answers the list's resourceVersion. */
  private async list(): Promise<string> {
    let list: { metadata?: { resourceVersion?: string }; items?: ConfigMap[] };
    try {
      list = (await this.client.getJson(`${BASE}?${BY_NAME}`, { signal: this.stopping.signal, timeoutMs: 10_000 })) as typeof list;
    } catch (error) {
      // Upstream reads the ConfigMap with a GET and takes NotFound as "none yet"; a 404 here is the same answer.
      if (!(error instanceof ClusterHttpError && error.status === 404)) throw error;
      list = {};
    }
    const found = list.items?.[0];
    if (found) this.apply(found);
    else if (this.settings === NO_FRONT_PROXY) this.log.info(`${AUTHENTICATION_CONFIG_MAP.namespace}/${AUTHENTICATION_CONFIG_MAP.name} does not exist (yet): no front proxy is believed`);
    return list.metadata?.resourceVersion ?? '';
  }

  /** Until the watch ends: the resourceVersion to go on from (a 410 as a ClusterHttpError). */
  private async watch(resourceVersion: string): Promise<string> {
    let from = resourceVersion;
    const timeoutSeconds = 300 + Math.floor(Math.random() * 300);
    const path = `${BASE}?${BY_NAME}&watch=true&allowWatchBookmarks=true&timeoutSeconds=${timeoutSeconds}&resourceVersion=${encodeURIComponent(from)}`;
    for await (const line of this.client.watch(path, { signal: this.stopping.signal, idleTimeoutMs: this.idleTimeoutMs })) {
      const event = line as WatchEvent;
      if (event.type === 'ERROR') throw new ClusterHttpError(event.object?.code ?? 500, path, event.object);
      if (event.object?.metadata?.resourceVersion) from = event.object.metadata.resourceVersion;
      if (event.type === 'ADDED' || event.type === 'MODIFIED') this.apply(event.object ?? {});
    }
    return from;
  }

  private apply(configMap: ConfigMap): void {
    let next: RequestHeaderSettings;
    try {
      next = requestHeaderSettingsFromConfigMap(configMap.data ?? {});
    } catch (error) {
      // Upstream keeps the last good settings and retries; the next write of the ConfigMap is read again.
      if (error instanceof ConfigMapFormatError) {
        this.log.warn(`${AUTHENTICATION_CONFIG_MAP.namespace}/${AUTHENTICATION_CONFIG_MAP.name} is not usable, keeping the last settings: ${error.message}`);
        return;
      }
      throw error;
    }
    if (sameSettings(this.settings, next)) return;
    this.settings = next;
    this.log.info(
      `request-header settings from ${AUTHENTICATION_CONFIG_MAP.namespace}/${AUTHENTICATION_CONFIG_MAP.name}: ${next.clientCas.length} CA certificate(s), allowed names [${next.allowedNames.join(', ')}]`,
    );
    for (const listener of this.listeners) listener(next);
  }
}

function sameSettings(a: RequestHeaderSettings, b: RequestHeaderSettings): boolean {
  const { clientCas: _a, ...restA } = a;
  const { clientCas: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}

function startFailure(error: unknown): string {
  const what = `${AUTHENTICATION_CONFIG_MAP.namespace}/${AUTHENTICATION_CONFIG_MAP.name}`;
  if (error instanceof ClusterHttpError && error.status === 403) {
    return (
      `cannot read configmap ${what} for the front proxy's CA: ${error.message}. Usually fixed by ` +
      `'kubectl create rolebinding -n kube-system ROLEBINDING_NAME --role=extension-apiserver-authentication-reader --serviceaccount=YOUR_NS:YOUR_SA'`
    );
  }
  return `cannot read configmap ${what} for the front proxy's CA: ${(error as Error).message}`;
}
