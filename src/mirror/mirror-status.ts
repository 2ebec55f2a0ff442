// What the mirror's reflector is doing, for /readyz and /metrics: whether the store is in sync
// with the source (a complete list recorded and a watch open), how far behind recording runs,
// and how often the source made it relist.
import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { ObservedVia } from '../domain/mirror/observed-change';
import { MetricsService } from '../observability/metrics.service';

@Injectable()
export class MirrorStatus {
  private syncedNow = false;
  private leadingNow = false;
  private readonly leaderGauge: Gauge;
  private reason = 'the first list of the source has not been recorded yet';
  private readonly syncedGauge: Gauge;
  private readonly relists: Counter;
  private readonly recorded: Counter<'via'>;
  private readonly lag: Histogram;
  private readonly lastObserved: Gauge;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.syncedGauge = new Gauge({ name: 'svctrail_mirror_synced', help: '1 while the mirror has recorded a complete list of the source and its watch is open.', registers });
    this.relists = new Counter({ name: 'svctrail_mirror_relists_total', help: 'Relists: the source no longer held the changes since the stored resume point (410 Expired).', registers });
    this.recorded = new Counter({ name: 'svctrail_mirror_recorded_writes_total', help: 'Observed changes recorded as writes, by how they were found.', labelNames: ['via'] as const, registers });
    this.lag = new Histogram({
      name: 'svctrail_mirror_record_lag_seconds',
      help: 'From receiving an observed change to its write being durable in the store.',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.lastObserved = new Gauge({
      name: 'svctrail_mirror_last_observation_timestamp_seconds',
      help: 'When the source last sent anything on the watch (an event or a bookmark), as a Unix time.',
      registers,
    });
    this.leaderGauge = new Gauge({ name: 'svctrail_mirror_leader', help: '1 while this replica holds the lease and records the source; 0 while another replica does.', registers });
    this.syncedGauge.set(0);
    this.leaderGauge.set(0);
    this.relists.inc(0);
    for (const via of ['watch', 'list', 'relist'] as const) this.recorded.inc({ via }, 0);
  }

  get synced(): boolean {
    return this.syncedNow;
  }

  get leading(): boolean {
    return this.leadingNow;
  }

  /**
   * Ready to serve: in sync, or a standby replica (another one records into the shared store;
   * its own readiness says whether that is in sync).
   */
  get ready(): boolean {
    return this.syncedNow || !this.leadingNow;
  }

  /** Why the mirror is not ready (empty while it is). */
  get notReadyReason(): string {
    return this.ready ? '' : this.reason;
  }

  /** This replica holds the lease (true) or lost it / waits for it (false). */
  lead(leading: boolean): void {
    this.leadingNow = leading;
    this.leaderGauge.set(leading ? 1 : 0);
    if (!leading) this.outOfSync('another replica records the source');
  }

  inSync(): void {
    this.syncedNow = true;
    this.syncedGauge.set(1);
  }

  outOfSync(reason: string): void {
    this.syncedNow = false;
    this.reason = reason;
    this.syncedGauge.set(0);
  }

  relisted(): void {
    this.relists.inc();
  }

  observed(at: Date): void {
    this.lastObserved.set(at.getTime() / 1000);
  }

  recordedWrites(via: ObservedVia, count: number, lagSeconds: number): void {
    if (count) this.recorded.inc({ via }, count);
    this.lag.observe(lagSeconds);
  }
}
