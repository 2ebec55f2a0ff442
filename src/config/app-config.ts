// The typed configuration: flags (`--port 0`) with SVCTRAIL_* environment twins, validated once.
// Nothing else reads process.env or process.argv.
import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { plainToInstance, Type } from 'class-transformer';
// One module per decorator, not the package's index (class-validator-modules.d.ts says why).
import { IsIn } from 'class-validator/cjs/decorator/common/IsIn';
import { IsInt } from 'class-validator/cjs/decorator/typechecker/IsInt';
import { IsString } from 'class-validator/cjs/decorator/typechecker/IsString';
import { Matches } from 'class-validator/cjs/decorator/string/Matches';
import { Max } from 'class-validator/cjs/decorator/number/Max';
import { Min } from 'class-validator/cjs/decorator/number/Min';
import { MinLength } from 'class-validator/cjs/decorator/string/MinLength';
import { Validator } from 'class-validator/cjs/validation/Validator';
import { PROJECT_ROOT } from '../shared/project-root';
import { DEFAULT_DATA_DIR } from '../tls/data-dir';
import type { StorageChoice } from '../store/ports/store-settings';
import { parsePostgresUrl } from '../store/postgres-url';
import { retentionMs } from '../retention/retention-duration';
import { parseGoDuration } from './go-duration';
import { IN_CLUSTER } from '../cluster/load-cluster-connection';
import { type InClusterEnvironment, SERVICE_ACCOUNT_DIR } from '../cluster/in-cluster-connection';
import { TOKEN_FILE_MAX_AGE_MS } from '../cluster/cluster-credentials';
import { DEFAULT_REQUEST_HEADERS, listFlag, type RequestHeaderFlags } from '../auth/request-header-settings';

export const APP_CONFIG = Symbol('APP_CONFIG');

export class AppConfig {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  port = 6443;

  @IsString()
  @MinLength(1)
  host = '127.0.0.1';

  @IsString()
  @MinLength(1)
  dataDir = DEFAULT_DATA_DIR;

  @Matches(/^[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)?$/, { message: 'service-cluster-ip-range must be one CIDR or two comma-separated CIDRs' })
  serviceClusterIpRange = '10.96.0.0/12';

  @Matches(/^\d+-\d+$|^\d+\+\d+$/, { message: 'service-node-port-range must look like 30000-32767' })
  serviceNodePortRange = '30000-32767';

  /** FULL (default): acknowledged writes survive power loss. NORMAL: only a process crash. */
  @IsIn(['FULL', 'NORMAL'])
  sqliteSynchronous: 'FULL' | 'NORMAL' = 'FULL';

