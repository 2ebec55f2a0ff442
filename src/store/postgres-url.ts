// Engine-neutral (no driver): the configuration checks a --storage URL with it before any PostgreSQL code loads.
// A libpq connection URL, several hosts included: `postgres://u:p@h1:5432,h2:5433/db?
// target_session_attrs=read-write`. node-postgres takes one host only (its parser refuses the
// list), so the hosts are split off here and tried in turn by PrimaryLocator; what node-postgres
// is given is the same URL with the first host alone.

export interface ServerAddress {
  readonly host: string;
  readonly port: number;
}

/** What a connection must find (libpq's target_session_attrs, the values a writer can use). */
export type SessionTarget = 'read-write' | 'any';

export interface PostgresUrl {
  /** Every host of the URL, in the order given. */
  readonly hosts: readonly ServerAddress[];
  /** `target_session_attrs` as given (libpq's default: any). */
  readonly target: SessionTarget;
  /** The URL with the first host alone and without target_session_attrs: node-postgres's connectionString. */
  readonly clientUrl: string;
}

const DEFAULT_PORT = 5432;
const TARGETS: Record<string, SessionTarget> = { any: 'any', 'read-write': 'read-write', primary: 'read-write' };

/** Splits a postgres:// URL; throws a plain Error naming what is wrong (never the password). */
export function parsePostgresUrl(url: string): PostgresUrl {
  const match = /^(postgres(?:ql)?:\/\/)([^/?#]*)(.*)$/i.exec(url);
  if (!match) throw new Error('not a postgres:// URL');
  const [, scheme, authority, rest] = match;
  const at = authority.lastIndexOf('@');
  const userinfo = at === -1 ? '' : authority.slice(0, at + 1);
  const hostList = authority.slice(at + 1);
  const hosts = (hostList === '' ? ['localhost'] : hostList.split(',')).map(parseHost);
  const first = hosts[0];
  const single = new URL(`${scheme}${userinfo}${formatHost(first)}${rest}`);
  const given = single.searchParams.get('target_session_attrs') ?? 'any';
  const target = TARGETS[given];
  if (!target) throw new Error(`target_session_attrs=${given} is not one svctrail can write through (any, read-write or primary)`);
  single.searchParams.delete('target_session_attrs');
  return { hosts, target, clientUrl: single.toString() };
}

function parseHost(text: string): ServerAddress {
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(text);
  const plain = /^([^:[\]]+)(?::(\d*))?$/.exec(text);
  const found = bracketed ?? plain;
  if (!found) throw new Error(`"${text}" is not a host or host:port`);
  const port = found[2] ? Number(found[2]) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`"${text}" has no valid port`);
  return { host: decodeURIComponent(found[1]), port };
}

function formatHost({ host, port }: ServerAddress): string {
  return `${host.includes(':') ? `[${host}]` : encodeURIComponent(host)}:${port}`;
}

export function addressText({ host, port }: ServerAddress): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
