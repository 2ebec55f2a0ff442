// Runs one suite body on each storage engine: SQLite in the data directory (as every suite always
// did) and PostgreSQL in a database of the suite's own (describePostgres: skipped locally with a
// printed reason when it is unreachable, failing under CI). The body starts its server with
// `backend.start()`, which passes the engine's `storage` setting.
import { STORE_ENGINE } from '../../src/store/store-engine';
import type { StoreEngine } from '../../src/store/store-engine';
import { describePostgres } from './postgres';
import { startTestServer, type TestServer } from './test-server';

type StartOptions = Parameters<typeof startTestServer>[0];

export interface StorageBackend {
  readonly engine: 'sqlite' | 'postgres';
  /** startTestServer on this engine. */
  start(options?: StartOptions): Promise<TestServer>;
}

export function describeEachBackend(title: string, body: (backend: StorageBackend) => void): void {
  describe(`${title} [sqlite]`, () =>
    body({
      engine: 'sqlite',
      start: (options = {}) => startTestServer(options),
    }));
  describePostgres(`${title} [postgres]`, (database) =>
    body({
      engine: 'postgres',
      start: async (options = {}) => {
        const server = await startTestServer({ ...options, config: { ...(options.config ?? {}), storageUrl: database().url } });
        // A suite that believes it runs on PostgreSQL must not pass on SQLite.
        const kind = server.server.app.get<StoreEngine>(STORE_ENGINE).kind;
        if (kind !== 'postgres') {
          await server.stop();
          throw new Error(`the server runs on ${kind}, not PostgreSQL`);
        }
        return server;
      },
    }),
  );
}
