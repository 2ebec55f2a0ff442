// Opens the PostgreSQL store: a node-postgres pool, and the drizzle-kit migrations of
// migrations/postgres applied before anything else runs. Several replicas may start at once on
// one database: they take turns at migrating under a session advisory lock, so each applies only
// what the previous one left unapplied.
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { join } from 'node:path';
import { type Client, type ClientConfig, Pool, type PoolClient, types } from 'pg';
import { PROJECT_ROOT } from '../../shared/project-root';
import { writableClientClass } from './pg-writable-client';
import { parsePostgresUrl } from '../postgres-url';
import { PrimaryLocator } from './primary-locator';
import * as schema from './schema';

export type PgDrizzle = NodePgDatabase<typeof schema>;

/** Anything that runs a query: the pool (each query on any connection) or one client (a transaction). */
export type Queryable = Pick<PoolClient, 'query'>;

export interface PostgresHandle {
  /** Reads of the live objects (GET, LIST, watch catch-up) and everything not below. */
  readonly pool: Pool;
  /** The write path: its snapshot reads and the append statement, under tight timeouts (see SESSION_LIMITS). */
  readonly writePool: Pool;
  /** History reads and their snapshots: slow ones wait here, never for a writer's connection. */
  readonly historyPool: Pool;
  readonly db: PgDrizzle;
  /** Which server accepts writes (several hosts in the URL, or one address whose server changes). */
  readonly locator: PrimaryLocator;
  /** A connection of its own (LISTEN, a session lock) to the server the pools use. */
  newClient(config?: Omit<ClientConfig, 'connectionString'>): Client;
  close(): Promise<void>;
}

export interface OpenPostgresOptions {
  /** migrations/postgres of the project unless given. */
  migrationsFolder?: string;
  /** Connections in the pool (node-postgres' default is 10). */
  max?: number;
  /**
   * How long getting a connection may take (a new one, or a busy pool's next free one) before the
   * read or write fails (ms). node-postgres waits for ever by default: an unreachable server
   * would hang every request, readiness checks included.
   */
  connectionTimeoutMillis?: number;
  /**
   * Every session read-only and no migrations applied: for the CLI's read commands, which must
   * leave the store as they found it (as SQLite's are opened read-only, unmigrated). The store
   * must already exist.
   */
  readOnly?: boolean;
}

const CONNECTION_TIMEOUT_MS = 10_000;
/** One batch at a time: its snapshot read, its allocation reads, its append statement. */
const WRITE_POOL_MAX = 3;
/** History reads are few and slow: a handful of connections, never the readers' or the writers'. */
const HISTORY_POOL_MAX = 4;

export const POSTGRES_MIGRATIONS_FOLDER = join(PROJECT_ROOT, 'migrations', 'postgres');

/** Key of the session advisory lock migrations are applied under (a constant of svctrail's own). */
const MIGRATION_LOCK = '8319395769341829220';

const INT8_OID = 20;

/**
 * bigint columns (positions, versions, ids) as JS numbers, for this pool only (node-postgres
 * returns them as strings by default, and its global parsers are shared with every other user).
 */
const poolTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
};

