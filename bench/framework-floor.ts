// framework-floor: the floor's GET on svctrail's fixed HTTP stack — NestJS on Fastify with the
// same HTTPS options, svctrail's own authentication and authorization hooks (loaded from
// dist/), one controller answering GET .../services/NAME with the stored JSON of one indexed
// statement. What svctrail does beyond it for a GET (CQRS query bus, representation negotiation,
// metrics and request logging) is svctrail's own code; what it shares with the plain floor is
// TLS and the statement. Used by framework-compare.ts.
//
// usage: node bench/dist/framework-floor.js --data-dir DIR [--port 0]
import 'reflect-metadata';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { Controller, Get, Module, Param, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { ROOT } from './real';

function load<T>(relative: string): T {
  return require(join(ROOT, 'dist', relative)) as T;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, port: { type: 'string', default: '0' } } });
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error('--data-dir is required');
  const { ensureDataDir } = load<typeof import('../src/tls/data-dir')>('tls/data-dir.js');
  const { httpsServerOptions } = load<typeof import('../src/tls/https-options')>('tls/https-options.js');
  const { TokenIndex } = load<typeof import('../src/auth/token-index')>('auth/token-index.js');
  const { loadPolicyFile, policyFilePath } = load<typeof import('../src/authz/policy-file')>('authz/policy-file.js');
  const { authenticationHook } = load<typeof import('../src/kube-api/authentication.hook')>('kube-api/authentication.hook.js');
  const { authorizationHook } = load<typeof import('../src/authz/authorization.hook')>('authz/authorization.hook.js');
  const { randomIds } = load<typeof import('../src/shared/ids')>('shared/ids.js');

  const material = await ensureDataDir({ dataDir, now: () => new Date() });
  const tokens = TokenIndex.fromRecords(material.tokens);
  const policy = await loadPolicyFile(policyFilePath(dataDir));
  const db = new Database(join(dataDir, 'svctrail.db'));
  db.pragma('journal_mode = WAL');
  const byName = db.prepare('SELECT object FROM services WHERE namespace = ? AND name = ?').pluck();

  // Decorators applied as functions: bench/ is transpiled without decorator syntax.
  class ServiceController {
    get(namespace: string, name: string, reply: FastifyReply): void {
      const json = byName.get(namespace, name) as string | undefined;
      if (json === undefined) {
        reply.code(404).header('content-type', 'application/json').send('{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}');
        return;
      }
      reply.code(200).header('content-type', 'application/json').send(json);
    }
  }
  Param('namespace')(ServiceController.prototype, 'get', 0);
  Param('name')(ServiceController.prototype, 'get', 1);
  Res()(ServiceController.prototype, 'get', 2);
  Get('namespaces/:namespace/services/:name')(ServiceController.prototype, 'get', Object.getOwnPropertyDescriptor(ServiceController.prototype, 'get')!);
  Reflect.defineMetadata('design:paramtypes', [String, String, Object], ServiceController.prototype, 'get');
  Controller('api/v1')(ServiceController);
  class FloorModule {}
  Module({ controllers: [ServiceController] })(FloorModule);

  const adapter = new FastifyAdapter({
    https: { ...httpsServerOptions(material), headersTimeout: 20_000, connectionsCheckingInterval: 2_000 },
    requestTimeout: 60_000,
    return503OnClosing: false,
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', authenticationHook(() => tokens, randomIds));
  fastify.addHook('onRequest', authorizationHook(() => policy));
  const app = await NestFactory.create<NestFastifyApplication>(FloorModule, adapter, { logger: false, bodyParser: false });
  await app.listen(Number(values.port), '127.0.0.1');
  const address = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`framework-floor serving https://127.0.0.1:${address.port}\n`);
  const stop = () => void app.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`framework-floor: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
