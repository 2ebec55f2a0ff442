// svctrail's fixed HTTP stack for the bench's floors: NestJS on Fastify with the same HTTPS
// options and svctrail's own authentication and authorization hooks (loaded from dist/).
// framework-floor.ts puts its controllers on it (nestStackApp); the floor server runs behind it
// with `--stack nest` (serveOnNestStack: one route hands every raw request to its handler;
// "framework-floor-full" with `--variant storage`): the same storage work as floor-full plus the
// stack svctrail may not leave, so what svctrail does beyond it is svctrail's own code.
import 'reflect-metadata';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { All, Controller, Module, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROOT } from './real';

function load<T>(relative: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the server's compiled dist/, loaded by path at run time
  return require(join(ROOT, 'dist', relative)) as T;
}

/**
 * A Nest application of `module` on svctrail's fixed stack: Fastify with the same HTTPS options
 * and svctrail's own authentication and authorization hooks, loaded from dist/. Not listening yet.
 */
export async function nestStackApp(dataDir: string, module: object, configure: (fastify: FastifyInstance) => void = () => {}): Promise<NestFastifyApplication> {
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
  const adapter = new FastifyAdapter({
    https: { ...httpsServerOptions(material), headersTimeout: 20_000, connectionsCheckingInterval: 2_000 },
    requestTimeout: 60_000,
    return503OnClosing: false,
  });
  const fastify = adapter.getInstance();
  fastify.addHook(
    'onRequest',
    authenticationHook(() => tokens, randomIds),
  );
  fastify.addHook(
    'onRequest',
    authorizationHook(() => policy),
  );
  configure(fastify);
  return NestFactory.create<NestFastifyApplication>(module, adapter, { logger: false, bodyParser: false });
}

/** `handle` behind the fixed stack: one controller route takes every request and hands over the raw request and response. */
export async function serveOnNestStack(
  dataDir: string,
  port: number,
  host: string,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  // Decorators applied as functions: bench/ is transpiled without decorator syntax.
  class RawController {
    all(req: FastifyRequest, reply: FastifyReply): void {
      reply.hijack();
      handle(req.raw, reply.raw);
    }
  }
  Req()(RawController.prototype, 'all', 0);
  Res()(RawController.prototype, 'all', 1);
  All('*')(RawController.prototype, 'all', Object.getOwnPropertyDescriptor(RawController.prototype, 'all')!);
  Reflect.defineMetadata('design:paramtypes', [Object, Object], RawController.prototype, 'all');
  Controller()(RawController);
  class RawModule {}
  Module({ controllers: [RawController] })(RawModule);

  const app = await nestStackApp(dataDir, RawModule, (fastify) => {
    // The handler reads the body itself, as the plain floor does: no parser consumes it first.
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser('*', (_req: unknown, _payload: unknown, done: (err: null) => void) => done(null));
  });
  await app.listen(port, host);
  const address = app.getHttpServer().address() as AddressInfo;
  return { port: address.port, close: () => app.close() };
}
