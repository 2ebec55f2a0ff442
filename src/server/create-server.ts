// Builds and starts the HTTPS API server: data directory (CA, certificates, tokens), Nest on
// Fastify, authentication, error mapping, and the admin kubeconfig for the bound address.
import { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AddressInfo } from 'node:net';
import { AppModule } from '../app.module';
import { TokenIndex } from '../auth/token-index';
import type { AppConfig } from '../config/app-config';
import { authenticationHook } from '../kube-api/authentication.hook';
import { MAX_BODY_BYTES } from '../kube-api/body-limits';
import { registerContentTypeParsers } from '../kube-api/content-type-parsers';
import { KubeStatusFilter } from '../kube-api/kube-status.filter';
import { Clock, systemClock } from '../shared/clock';
import { IdFactory, randomIds } from '../shared/ids';
import { ensureDataDir, writeAdminKubeconfig } from '../tls/data-dir';
import { httpsServerOptions } from '../tls/https-options';

export interface ServerOptions {
  clock?: Clock;
  ids?: IdFactory;
  logLevels?: LogLevel[];
}

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
  const material = await ensureDataDir({ dataDir: config.dataDir, now: () => clock.now() });
  const tokens = TokenIndex.fromRecords(material.tokens);

  // Requests already accepted when SIGTERM arrives are served to the end, not answered 503.
  const adapter = new FastifyAdapter({ https: httpsServerOptions(material), bodyLimit: MAX_BODY_BYTES, return503OnClosing: false });
  const fastify = adapter.getInstance();
  registerContentTypeParsers(fastify);
  fastify.addHook('onRequest', authenticationHook(() => tokens, ids));

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, clock, ids), adapter, {
    logger: options.logLevels ?? ['error', 'warn'],
    bodyParser: false,
  });
  app.useGlobalFilters(new KubeStatusFilter());
  app.enableShutdownHooks();
  await app.listen(config.port, config.host);

  const address = app.getHttpServer().address() as AddressInfo;
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `https://${host}:${address.port}`;
  const kubeconfigPath = await writeAdminKubeconfig(config.dataDir, url);
  return { app, url, kubeconfigPath, warnings: material.warnings, close: () => app.close() };
}