/** The URL without its password, for messages (a password must never reach a log). */
export function redactedUrl(url: string): string {
  try {
    // Several hosts (h1:p1,h2:p2) are no WHATWG URL: the mask below handles them.
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL the parser takes: still mask whatever follows user: up to the @.
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/**
 * Session settings that bound what a stuck peer can cost. On every connection: TCP keepalives
 * both ways (a replica or a server that vanished without closing its socket is noticed in
 * seconds, not the hours of the kernel's default), and an open transaction left idle is ended
 * (a frozen process cannot keep locks or an old snapshot). On the writers' connections besides:
 * a wait for a lock, and a statement, are bounded (the append statement holds the append lock;
 * whatever keeps it longer than this is refused, and its write answered as not stored).
 */
const SESSION_LIMITS = {
  keepAliveIdleSeconds: 5,
  idleInTransactionMs: 10_000,
  writerLockTimeoutMs: 5_000,
  writerStatementTimeoutMs: 10_000,
  writerIdleInTransactionMs: 5_000,
};

function sessionOptions(settings: Record<string, string | number>): string {
  return Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
}

interface Server {
  clientUrl: string;
  Client: typeof Client;
}

function openPool(server: Server, role: string, options: OpenPostgresOptions, settings: Record<string, string | number>, max?: number): Pool {
  const pool = new Pool({
    connectionString: server.clientUrl,
    Client: server.Client,
    // pg_stat_activity names each pool's sessions (an operator finds the writers at once).
    application_name: `svctrail-${role}`,
    max,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? CONNECTION_TIMEOUT_MS,
    types: poolTypes,
    keepAlive: true,
    keepAliveInitialDelayMillis: SESSION_LIMITS.keepAliveIdleSeconds * 1000,
    options: sessionOptions({
      tcp_keepalives_idle: SESSION_LIMITS.keepAliveIdleSeconds,
      tcp_keepalives_interval: 2,
      tcp_keepalives_count: 3,
      idle_in_transaction_session_timeout: SESSION_LIMITS.idleInTransactionMs,
      ...(options.readOnly ? { default_transaction_read_only: 'on' } : {}),
      ...settings,
    }),
  });
  // An idle connection the server dropped (a restart) is reported here, not as an uncaught error.
  pool.on('error', () => undefined);
  return pool;
}

export async function openPostgres(url: string, options: OpenPostgresOptions = {}): Promise<PostgresHandle> {
  const parsed = parsePostgresUrl(url);
  // The server writes, so it needs a server that accepts writes whatever the URL asks; a read-only command takes what the URL asks.
  const locator = new PrimaryLocator(parsed.hosts, parsed.clientUrl, { anyServer: options.readOnly && parsed.target === 'any' });
  const server: Server = { clientUrl: parsed.clientUrl, Client: writableClientClass(locator, options.readOnly) };
  const pool = openPool(server, 'reader', options, {}, options.max);
  try {
    if (!options.readOnly) await migrateOnce(pool, options.migrationsFolder ?? POSTGRES_MIGRATIONS_FOLDER);
  } catch (error) {
    await pool.end();
    throw error;
  }
  // One batch at a time per replica: its snapshot read, allocation reads and append statement.
  const writePool = openPool(
    server,
    'writer',
    options,
    {
      lock_timeout: SESSION_LIMITS.writerLockTimeoutMs,
      statement_timeout: SESSION_LIMITS.writerStatementTimeoutMs,
      idle_in_transaction_session_timeout: SESSION_LIMITS.writerIdleInTransactionMs,
    },
    WRITE_POOL_MAX,
  );
  const historyPool = openPool(server, 'history', options, {}, HISTORY_POOL_MAX);
  const db = drizzle(pool, { schema });
  return {
    pool,
    writePool,
    historyPool,
    db,
    locator,
    newClient: (config = {}) => new server.Client({ ...config, connectionString: server.clientUrl, types: poolTypes }),
    close: () => Promise.all([pool.end(), writePool.end(), historyPool.end()]).then(() => undefined),
  };
}

/**
 * A connection of the pool for the caller's exclusive use. node-postgres emits an 'error' event
 * when a checked-out connection dies while no query of it runs (between two awaits of a
 * transaction), and an unheard 'error' event ends the process: it is heard here, and the next
 * query on the connection fails on its own. `release` hands the connection back, or destroys it
 * when it is broken (given an error) or died meanwhile.
 */
export async function checkout(pool: Pool): Promise<PoolClient & { releaseChecked(broken?: Error): void }> {
  const client = await pool.connect();
  let died: Error | undefined;
  const heard = (error: Error) => (died ??= error);
  client.on('error', heard);
  return Object.assign(client, {
    releaseChecked(broken?: Error) {
      client.off('error', heard);
      client.release(broken ?? died);
    },
  });
}

async function migrateOnce(pool: Pool, migrationsFolder: string): Promise<void> {
  const client = await checkout(pool);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.releaseChecked();
  }
}

/**
 * Runs `work` in one READ COMMITTED transaction on one connection: committed when it resolves,
 * rolled back when it rejects. A connection whose state is unknown after a failure is discarded.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await checkout(pool);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    }
  } finally {
    client.releaseChecked(broken);
  }
}
