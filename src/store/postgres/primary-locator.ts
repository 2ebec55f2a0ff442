// Which PostgreSQL server accepts writes now. A highly available PostgreSQL (CloudNativePG,
// Patroni, a managed service) fails over: the primary's address moves, or the URL lists every
// member and the standby that was promoted is another host. libpq finds the primary with
// target_session_attrs=read-write; node-postgres has no such thing, so this does what libpq does:
// try the hosts in turn and keep the first whose session is neither in recovery nor read-only.
//
// The server found is remembered, so a new connection goes straight to it; it is forgotten when
// a connection to it fails or finds it read-only, and the next connection looks again (the last
// good host first, then the URL's order). `generation` grows each time a connection is made
// after one was lost: whoever holds state read from the server before (the log follower) checks
// it against the server it now reaches.
import { Client } from 'pg';
import { addressText, type ServerAddress } from '../postgres-url';

/** A connection to a server that does not accept writes (SQLSTATE read_only_sql_transaction). */
export class ServerNotWritableError extends Error {
  readonly code = '25006';
  constructor(why: string) {
    super(why);
  }
}

/** What the server reported at startup (PostgreSQL 14+ reports both, and each change of them). */
export interface ReportedSession {
  in_hot_standby?: string;
  default_transaction_read_only?: string;
}

/** Why a session cannot write, from its reported parameters; undefined when they say it can, null when they do not say. */
export function reportedReadOnly(reported: ReportedSession): string | undefined | null {
  if (reported.in_hot_standby === undefined || reported.default_transaction_read_only === undefined) return null;
  if (reported.in_hot_standby === 'on') return 'in recovery (a standby)';
  if (reported.default_transaction_read_only === 'on') return 'read-only (default_transaction_read_only)';
  return undefined;
}

/** Asks a session whether it can write (servers before 14 do not report it): libpq's SHOW transaction_read_only, and recovery. */
export async function askedReadOnly(client: Pick<Client, 'query'>): Promise<string | undefined> {
  const { rows } = await client.query<{ recovery: boolean; ro: string }>("SELECT pg_is_in_recovery() AS recovery, current_setting('transaction_read_only') AS ro");
  if (rows[0].recovery) return 'in recovery (a standby)';
  return rows[0].ro === 'on' ? 'read-only (transaction_read_only)' : undefined;
}

export interface PrimaryLocatorOptions {
  /** How long one host may take to accept a probe connection (ms). */
  probeTimeoutMs?: number;
  /** Waits between rounds over every host while none accepts writes (ms, doubling up to max). */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** Any server that answers will do (a read-only command given target_session_attrs=any). */
  anyServer?: boolean;
}

export class PrimaryLocator {
  private known: ServerAddress | undefined;
  private searching: Promise<ServerAddress> | undefined;
  private lost = false;
  private connections = 0;
  private readonly probeTimeoutMs: number;
  private readonly retryMinMs: number;
  private readonly retryMaxMs: number;
  private readonly anyServer: boolean;

  /** `clientUrl`: node-postgres's URL for everything but the host (user, password, database, TLS). */
  constructor(
    readonly hosts: readonly ServerAddress[],
    private readonly clientUrl: string,
    options: PrimaryLocatorOptions = {},
  ) {
    this.probeTimeoutMs = options.probeTimeoutMs ?? 3_000;
    this.retryMinMs = options.retryMinMs ?? 100;
    this.retryMaxMs = options.retryMaxMs ?? 1_000;
    this.anyServer = options.anyServer ?? false;
    // One host: nothing to choose; whether it accepts writes is checked on each connection.
    if (hosts.length === 1) this.known = hosts[0];
  }

  /** Grows with each connection made after one was lost (a failover may have happened in between). */
  get generation(): number {
    return this.connections;
  }

  /** The server to connect to: the one found last, or the first of the URL's hosts that accepts writes. */
  writable(deadline = Date.now() + 10_000): Promise<ServerAddress> {
    if (this.known) return Promise.resolve(this.known);
    this.searching ??= this.search(deadline).finally(() => (this.searching = undefined));
    return this.searching;
  }

  /** A connection to `address` was made and found writable. */
  connected(address: ServerAddress): void {
    if (this.lost) {
      this.lost = false;
      this.connections++;
    }
    if (this.hosts.length > 1) this.known = address;
  }

  /** A connection to `address` failed, ended unexpectedly or found it read-only: look again next time. */
  forget(address: ServerAddress | undefined): void {
    this.lost = true;
    if (this.hosts.length > 1 && (!address || (this.known && sameAddress(this.known, address)))) this.known = undefined;
  }

  private async search(deadline: number): Promise<ServerAddress> {
    const reasons = new Map<string, string>();
    for (let wait = this.retryMinMs; ; wait = Math.min(wait * 2, this.retryMaxMs)) {
      for (const address of this.hosts) {
        const why = await this.probe(address);
        if (why === undefined) {
          this.known = address;
          return address;
        }
        reasons.set(addressText(address), why);
      }
      if (Date.now() + wait > deadline) {
        throw new ServerNotWritableError(`no PostgreSQL server accepts writes: ${[...reasons].map(([at, why]) => `${at} ${why}`).join('; ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Why `address` cannot take writes now (unreachable, in recovery, read-only), or undefined when it can. */
  private async probe(address: ServerAddress): Promise<string | undefined> {
    const client = new Client({ connectionString: this.clientUrl, connectionTimeoutMillis: this.probeTimeoutMs, application_name: 'svctrail-probe' });
    client.host = address.host;
    client.port = address.port;
    const reported: ReportedSession = {};
    client.connection.on('parameterStatus', (m: { parameterName: string; parameterValue: string }) => ((reported as Record<string, string>)[m.parameterName] = m.parameterValue));
    client.on('error', () => undefined);
    try {
      await client.connect();
      if (this.anyServer) return undefined;
      const why = reportedReadOnly(reported);
      return why === null ? await askedReadOnly(client) : why;
    } catch (error) {
      return `unreachable (${(error as Error).message})`;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

function sameAddress(a: ServerAddress, b: ServerAddress): boolean {
  return a.host === b.host && a.port === b.port;
}
