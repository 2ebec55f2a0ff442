// Joins who made each write (kube-apiserver's audit events, through the webhook) to what the
// reflector recorded, whichever arrives first. An audit event is never a source of state, only
// of who: one whose write is not recorded yet waits (an hour at most, then it is dropped and
// counted). Most audit events arrive after the watch brought their write (kube-apiserver sends
// them in batches, up to 30 s late), so the recorder only looks for waiting ones when some wait;
// and every few seconds a sweep joins what waits for a write recorded meanwhile (by this replica
// or, on PostgreSQL, by another one, which cannot know what this one keeps waiting).
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Counter } from 'prom-client';
import { auditedWriteOf, auditEventsOf } from '../domain/mirror/audited-write';
import type { AuditedWrite } from '../domain/mirror/audited-write';
import { MetricsService } from '../observability/metrics.service';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { AUDIT_ACTOR_STORE } from '../store/ports/audit-actor-store';
import type { AuditActorStore, RecordedObservation } from '../store/ports/audit-actor-store';

/** How long an audit event waits for its write. */
export const PENDING_AUDIT_TTL_MS = 60 * 60 * 1000;
/** How often waiting events are swept for writes recorded meanwhile. */
const SWEEP_MS = 5_000;

@Injectable()
export class AuditJoin implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AuditJoin');
  /** Audit events waiting for their write, as this replica last counted them. */
  private waiting = 0;
  private timer?: NodeJS.Timeout;
  private readonly events: Counter<'outcome'>;
  private readonly unmatched: Counter;

  constructor(
    @Inject(AUDIT_ACTOR_STORE) private readonly store: AuditActorStore,
    @Inject(CLOCK) private readonly clock: Clock,
    metrics: MetricsService,
  ) {
    const registers = [metrics.registry];
    this.events = new Counter({
      name: 'svctrail_mirror_audit_events_total',
      help: 'Audit events received by the webhook: joined to a recorded write, pending (its write not recorded yet), repeated or ignored (not a successful write of a Service or of an Event about a Service).',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.unmatched = new Counter({ name: 'svctrail_mirror_audit_unmatched_total', help: 'Audit events dropped after waiting an hour for a recorded write that never came.', registers });
    for (const outcome of ['joined', 'pending', 'ignored']) this.events.inc({ outcome }, 0);
    this.unmatched.inc(0);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.tidy();
    this.timer = setInterval(() => void this.tidy().catch((error: unknown) => this.logger.warn(`audit sweep failed: ${(error as Error).message}`)), SWEEP_MS);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One webhook delivery: an EventList's text or parsed body. Throws AuditBodyError for a malformed one. */
  async receive(body: unknown): Promise<void> {
    const items = auditEventsOf(body);
    const writes = items.map(auditedWriteOf).filter((w): w is AuditedWrite => w !== null);
    this.events.inc({ outcome: 'ignored' }, items.length - writes.length);
    if (writes.length) {
      const { joined, pending } = await this.store.receive(writes, this.clock.now());
      this.events.inc({ outcome: 'joined' }, joined);
      this.events.inc({ outcome: 'pending' }, pending);
      if (pending) this.waiting = await this.store.pendingCount();
    }
  }

  /** After the reflector recorded a write: the audit event waiting for it, if any, is joined. */
  async recorded(write: RecordedObservation): Promise<void> {
    if (this.waiting === 0) return;
    if (await this.store.recorded(write, this.clock.now())) {
      this.events.inc({ outcome: 'joined' });
      this.waiting = await this.store.pendingCount();
    }
  }

  /** Joins what waits for a write recorded meanwhile, drops what waited too long, counts the rest. */
  async tidy(): Promise<void> {
    // Nothing waits (the usual case): no transaction, no fsync every few seconds on an idle mirror.
    if ((await this.store.pendingCount()) === 0) {
      this.waiting = 0;
      return;
    }
    const now = this.clock.now();
    const joined = await this.store.sweep(now);
    if (joined) this.events.inc({ outcome: 'joined' }, joined);
    const dropped = await this.store.expire(new Date(now.getTime() - PENDING_AUDIT_TTL_MS));
    if (dropped) {
      this.unmatched.inc(dropped);
      this.logger.warn(`${dropped} audit events never matched a recorded write within an hour and were dropped`);
    }
    this.waiting = await this.store.pendingCount();
  }
}