  @IsIn(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent' = 'info';

  /** Browser UI sessions end after this many seconds without a request. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  uiSessionIdleSeconds = 30 * 60;

  /** …and this many seconds after sign-in, however busy. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  uiSessionMaxSeconds = 8 * 60 * 60;

  /** The built browser UI served under /ui/. */
  @IsString()
  uiDistFolder = join(PROJECT_ROOT, 'ui', 'dist');

  @IsString()
  migrationsFolder = join(PROJECT_ROOT, 'migrations');

  /**
   * `--storage` / SVCTRAIL_STORAGE as given: empty for SQLite in the data directory, or a
   * postgres:// (postgresql://) URL of the database every replica shares.
   */
  @IsString()
  @Matches(/^$|^postgres(ql)?:\/\/\S+$/, { message: 'storage must be empty (SQLite in the data directory) or a postgres:// or postgresql:// URL' })
  storageUrl = '';

  /**
   * `--mirror KUBECONFIG|in-cluster` / SVCTRAIL_MIRROR: record the Services of the cluster this
   * kubeconfig names (or the one the Pod runs in), and serve them read-only (empty: svctrail is
   * the API server itself).
   */
  @IsString()
  mirror = '';

  /** The kubeconfig context to mirror; empty: its current-context. */
  @IsString()
  mirrorContext = '';

  /** The server-side timeout of each mirror watch; 0: random in [5, 10) minutes, as client-go. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  mirrorWatchTimeoutSeconds = 0;

  /**
   * `--replica-url URL|auto` / SVCTRAIL_REPLICA_URL, on PostgreSQL: where the other replicas reach
   * this one (in a cluster: https://$(POD_IP):6443; auto: the URL it serves at). Given, the replicas
   * share one write leader: the one holding its lease appends for all, the others forward their
   * writes to it (store/ports/write-leadership.ts). Empty (the default): each replica appends its own.
   */
  @Matches(/^(auto|https:\/\/\S+)?$/, { message: 'replica-url must be an https:// URL or auto' })
  replicaUrl = '';

  /**
   * `--tls-san NAME[,NAME]` / SVCTRAIL_TLS_SAN: DNS names and IP addresses the serving certificate
   * names besides the loopback ones, when it is first made (in a cluster: svctrail.<namespace>.svc,
   * the name the aggregator dials).
   */
  @IsString()
  tlsSan = '';

  /**
   * `--requestheader-client-ca-file` and the header-name flags, as k8s.io/apiserver names them:
   * who may say, in X-Remote-* headers, which user a request is for (the cluster's aggregator).
   * Without the CA file they come from the --authentication-kubeconfig cluster's
   * kube-system/extension-apiserver-authentication ConfigMap instead.
   */
  @IsString()
  requestheaderClientCaFile = '';

  @IsString()
  requestheaderAllowedNames = '';

  @IsString()
  requestheaderUsernameHeaders = DEFAULT_REQUEST_HEADERS.usernameHeaders.join(',');

  @IsString()
  requestheaderUidHeaders = DEFAULT_REQUEST_HEADERS.uidHeaders.join(',');

  @IsString()
  requestheaderGroupHeaders = DEFAULT_REQUEST_HEADERS.groupHeaders.join(',');

  @IsString()
  requestheaderExtraHeadersPrefix = DEFAULT_REQUEST_HEADERS.extraHeaderPrefixes.join(',');

  /**
   * `--authentication-kubeconfig KUBECONFIG|in-cluster` (k8s.io/apiserver's flag): a bearer token
   * svctrail does not know itself is checked with a TokenReview at that cluster. Empty: never.
   */
  @IsString()
  authenticationKubeconfig = '';

  /**
   * `--authorization-kubeconfig KUBECONFIG|in-cluster` (k8s.io/apiserver's flag): what svctrail's
   * own authorizers do not allow is asked of that cluster with a SubjectAccessReview. Empty: never.
   */
  @IsString()
  authorizationKubeconfig = '';

  /** `--authentication-token-webhook-cache-ttl`: how long a TokenReview's answer is kept (Go duration). */
  @IsString()
  authenticationTokenWebhookCacheTtl = '10s';

  /** `--authorization-webhook-cache-authorized-ttl`: how long an allowing SubjectAccessReview is kept. */
  @IsString()
  authorizationWebhookCacheAuthorizedTtl = '10s';

  /** `--authorization-webhook-cache-unauthorized-ttl`: how long a SubjectAccessReview that does not allow is kept. */
  @IsString()
  authorizationWebhookCacheUnauthorizedTtl = '10s';

  /**
   * `--service-account-dir` (tests and unusual mounts): where `in-cluster` finds the service
   * account's token, ca.crt and namespace files.
   */
  @IsString()
  @MinLength(1)
  serviceAccountDir = SERVICE_ACCOUNT_DIR;

  /** The Pod's KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT and POD_NAMESPACE (no flags: the kubelet sets them). */
  @IsString()
  kubernetesServiceHost = '';

  @IsString()
  kubernetesServicePort = '';

  @IsString()
  podNamespace = '';

  /** How long a token read from a token file is used before the file is read again (not a flag: tests shorten it). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  tokenFileMaxAgeMs = TOKEN_FILE_MAX_AGE_MS;

  /**
   * `--history-retention DURATION` / SVCTRAIL_HISTORY_RETENTION (e.g. 30d, 12h, 3s): compact
   * the history older than this by itself, every tenth of it (at least hourly); empty: never.
   */
  @IsString()
  historyRetention = '';

  /**
   * `--event-ttl DURATION` / SVCTRAIL_EVENT_TTL (kube-apiserver's flag, Go duration syntax): a
   * written core/v1 Event leaves the live Events API this long after its last write; its history
   * stays. 0: never.
   */
  @IsString()
  eventTtl = '1h';

  /** --event-ttl in whole seconds (an etcd lease's unit), undefined when Events never expire. */
  get eventTtlSeconds(): number | undefined {
    const ms = parseGoDuration(this.eventTtl)!;
    return ms === 0 ? undefined : Math.ceil(ms / 1000);
  }

  /** What `in-cluster` reads. */
  get inClusterEnvironment(): InClusterEnvironment {
    return { host: this.kubernetesServiceHost, port: this.kubernetesServicePort, podNamespace: this.podNamespace, serviceAccountDir: this.serviceAccountDir };
  }

  /** --tls-san's names, in order. */
  get tlsSans(): string[] {
    return listFlag(this.tlsSan);
  }

  /** The request-header flags (headers and names; the CA is read from the file), or undefined without --requestheader-client-ca-file. */
  get requestHeaderFlags(): RequestHeaderFlags | undefined {
    if (!this.requestheaderClientCaFile) return undefined;
    return {
      clientCaFile: this.requestheaderClientCaFile,
      allowedNames: listFlag(this.requestheaderAllowedNames),
      usernameHeaders: listFlag(this.requestheaderUsernameHeaders),
      uidHeaders: listFlag(this.requestheaderUidHeaders),
      groupHeaders: listFlag(this.requestheaderGroupHeaders),
      extraHeaderPrefixes: listFlag(this.requestheaderExtraHeadersPrefix),
    };
  }

  /** The three webhook cache TTLs in milliseconds (validated at load). */
  get tokenReviewCacheTtlMs(): number {
    return parseGoDuration(this.authenticationTokenWebhookCacheTtl)!;
  }

  get authorizedCacheTtlMs(): number {
    return parseGoDuration(this.authorizationWebhookCacheAuthorizedTtl)!;
  }

  get unauthorizedCacheTtlMs(): number {
    return parseGoDuration(this.authorizationWebhookCacheUnauthorizedTtl)!;
  }

  /** The engine the store runs on. */
  get storage(): StorageChoice {
    return this.storageUrl ? { engine: 'postgres', url: this.storageUrl } : { engine: 'sqlite' };
  }

  get databasePath(): string {
    return join(this.dataDir, 'svctrail.db');
  }
}

/** Flag name -> config key; each flag also reads SVCTRAIL_<FLAG_IN_UPPER_SNAKE>. */
const FLAGS = {
  port: 'port',
  host: 'host',
  'data-dir': 'dataDir',
  'service-cluster-ip-range': 'serviceClusterIpRange',
  'service-node-port-range': 'serviceNodePortRange',
  'sqlite-synchronous': 'sqliteSynchronous',
  'log-level': 'logLevel',
  'ui-session-idle-seconds': 'uiSessionIdleSeconds',
  'ui-session-max-seconds': 'uiSessionMaxSeconds',
  storage: 'storageUrl',
  mirror: 'mirror',
  'mirror-context': 'mirrorContext',
  'mirror-watch-timeout-seconds': 'mirrorWatchTimeoutSeconds',
  'history-retention': 'historyRetention',
  'event-ttl': 'eventTtl',
  'authentication-kubeconfig': 'authenticationKubeconfig',
  'authorization-kubeconfig': 'authorizationKubeconfig',
  'authentication-token-webhook-cache-ttl': 'authenticationTokenWebhookCacheTtl',
  'authorization-webhook-cache-authorized-ttl': 'authorizationWebhookCacheAuthorizedTtl',
  'authorization-webhook-cache-unauthorized-ttl': 'authorizationWebhookCacheUnauthorizedTtl',
  'service-account-dir': 'serviceAccountDir',
  'tls-san': 'tlsSan',
  'replica-url': 'replicaUrl',
  'requestheader-client-ca-file': 'requestheaderClientCaFile',
  'requestheader-allowed-names': 'requestheaderAllowedNames',
  'requestheader-username-headers': 'requestheaderUsernameHeaders',
  'requestheader-uid-headers': 'requestheaderUidHeaders',
  'requestheader-group-headers': 'requestheaderGroupHeaders',
  'requestheader-extra-headers-prefix': 'requestheaderExtraHeadersPrefix',
} as const;

/** The variables the kubelet sets in every container, read as they are named (no SVCTRAIL_ twin). */
const POD_ENVIRONMENT = { KUBERNETES_SERVICE_HOST: 'kubernetesServiceHost', KUBERNETES_SERVICE_PORT: 'kubernetesServicePort', POD_NAMESPACE: 'podNamespace' } as const;

export class ConfigError extends Error {}

export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): AppConfig {
  const { values } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' as const }])),
    strict: true,
    allowPositionals: false,
  });
  const raw: Record<string, string> = {};
  for (const [flag, key] of Object.entries(FLAGS)) {
    const envName = `SVCTRAIL_${flag.toUpperCase().replace(/-/g, '_')}`;
    const value = (values as Record<string, string | undefined>)[flag] ?? env[envName];
    if (value !== undefined) raw[key] = value;
  }
  for (const [name, key] of Object.entries(POD_ENVIRONMENT)) {
    const value = env[name];
    if (value !== undefined) raw[key] = value;
  }
  return validateConfig(raw);
}

