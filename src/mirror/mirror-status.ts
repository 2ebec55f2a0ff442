// What the mirror is doing, for /readyz and /metrics: whether this replica holds the lease and
// records, and the status of each of its reflectors (the Services' and the Events about Services').
//
// Readiness follows the Services' reflector only. The Events' is reported (its metrics, its log
// lines) but does not make the mirror unready: Events are best-effort in Kubernetes itself
// (recorders drop them on any error, the source forgets them after its TTL), and a source that
// denies `list events` or loses its Events watch must not take the Services' history out of
// service.
import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { MetricsService } from '../observability/metrics.service';
import { ReflectorMetrics, ReflectorStatus } from './reflector-status';

@Injectable()
export class MirrorStatus {
  /** Undefined until the first try for the lease is decided: neither recording nor a standby yet. */
  private leadingNow: boolean | undefined;
  private readonly leaderGauge: Gauge;
  readonly services: ReflectorStatus;
  readonly events: ReflectorStatus;

  constructor(metrics: MetricsService) {
    const reflectors = new ReflectorMetrics(metrics.registry);
    this.services = new ReflectorStatus('services', reflectors);
    this.events = new ReflectorStatus('events', reflectors);
    this.leaderGauge = new Gauge({
      name: 'svctrail_mirror_leader',
      help: '1 while this replica holds the lease and records the source; 0 while another replica does.',
      registers: [metrics.registry],
    });
    this.leaderGauge.set(0);
  }

  get leading(): boolean {
    return this.leadingNow === true;
  }

  /**
   * Ready to serve: the Services are in sync, or this is a standby replica (another one records
   * into the shared store; its own readiness says whether that is in sync). Not before the first
   * try for the lease: a lone replica would otherwise say ready before recording anything.
   */
  get ready(): boolean {
    return this.services.synced || this.leadingNow === false;
  }

  /** Why the mirror is not ready (empty while it is). */
  get notReadyReason(): string {
    return this.ready ? '' : this.services.notSyncedReason;
  }

  /** This replica holds the lease (true) or lost it / waits for it (false). */
  lead(leading: boolean): void {
    if (this.leadingNow === leading) return;
    this.leadingNow = leading;
    this.leaderGauge.set(leading ? 1 : 0);
    if (leading) return;
    this.services.outOfSync('another replica records the source');
    this.events.outOfSync('another replica records the source');
  }
}
