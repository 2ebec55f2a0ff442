// --event-ttl: kube-apiserver attaches an etcd lease to every write of an Event, so an Event
// leaves the live API --event-ttl after its last write and watchers see it DELETED. Here each
// write's fact records when its lease runs out (the live table's expires_at); this sweep ends
// the Events whose lease ran out, each with a KubeEventExpired fact through the ordinary write
// path, so the expiry is in the history like any write. An Event written again meanwhile has a
// new lease and is left alone (the expiry names the write it expires). With several PostgreSQL
// replicas each may sweep; all but the first find nothing left to expire (their write moved, is
// decided again on the new state and writes nothing). A sweep that fails (the database is
// unreachable; the store is a read-only point-in-time copy, whose Events stay as they were at
// its point) is logged once, then tried again after pauses that grow to MAX_PAUSE_MS, until a
// round succeeds: never a warning a second.
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { decideKubeEventExpiry } from '../domain/kube-event/kube-event.decider';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { ID_FACTORY } from '../shared/ids';
import type { IdFactory } from '../shared/ids';
import { KUBE_EVENTS } from '../store/ports/kube-events';
import type { KubeEvents } from '../store/ports/kube-events';
import { KubeEventWriteRunner } from './commands/kube-event-write-runner';

/** Who an expiry is recorded as: kube-apiserver's own identity (the lease is its doing). */
export const EXPIRY_ACTOR = 'system:apiserver';

/** Events ended per round, at most; a longer backlog goes on in the next round at once. */
const ROUND = 200;
/** The longest pause after failed rounds. */
const MAX_PAUSE_MS = 60_000;

@Injectable()
export class KubeEventExpiryService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('KubeEventExpiry');
  private readonly periodMs: number | undefined;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  /** Rounds failed in a row. */
  private failures = 0;

  constructor(
    @Inject(KUBE_EVENTS) private readonly events: KubeEvents,
    private readonly writes: KubeEventWriteRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_FACTORY) private readonly ids: IdFactory,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // A mirror's Events end when its source's do; without a TTL nothing expires.
    const ttl = config.mirror ? undefined : config.eventTtlSeconds;
    // Expired within a second or so of the lease, as etcd's lessor checks leases twice a second.
    this.periodMs = ttl === undefined ? undefined : Math.min(1000, Math.max(100, ttl * 100));
  }

  onApplicationBootstrap(): void {
    this.schedule(this.periodMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number | undefined): void {
    if (this.stopped || delayMs === undefined) return;
    this.timer = setTimeout(() => {
      this.running = this.sweep().then((full) => this.schedule(full ? 0 : this.pause()));
    }, delayMs);
    this.timer.unref();
  }

  /** One round; true when it ended as many as it may (more may be due). Never throws. */
  async sweep(): Promise<boolean> {
    try {
      const due = await this.events.expired(this.clock.now().toISOString(), ROUND);
      await Promise.all(due.map((e) => this.expire(e.namespace, e.name, e.resourceVersion)));
      if (this.failures) this.logger.log(`expiring Events works again, after ${this.failures} failed round${this.failures === 1 ? '' : 's'}`);
      this.failures = 0;
      return due.length === ROUND;
    } catch (error) {
      if (this.failures++ === 0) this.logger.warn(`expiring Events failed, retried after growing pauses (not logged again until it works): ${(error as Error).message}`);
      return false;
    }
  }

  /** Until the next round: the period, doubled for each round failed in a row. */
  private pause(): number | undefined {
    if (this.periodMs === undefined || !this.failures) return this.periodMs;
    return Math.min(MAX_PAUSE_MS, this.periodMs * 2 ** Math.min(this.failures, 16));
  }

  private expire(namespace: string, name: string, resourceVersion: number): Promise<unknown> {
    const command = { kind: 'ExpireKubeEvent', namespace, name, resourceVersion: String(resourceVersion) } as const;
    return this.writes.run(
      { namespace, name, verb: 'delete', decide: (state) => decideKubeEventExpiry(command, state) },
      { user: EXPIRY_ACTOR, groups: ['system:masters'], userAgent: 'svctrail/event-ttl', fieldManager: '', requestId: this.ids.newRequestId(), dryRun: false },
    );
  }
}