export function validateConfig(raw: Record<string, unknown>): AppConfig {
  const config = plainToInstance(AppConfig, raw);
  const errors = new Validator().validateSync(config, { forbidUnknownValues: true });
  if (errors.length) {
    throw new ConfigError(errors.flatMap((e) => Object.values(e.constraints ?? {})).join('; '));
  }
  config.dataDir = resolve(config.dataDir);
  if (config.storageUrl) checkStorageUrl(config.storageUrl);
  if (config.mirror && config.mirror !== IN_CLUSTER) config.mirror = resolve(config.mirror);
  for (const key of ['authenticationKubeconfig', 'authorizationKubeconfig'] as const) {
    if (config[key] && config[key] !== IN_CLUSTER) config[key] = resolve(config[key]);
  }
  for (const [flag, key] of [
    ['authentication-token-webhook-cache-ttl', 'authenticationTokenWebhookCacheTtl'],
    ['authorization-webhook-cache-authorized-ttl', 'authorizationWebhookCacheAuthorizedTtl'],
    ['authorization-webhook-cache-unauthorized-ttl', 'authorizationWebhookCacheUnauthorizedTtl'],
  ] as const) {
    const ttl = parseGoDuration(config[key]);
    if (ttl === undefined || ttl < 0) throw new ConfigError(`${flag} must be a duration such as 10s, 1m or 0 (no cache)`);
  }
  if (config.historyRetention && retentionMs(config.historyRetention) === undefined) {
    throw new ConfigError('history-retention must be a duration longer than zero such as 30d, 12h, 1h30m or 3s');
  }
  const ttl = parseGoDuration(config.eventTtl);
  if (ttl === undefined || ttl < 0) throw new ConfigError('event-ttl must be a duration such as 1h, 30m, 90s or 0 (never)');
  if (config.mirrorContext && !config.mirror) throw new ConfigError('mirror-context needs mirror (the kubeconfig of the cluster to mirror)');
  if (config.mirrorContext && config.mirror === IN_CLUSTER) throw new ConfigError('mirror-context names a kubeconfig context; --mirror in-cluster has none');
  if (config.requestheaderClientCaFile) config.requestheaderClientCaFile = resolve(config.requestheaderClientCaFile);
  checkRequestHeaderFlags(config);
  return config;
}

