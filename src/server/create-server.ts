// Builds and starts the HTTPS API server: data directory (CA, certificates, tokens), Nest on
// Fastify, authentication, error mapping, and the admin kubeconfig for the bound address.
import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdir } from 'node:fs/promises';
import { type AddressInfo, isIP } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { AppModule } from '../app.module';
import { type RequestHeaderSource, startRequestHeaderSource } from '../auth/request-header-source';
import { TokenIndex } from '../auth/token-index';
import { authorizationHook } from '../authz/authorization.hook';
import { Authorizer } from '../authz/authorizer';
import { impersonationHook } from '../authz/impersonation.hook';
import { RequestAuthenticator } from '../auth/request-authenticator';
import { BrowserSessions } from '../browser/browser-sessions';
import { loadUiAssets } from '../browser/ui-assets';
import { registerUiRoutes } from '../browser/ui-routes';
import { loadPolicyFile, policyFilePath } from '../authz/policy-file';
import type { AppConfig } from '../config/app-config';
import { authenticationHook } from '../kube-api/authentication.hook';
import { registerWriteForwarding } from '../kube-api/write-forwarding.hook';
import { WRITE_LEADERSHIP, type WriteLeadership } from '../store/ports/write-leadership';
import { MAX_BODY_BYTES } from '../kube-api/body-limits';
import { registerContentTypeParsers } from '../kube-api/content-type-parsers';
import { rewriteDeprecatedWatch } from '../kube-api/deprecated-watch-path';
import { answerClientError, answerFrameworkError } from '../kube-api/framework-errors';
import { KubeStatusFilter } from '../kube-api/kube-status.filter';
import { isWatchRequest } from '../kube-api/watch-options';
import { LOGGER } from '../observability/logging.module';
import type { LoggedRequest } from '../observability/logging.module';
import { MetricsService } from '../observability/metrics.service';
import { NestPinoLogger } from '../observability/nest-pino-logger';
import { QuietFrameworkLogger } from '../observability/quiet-framework.logger';
import { requestKind } from '../observability/request-kind';
import { readOnlyHook } from '../mirror/read-only.hook';
import { mirrorConnection } from '../mirror/mirror-connection';
import { delegatedAccess } from './delegated-access';
import { type Clock, systemClock } from '../shared/clock';
import { type IdFactory, randomIds } from '../shared/ids';
import { type DataDirectoryLock, lockDataDirectory } from '../store/data-directory-lock';
import { ensureDataDir, writeAdminKubeconfig } from '../tls/data-dir';
import { httpsServerOptions } from '../tls/https-options';

export interface ServerOptions {
  clock?: Clock;
  ids?: IdFactory;
  /** How long a client may take to send its headers (default HEADERS_TIMEOUT_MS; tests shorten it). */
  headersTimeoutMs?: number;
}

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::']);

/** Slow clients cannot hold the server: their headers must arrive within 20 s. */
export const HEADERS_TIMEOUT_MS = 20_000;

export interface RunningServer {
  app: NestFastifyApplication;
  /** https://host:port as written into the kubeconfig */
  url: string;
  kubeconfigPath: string;
  warnings: string[];
  close(): Promise<void>;
}

