// The mirror's lease on PostgreSQL: a session advisory lock on a connection of its own (not the
// pool's: a pooled connection would carry the lock to whichever query ran next). Replicas that do
// not hold it try again every `retryMs`; when the holder's process dies its connection closes,
// PostgreSQL ends the session and the lock is free for the next try. TCP keepalive bounds how
// long a holder cut off by the network keeps it.
import type { Client, ClientConfig } from 'pg';
import type { HeldLease, MirrorLease } from '../ports/mirror-lease';

/** The advisory lock key of the mirror's reflector (a constant of svctrail's own). */
export const MIRROR_LEASE_KEY = '8319395769340735589';

export class PgMirrorLease implements MirrorLease {
  constructor(
    /** A connection of its own to the server that accepts writes (PostgresHandle.newClient). */
    private readonly newClient: (config: Omit<ClientConfig, 'connectionString'>) => Client,
    private readonly retryMs = 2_000,
  ) {}

  async acquire(signal: AbortSignal, onWaiting?: () => void): Promise<HeldLease> {
    for (;;) {
      if (signal.aborted) throw new Error('aborted');
      const client = this.newClient({ connectionTimeoutMillis: 10_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
      // An error after connect (the server went away) ends the lease; before, it is one failed try.
      client.on('error', () => undefined);
      try {
        await client.connect();
        const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS held', [MIRROR_LEASE_KEY]);
        if (rows[0]?.held) return held(client);
      } catch {
        // Unreachable now: try again after the wait, like any replica without the lease.
      }
      await client.end().catch(() => undefined);
      onWaiting?.();
      await wait(this.retryMs, signal);
    }
  }
}

function held(client: Client): HeldLease {
  let released = false;
  const lost = new Promise<void>((resolve) => {
    client.on('error', () => resolve());
    client.on('end', () => resolve());
  });
  return {
    lost,
    release: async () => {
      if (released) return;
      released = true;
      await client.end().catch(() => undefined);
    },
  };
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
