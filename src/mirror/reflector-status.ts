// What one reflector (the Services' or the Events') is doing, for /readyz and /metrics: whether it
// is in sync with the source (a complete list recorded and a watch open), how far behind
// recording runs, and how often the source made it relist. Its metrics carry the watched
// resource as a label.
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { ObservedVia } from '../domain/mirror/observed-change';
import type { MirroredResource } from '../store/ports/mirror-source-store';

/** The metrics of every reflector, labelled by resource. */
export class ReflectorMetrics {
  readonly synced: Gauge<'resource'>;
  readonly relists: Counter<'resource'>;
  readonly recorded: Counter<'resource' | 'via'>;
  readonly lag: Histogram<'resource'>;
  readonly lastObserved: Gauge<'resource'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.synced = new Gauge({
      name: 'svctrail_mirror_synced',
      help: '1 while the mirror has recorded a complete list of the resource at the source and its watch is open.',
      labelNames: ['resource'] as const,
      registers,
    });
    this.relists = new Counter({
      name: 'svctrail_mirror_relists_total',
      help: 'Relists: the source no longer held the changes since the stored resume point (410 Expired).',
      labelNames: ['resource'] as const,
      registers,
    });
    this.recorded = new Counter({
      name: 'svctrail_mirror_recorded_writes_total',
      help: 'Observed changes recorded as writes, by how they were found.',
      labelNames: ['resource', 'via'] as const,
      registers,
    });
    this.lag = new Histogram({
      name: 'svctrail_mirror_record_lag_seconds',
      help: 'From receiving an observed change to its write being durable in the store.',
      labelNames: ['resource'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.lastObserved = new Gauge({
      name: 'svctrail_mirror_last_observation_timestamp_seconds',
      help: 'When the source last sent anything on the watch (an event or a bookmark), as a Unix time.',
      labelNames: ['resource'] as const,
      registers,
    });
  }
}

export class ReflectorStatus {
  private syncedNow = false;
  private reason = 'the first list of the source has not been recorded yet';

  constructor(
    readonly resource: MirroredResource,
    private readonly metrics: ReflectorMetrics,
  ) {
    const labels = { resource };
    metrics.synced.set(labels, 0);
    metrics.relists.inc(labels, 0);
    for (const via of ['watch', 'list', 'relist'] as const) metrics.recorded.inc({ resource, via }, 0);
  }

  get synced(): boolean {
    return this.syncedNow;
  }

  /** Why it is not in sync (the last reason given). */
  get notSyncedReason(): string {
    return this.reason;
  }

  inSync(): void {
    this.syncedNow = true;
    this.metrics.synced.set({ resource: this.resource }, 1);
  }

  outOfSync(reason: string): void {
    this.syncedNow = false;
    this.reason = reason;
    this.metrics.synced.set({ resource: this.resource }, 0);
  }

  relisted(): void {
    this.metrics.relists.inc({ resource: this.resource });
  }

  observed(at: Date): void {
    this.metrics.lastObserved.set({ resource: this.resource }, at.getTime() / 1000);
  }

  recordedWrites(via: ObservedVia, count: number, lagSeconds: number): void {
    if (count) this.metrics.recorded.inc({ resource: this.resource, via }, count);
    this.metrics.lag.observe({ resource: this.resource }, lagSeconds);
  }
}