export async function createServer(config: AppConfig, options: ServerOptions = {}): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  // One server per SQLite database; on PostgreSQL any number of replicas share one database,
  // each with its own copy of the data directory (credentials only).
  const lock: DataDirectoryLock = config.storage.engine === 'sqlite' ? lockDataDirectory(config.dataDir) : { path: '', release: () => undefined };
  try {
    return await startServer(config, clock, ids, lock, options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function startServer(config: AppConfig, clock: Clock, ids: IdFactory, lock: DataDirectoryLock, headersTimeoutMs: number): Promise<RunningServer> {
  // A kubeconfig (or Pod environment) that cannot be used is refused with its reason before anything starts.
  const delegation = delegatedAccess(config);
  const clusterWarnings = [...(config.mirror ? mirrorConnection(config).warnings : []), ...delegation.warnings];
  // --tls-san: the names the serving certificate is made for besides the loopback ones.
  const sans = config.tlsSans;
  const material = await ensureDataDir({ dataDir: config.dataDir, now: () => clock.now(), dnsNames: sans.filter((name) => isIP(name) === 0), ipAddresses: sans.filter((name) => isIP(name) !== 0) });
  const tokens = TokenIndex.fromRecords(material.tokens);
  // A bad policy line stops startup, as kube-apiserver refuses a bad --authorization-policy-file.
  const policy = await loadPolicyFile(policyFilePath(config.dataDir));

  // Requests already accepted when SIGTERM arrives are served to the end, not answered 503.
  const adapter = new FastifyAdapter({
    https: {
      ...httpsServerOptions(material),
      // Slow clients cannot hold the server: headers within headersTimeoutMs, the whole request
      // within 60 s (this bounds receiving a request, not a watch's response), checked every
      // 2 s (or a tenth of a shorter headers timeout).
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.min(2_000, Math.max(100, headersTimeoutMs / 10)),
    },
    requestTimeout: 60_000,
    bodyLimit: MAX_BODY_BYTES,
    return503OnClosing: false,
    // Errors answered before any hook or Nest filter: a Status too (framework-errors.ts).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // `/api/v1/watch/...` is routed as the list path it watches (deprecated-watch-path.ts).
    rewriteUrl: rewriteDeprecatedWatch,
  });
  const fastify = adapter.getInstance();
  registerContentTypeParsers(fastify);
  // The front proxy's settings: known once the app can log (the ConfigMap's watch), read per request.
  let requestHeaders: RequestHeaderSource | undefined;
  const frontProxy = { settings: () => requestHeaders?.current(), now: () => clock.now() };
  // However the app closes (SIGTERM included), the ConfigMap's watch ends with it.
  fastify.addHook('onClose', async () => {
    await requestHeaders?.stop();
  });
  const sessions = new BrowserSessions(clock, { idleMs: config.uiSessionIdleSeconds * 1000, absoluteMs: config.uiSessionMaxSeconds * 1000 });
  const authenticator = new RequestAuthenticator(() => tokens, delegation.tokenReview);
  const authorizer = new Authorizer(policy, delegation.subjectAccessReview);
  // kube-apiserver's filter order: authentication, impersonation, authorization.
  // Resolved once the app exists; hooks must be registered before Fastify is ready.
  let metrics: MetricsService | undefined;
  // PostgreSQL's write leader, read per request.
  let leadership: WriteLeadership | null = null;
  fastify.addHook(
    'onRequest',
    authenticationHook({ authenticator, authorizer }, ids, sessions, frontProxy, () => leadership ?? undefined),
  );
  fastify.addHook('onRequest', impersonationHook(authorizer));
  fastify.addHook('onRequest', authorizationHook(authorizer));
  if (config.mirror) fastify.addHook('onRequest', readOnlyHook());
  else
    registerWriteForwarding(
      fastify,
      () => leadership ?? undefined,
      (outcome) => metrics?.writesForwarded.inc({ outcome }),
    );
  registerUiRoutes(fastify, { assets: loadUiAssets(config.uiDistFolder), sessions, authenticator });
  let requestLog: { debug(fields: object, message: string): void; isLevelEnabled(level: string): boolean } | undefined;
  fastify.addHook('onResponse', async (request, reply) => {
    if (!metrics || !requestLog) return;
    // The routed path (a deprecated watch path's list path) and the watch it is.
    const kind = requestKind(request.method, request.url, request.method === 'GET' && isWatchRequest(request));
    metrics.requestServed(kind, reply.statusCode, reply.elapsedTime / 1000);
    // The request line is logged at debug only: not even its fields are gathered otherwise.
    if (!requestLog.isLevelEnabled('debug')) return;
    const raw = request.raw as unknown as LoggedRequest;
    requestLog.debug(
      { requestId: raw.id, user: raw.svctrailUser, method: request.method, url: request.originalUrl, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 },
      'request completed',
    );
  });

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, clock, ids), adapter, {
    bufferLogs: true,
    bodyParser: false,
  });
  const logger = app.get<Logger>(LOGGER);
  app.useLogger(new QuietFrameworkLogger(new NestPinoLogger(logger)));
  metrics = app.get(MetricsService);
  leadership = app.get<WriteLeadership | null>(WRITE_LEADERSHIP);
  requestLog = logger.child({ context: 'http' });
  app.useGlobalFilters(new KubeStatusFilter());
  app.enableShutdownHooks();
  try {
    const headerLog = logger.child({ context: 'request-header' });
    requestHeaders = await startRequestHeaderSource(config.requestHeaderFlags, delegation.authenticationCluster, { info: (m) => headerLog.info(m), warn: (m) => headerLog.warn(m) });
    await app.listen(config.port, config.host);
  } catch (error) {
    // A start refused after the modules began (a mirror store of another cluster): what they
    // opened (the database, PostgreSQL's log follower) is closed again, not left running.
    await app.close().catch(() => undefined);
    throw error;
  }

  const address = app.getHttpServer().address() as AddressInfo;
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `https://${host}:${address.port}`;
  const kubeconfigPath = await writeAdminKubeconfig(config.dataDir, url);
  const close = async () => {
    // Released once the app (and the database with it) is closed, so a successor never overlaps
    // it. On SIGTERM the process exits after closing, and the kernel drops the lock.
    try {
      await app.close();
    } finally {
      lock.release();
    }
  };
  // --replica-url: this replica leads the writes or forwards them (store/ports/write-leadership.ts).
  if (config.replicaUrl) {
    if (config.replicaUrl === 'auto' && WILDCARD_ADDRESSES.has(address.address)) {
      await close();
      throw new Error(`--replica-url auto needs an address the other replicas can reach, and ${url} names every address: give the URL (https://POD_IP:PORT)`);
    }
    const self = config.replicaUrl === 'auto' ? url : config.replicaUrl;
    leadership?.start({ url: self, caCertificate: material.caCertPem, certificateSha256: new X509Certificate(material.servingCertPem).fingerprint256 });
  }
  return { app, url, kubeconfigPath, warnings: [...material.warnings, ...policy.warnings, ...clusterWarnings], close };
}
