// Several replicas on PostgreSQL: one of them (the write leader) appends for all, and the others
// forward their writes to it, so a load spread over replicas is still batched as one replica's
// (one group commit, one set of round trips per batch) instead of each replica paying its own.
// Correctness never rests on it: every replica can append (PostgreSQL's append lock orders them),
// so a replica that knows no reachable leader writes itself, as before.

/** What the leader announces, and what a follower needs to reach and to trust it. */
export interface WriteLeader {
  url: string;
  /** Carried by each forwarded write; the leader takes a forwarded identity only with it. */
  token: string;
  /** The CA the leader's serving certificate chains to, and that certificate's fingerprint (pinned). */
  caCertificate: string;
  certificateSha256: string;
}

/** How this replica is reached by the others: its URL and serving certificate. */
export type LeaderCandidate = Omit<WriteLeader, 'token'>;

export interface WriteLeadership {
  /** Takes part once the server listens at `self`: leads when it holds the lease, else follows the leader. */
  start(self: LeaderCandidate): void;
  /** The token forwarded writes carry while this replica leads; undefined otherwise. */
  heldToken(): string | undefined;
  /** The leader this replica's writes go to; undefined: it writes them itself (it leads, or none is known). */
  forwardTarget(): WriteLeader | undefined;
  /** A forward found the leader unreachable or no longer leading: look at the announcement again now. */
  recheck(): void;
  stop(): Promise<void>;
}

/** DI token of the engine's WriteLeadership (PostgreSQL only; a SQLite server is alone). */
export const WRITE_LEADERSHIP = Symbol('WRITE_LEADERSHIP');
