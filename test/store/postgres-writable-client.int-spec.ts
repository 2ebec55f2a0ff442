// A connection of the PostgreSQL store whose backend is ended while nobody waits on it (a
// pg_terminate_backend, an administrator's or a failover's, between two queries or right after it
// connected, before the pool listens): node-postgres reports it as an 'error' event on the client,
// and an 'error' event nobody hears ends the process. A replica killed that way in the
// linearizability run (its log: "Emitted 'error' event on WritableClient instance", FATAL 57P01).
import { openPostgres, type PostgresHandle } from '../../src/store/postgres/postgres-database';
import { describePostgres } from '../helpers/postgres';

describePostgres('the PostgreSQL store’s connections when their backend is terminated', (database) => {
  let handle: PostgresHandle;
  beforeAll(async () => {
    handle = await openPostgres(database().url);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('given a connection with no listener of its own, when its backend is terminated between queries, then it ends and the process goes on', async () => {
    const client = handle.newClient();
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    await handle.pool.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    // Without a listener of the store's own, jest reports the unheard 'error' event here instead.
    await ended;
    await expect(client.query('SELECT 1')).rejects.toThrow();
    // The store's pool goes on.
    expect((await handle.pool.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1);
  });
});
