// Server-side sessions for the browser UI. The cookie carries a random id; only its SHA-256 is
// kept, so a memory dump or a log of this map cannot be replayed as a cookie. Held in memory, not
// in SQLite: a session is a short-lived credential, not history, and a restart signing browsers
// out is the safe default (nothing to migrate, nothing for replay or export to carry).
import { createHash, randomBytes } from 'node:crypto';
import type { UserInfo } from '../auth/user-info';
import type { Clock } from '../shared/clock';

export interface SessionLimits {
  /** A session unused this long is gone. */
  idleMs: number;
  /** A session is gone this long after sign-in, used or not. */
  absoluteMs: number;
}

interface Session {
  user: UserInfo;
  createdAt: number;
  lastSeenAt: number;
}

/** Past this many live sessions the oldest-used are dropped first, so sign-ins cannot fill memory. */
const MAX_SESSIONS = 10_000;

export class BrowserSessions {
  private readonly byHash = new Map<string, Session>();

  constructor(
    private readonly clock: Clock,
    readonly limits: SessionLimits,
    private readonly newSecret: () => Buffer = () => randomBytes(32),
  ) {}

  /** Signs `user` in; returns the cookie value (the only place the id ever exists). */
  create(user: UserInfo): string {
    const id = this.newSecret().toString('base64url');
    const now = this.clock.now().getTime();
    this.sweep(now);
    if (this.byHash.size >= MAX_SESSIONS) this.byHash.delete(this.byHash.keys().next().value!);
    this.byHash.set(hashOf(id), { user, createdAt: now, lastSeenAt: now });
    return id;
  }

  /** The session's user, refreshing its idle timer; null when unknown or expired. */
  touch(id: string): UserInfo | null {
    const key = hashOf(id);
    const session = this.byHash.get(key);
    if (!session) return null;
    const now = this.clock.now().getTime();
    if (this.expired(session, now)) {
      this.byHash.delete(key);
      return null;
    }
    session.lastSeenAt = now;
    // Re-insert so Map order is least-recently-used first (for the MAX_SESSIONS bound).
    this.byHash.delete(key);
    this.byHash.set(key, session);
    return session.user;
  }

  delete(id: string): void {
    this.byHash.delete(hashOf(id));
  }

  /** Seconds until the session's absolute expiry, for the cookie's Max-Age. */
  maxAgeSeconds(): number {
    return Math.floor(this.limits.absoluteMs / 1000);
  }

  /** The stored keys (hashes), for tests that check no raw id is kept. */
  storedKeys(): string[] {
    return [...this.byHash.keys()];
  }

  private expired(session: Session, now: number): boolean {
    return now - session.lastSeenAt >= this.limits.idleMs || now - session.createdAt >= this.limits.absoluteMs;
  }

  private sweep(now: number): void {
    for (const [key, session] of this.byHash) if (this.expired(session, now)) this.byHash.delete(key);
  }
}

export function hashOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}
