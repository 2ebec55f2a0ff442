// Whether an error means the storage engine could not be reached (a database server down,
// restarting or unreachable), as opposed to a fault in a request. kube-apiserver answers an
// unreachable etcd with a ServerTimeout Status that clients retry after its Retry-After; a
// PostgreSQL outage is the same situation. (SQLite in the data directory is never unreachable.)

/** Socket errors of the connection (node-postgres passes them through). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATEs of a server going away (admin_shutdown, crash_shutdown, cannot_connect_now) or not
 * the primary (read_only_sql_transaction: a standby, a fenced old primary, mid-failover).
 */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03', '25006']);
/** node-postgres's own words for a lost or never-made connection. */
const CONNECTION_LOST = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed/i;

export function isStoreUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SHUTDOWN_STATES.has(code) || code.startsWith('08'))) return true;
  if (CONNECTION_LOST.test(error.message)) return true;
  // AggregateError (a host with several addresses, all refused) and wrapped causes.
  if (error instanceof AggregateError) return error.errors.some(isStoreUnreachable);
  return error.cause !== undefined && error.cause !== error && isStoreUnreachable(error.cause);
}