/** A postgres URL, one host or several (the pattern only looks at its scheme). */
function checkStorageUrl(url: string): void {
  try {
    parsePostgresUrl(url);
  } catch (error) {
    throw new ConfigError(
      `storage must be a valid postgres:// URL (postgres://user:password@host:port/database, or host1:port1,host2:port2 with target_session_attrs=read-write): ${(error as Error).message}`,
    );
  }
}

/** RequestHeaderAuthenticationOptions.Validate: no empty name; a uid header list names X-Remote-Uid. */
function checkRequestHeaderFlags(config: AppConfig): void {
  for (const [flag, value] of [
    ['requestheader-username-headers', config.requestheaderUsernameHeaders],
    ['requestheader-uid-headers', config.requestheaderUidHeaders],
    ['requestheader-group-headers', config.requestheaderGroupHeaders],
    ['requestheader-extra-headers-prefix', config.requestheaderExtraHeadersPrefix],
    ['requestheader-allowed-names', config.requestheaderAllowedNames],
    ['tls-san', config.tlsSan],
  ] as const) {
    if (listFlag(value).some((item) => item === '')) throw new ConfigError(`empty value in "${flag}"`);
  }
  const uidHeaders = listFlag(config.requestheaderUidHeaders);
  if (uidHeaders.length > 0 && !uidHeaders.some((header) => header.toLowerCase() === 'x-remote-uid')) {
    throw new ConfigError('--requestheader-uid-headers is set without specifying the standard X-Remote-Uid header - API aggregation will not work');
  }
}
