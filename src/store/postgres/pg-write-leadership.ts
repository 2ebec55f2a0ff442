// The write leader on PostgreSQL (ports/write-leadership.ts): the replica holding an advisory
// lock announces itself in the one row of write_leader, written on the session that holds the
// lock (so only a holder writes it), with a token new each time it takes the lock. Every replica
// reads the row every `pollMs`, and at once after a forward failed. Whether the announced leader
// answers is the forwarding's to judge (kube-api/write-forwarding.hook.ts).
import type { OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { Clock } from '../../shared/clock';
import { whenAborted } from '../../shared/abortable-pause';
import type { HeldLease } from '../ports/mirror-lease';
import type { LeaderCandidate, WriteLeader, WriteLeadership } from '../ports/write-leadership';
import type { PgAdvisoryLease } from './pg-advisory-lease';

const ANNOUNCE = `INSERT INTO write_leader (id, url, token, ca_certificate, certificate_sha256, since) VALUES (1, $1, $2, $3, $4, $5)
  ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, token = EXCLUDED.token, ca_certificate = EXCLUDED.ca_certificate,
  certificate_sha256 = EXCLUDED.certificate_sha256, since = EXCLUDED.since`;
const ANNOUNCED = `SELECT url, token, ca_certificate AS "caCertificate", certificate_sha256 AS "certificateSha256" FROM write_leader WHERE id = 1`;

export class PgWriteLeadership implements WriteLeadership, OnApplicationShutdown {
  private readonly stopping = new AbortController();
  private self?: LeaderCandidate;
  private held?: { lease: HeldLease; token: string };
  private announced?: WriteLeader;
  private poll?: NodeJS.Timeout;
  private leading?: Promise<void>;

  constructor(
    private readonly pool: Pool,
    private readonly lease: PgAdvisoryLease,
    private readonly clock: Clock,
    private readonly pollMs = 2_000,
  ) {}

  start(self: LeaderCandidate): void {
    this.self = self;
    this.leading = this.lead(self);
    void this.refresh();
    this.poll = setInterval(() => void this.refresh(), this.pollMs);
    this.poll.unref();
  }

  heldToken(): string | undefined {
    return this.held?.token;
  }

  forwardTarget(): WriteLeader | undefined {
    const leader = this.announced;
    return this.held || !leader || leader.url === this.self?.url ? undefined : leader;
  }

  recheck(): void {
    void this.refresh();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.poll);
    await this.held?.lease.release();
    await this.leading;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Takes the lock whenever it is free, announces this replica, holds it until its session ends. */
  private async lead(self: LeaderCandidate): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      const token = randomBytes(32).toString('base64url');
      let lease: HeldLease;
      try {
        lease = await this.lease.acquire(signal, undefined, async (client) => {
          await client.query(ANNOUNCE, [self.url, token, self.caCertificate, self.certificateSha256, this.clock.now().toISOString()]);
        });
      } catch {
        return; // stopping
      }
      this.held = { lease, token };
      await Promise.race([lease.lost, whenAborted(signal)]);
      this.held = undefined;
      await lease.release();
    }
  }

  private async refresh(): Promise<void> {
    try {
      const { rows } = await this.pool.query<WriteLeader>(ANNOUNCED);
      this.announced = rows[0];
    } catch {
      // Unreachable for now: the last announcement stands; a forward that fails writes locally.
    }
  }
}
