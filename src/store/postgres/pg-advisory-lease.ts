// A lease among replicas on PostgreSQL (the mirror's recorder, the write leader): a session
// advisory lock on a connection of its own (not the pool's: a pooled connection would carry the
// lock to whichever query ran next). Replicas that do not hold it try again every `retryMs`; when
// the holder's process dies its connection closes, PostgreSQL ends the session and the lock is
// free for the next try. TCP keepalive bounds how long a holder cut off by the network keeps it.
import type { Client, ClientConfig } from 'pg';
import type { HeldLease, MirrorLease } from '../ports/mirror-lease';
import { pause } from '../../shared/abortable-pause';

/** The advisory lock keys (constants of svctrail's own): the mirror's reflector, the write leader. */
export const MIRROR_LEASE_KEY = '8319395769340735589';
export const WRITE_LEADER_LEASE_KEY = '8319395769340735590';

export class PgAdvisoryLease implements MirrorLease {
  constructor(
    /** A connection of its own to the server that accepts writes (PostgresHandle.newClient). */
    private readonly newClient: (config: Omit<ClientConfig, 'connectionString'>) => Client,
    private readonly key = MIRROR_LEASE_KEY,
    private readonly retryMs = 2_000,
  ) {}

  /**
   * `onHeld` runs on the holding session before the lease is handed out (what the holder announces
   * there is written only while it holds the lock); when it fails, the lock is let go and tried again.
   */
  async acquire(signal: AbortSignal, onWaiting?: () => void, onHeld?: (client: Client) => Promise<void>): Promise<HeldLease> {
    for (;;) {
      if (signal.aborted) throw new Error('aborted');
      const client = this.newClient({ connectionTimeoutMillis: 10_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
      // An error after connect (the server went away) ends the lease; before, it is one failed try.
      client.on('error', () => undefined);
      try {
        await client.connect();
        const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS held', [this.key]);
        if (rows[0]?.held) {
          await onHeld?.(client);
          return held(client);
        }
      } catch {
        // Unreachable now: try again after the wait, like any replica without the lease.
      }
      await client.end().catch(() => undefined);
      onWaiting?.();
      await pause(this.retryMs, signal);
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
