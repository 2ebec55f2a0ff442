// Mirror mode with several replicas on one store: exactly one of them records at a time. The
// lease is the store's: on PostgreSQL a session advisory lock (released by PostgreSQL the moment
// the holder's connection ends, so a replica that dies hands over at once); on SQLite the data
// directory's lock already makes this server the only one, so the lease is held from the start.
export interface HeldLease {
  /** Resolves when the lease is lost (its connection broke): recording must stop. */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

export interface MirrorLease {
  /**
   * Resolves once this replica holds the lease; rejects when `signal` aborts first. `onWaiting`
   * is called after each try that did not get it (another replica holds it, or the store could
   * not be reached): until then, whether this replica records or stands by is not known yet.
   */
  acquire(signal: AbortSignal, onWaiting?: () => void): Promise<HeldLease>;
}

/** The embedded engine: one server per data directory, so it always holds the lease. */
export const soleReplicaLease: MirrorLease = {
  acquire: () => Promise.resolve({ lost: new Promise<void>(() => undefined), release: () => Promise.resolve() }),
};

/** DI token of the engine's MirrorLease. */
export const MIRROR_LEASE = Symbol('MIRROR_LEASE');
