// framework-floor: the floor's GET on svctrail's fixed HTTP stack — NestJS on Fastify with the
// same HTTPS options, svctrail's own authentication and authorization hooks (loaded from
// dist/), controllers answering GET .../services/NAME with the stored JSON of one indexed
// statement, and LIST .../namespaces/NS/services (limit, continue) with the plain floor's
// statement and list text. What svctrail does beyond it for a GET or a LIST (CQRS query bus, representation negotiation,
// metrics and request logging) is svctrail's own code; what it shares with the plain floor is
// TLS and the statement. Used by framework-compare.ts.
//
// --snapshot: each LIST reads the log's head and its page in one read transaction (BEGIN
// DEFERRED … COMMIT), as a server others write to must to report a resourceVersion that matches
// its items; without it the head is read once at start (nothing writes while the bench runs).
//
// usage: node bench/dist/framework-floor.js --data-dir DIR [--port 0] [--snapshot]
import 'reflect-metadata';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { Controller, Get, Module, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { nestStackApp } from './nest-stack';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, port: { type: 'string', default: '0' }, snapshot: { type: 'boolean', default: false } } });
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error('--data-dir is required');
  const db = new Database(join(dataDir, 'svctrail.db'));
  db.pragma('journal_mode = WAL');
  const byName = db.prepare('SELECT object FROM services WHERE namespace = ? AND name = ?').pluck();
  // LIST of a namespace: the plain floor's statement, continue token and list text. Nothing writes
  // while framework-compare runs, so every page is read at the head (the plain floor reads a
  // continued page of an older snapshot from the revisions, which never happens here).
  const byNamespace = db.prepare('SELECT name, object FROM services WHERE namespace = ? AND name > ? ORDER BY namespace, name LIMIT ?');
  const headNow = db.prepare('SELECT coalesce(max(position), 0) FROM events').pluck();
  const startHead = headNow.get() as number;
  const begin = db.prepare('BEGIN DEFERRED');
  const commit = db.prepare('COMMIT');
  const rowsOf = (namespace: string, after: string, limit: number) => byNamespace.all(namespace, after, limit) as { name: string; object: string }[];
  /** The page's rows and the head they were read at. */
  const readPage = values.snapshot
    ? (namespace: string, after: string, limit: number) => {
        begin.run();
        try {
          return { head: headNow.get() as number, rows: rowsOf(namespace, after, limit) };
        } finally {
          commit.run();
        }
      }
    : (namespace: string, after: string, limit: number) => ({ head: startHead, rows: rowsOf(namespace, after, limit) });
  const ITEM_PREFIX = '{"kind":"Service","apiVersion":"v1",';
  const asItem = (json: string) => (json.startsWith(ITEM_PREFIX) ? `{${json.slice(ITEM_PREFIX.length)}` : json);
  const encodeContinue = (rv: number, start: string) => Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${start}\u0000` })).toString('base64url');
  // eslint-disable-next-line no-control-regex -- the continue token's key ends in NUL, as svctrail's does
  const decodeContinue = (token: string) => (JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { start: string }).start.replace(/\u0000$/, '');

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
  class ServiceListController {
    list(namespace: string, query: Record<string, string | undefined>, reply: FastifyReply): void {
      const limit = Number(query.limit ?? '') || -1;
      const after = query.continue ? decodeContinue(query.continue) : '';
      const { head, rows } = readPage(namespace, after, limit < 0 ? -1 : limit + 1);
      const more = limit > 0 && rows.length > limit;
      const shown = more ? rows.slice(0, limit) : rows;
      const meta = more ? `{"resourceVersion":"${head}","continue":"${encodeContinue(head, shown[shown.length - 1].name)}"}` : `{"resourceVersion":"${head}"}`;
      reply
        .code(200)
        .header('content-type', 'application/json')
        .send(`{"kind":"ServiceList","apiVersion":"v1","metadata":${meta},"items":[${shown.map((r) => asItem(r.object)).join(',')}]}`);
    }
  }
  Param('namespace')(ServiceListController.prototype, 'list', 0);
  Query()(ServiceListController.prototype, 'list', 1);
  Res()(ServiceListController.prototype, 'list', 2);
  Get('namespaces/:namespace/services')(ServiceListController.prototype, 'list', Object.getOwnPropertyDescriptor(ServiceListController.prototype, 'list')!);
  Reflect.defineMetadata('design:paramtypes', [String, Object, Object], ServiceListController.prototype, 'list');
  Controller('api/v1')(ServiceListController);

  Param('namespace')(ServiceController.prototype, 'get', 0);
  Param('name')(ServiceController.prototype, 'get', 1);
  Res()(ServiceController.prototype, 'get', 2);
  Get('namespaces/:namespace/services/:name')(ServiceController.prototype, 'get', Object.getOwnPropertyDescriptor(ServiceController.prototype, 'get')!);
  Reflect.defineMetadata('design:paramtypes', [String, String, Object], ServiceController.prototype, 'get');
  Controller('api/v1')(ServiceController);
  class FloorModule {}
  Module({ controllers: [ServiceController, ServiceListController] })(FloorModule);

  const app = await nestStackApp(dataDir, FloorModule);
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
