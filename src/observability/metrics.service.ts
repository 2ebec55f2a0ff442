// Prometheus metrics (prom-client): requests by verb/resource/subresource/code with latency,
// events appended, commit batch sizes and COMMIT (fsync) time, open watches and their lag, and
// the database size. Names follow kube-apiserver's where one exists (apiserver_request_*).
import { Inject, Injectable } from '@nestjs/common';
import { statSync } from 'node:fs';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AppConfig, APP_CONFIG } from '../config/app-config';
import type { CommitObserver } from '../store/ports/commit-observer';
import type { CheckpointFailureStage, CheckpointObserver } from '../store/wal-checkpointer';
import type { RequestKind } from './request-kind';

@Injectable()
export class MetricsService implements CommitObserver, CheckpointObserver {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'apiserver_request_total',
    help: 'Requests by verb, resource, subresource and HTTP code.',
    labelNames: ['verb', 'resource', 'subresource', 'code'] as const,
    registers: [this.registry],
  });
  readonly requestDuration = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Request latency by verb, resource and subresource (watches: until the stream ends).',
    labelNames: ['verb', 'resource', 'subresource'] as const,
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60],
    registers: [this.registry],
  });
  readonly eventsAppended = new Counter({
    name: 'svctrail_events_appended_total',
    help: 'Domain events appended to the log, by type.',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  readonly commitBatchSize = new Histogram({
    name: 'svctrail_commit_batch_size',
    help: 'Writes that shared one group commit.',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [this.registry],
  });
  readonly commitDuration = new Histogram({
    name: 'svctrail_commit_duration_seconds',
    help: 'Time spent in COMMIT (the fsync of a durable group commit).',
    buckets: [0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
    registers: [this.registry],
  });
  readonly appendLockHold = new Histogram({
    name: 'svctrail_postgres_append_lock_hold_seconds',
    help: 'PostgreSQL: how long each append statement held the append lock (on the server, COMMIT aside).',
    buckets: [0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  });
  private longestAppendLockHold = 0;
  readonly appendLockHoldMax: Gauge = new Gauge({
    name: 'svctrail_postgres_append_lock_hold_max_seconds',
    help: 'PostgreSQL: the longest any append statement of this replica held the append lock, since it started.',
    registers: [this.registry],
    collect: (): void => this.appendLockHoldMax.set(this.longestAppendLockHold),
  });
  readonly writesForwarded = new Counter({
    name: 'svctrail_writes_forwarded_total',
    help: 'Writes this replica sent to the write leader (PostgreSQL), by outcome: answered (relayed), not_sent (leader unreachable) and not_run (not the leader any more), both then written here, or lost (may or may not be stored).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly checkpointFailures = new Counter({
    name: 'svctrail_wal_checkpoint_failures_total',
    help: 'WAL checkpoints that failed (stage=checkpoint) or checkpoint worker threads that died (stage=worker); each restarts the worker.',
    labelNames: ['stage'] as const,
    registers: [this.registry],
  });
  /** Set by the watch registry: how many streams are open and how far the slowest lags. */
  watchStats: () => { open: number; maxLag: number } = () => ({ open: 0, maxLag: 0 });
  readonly openWatches: Gauge = new Gauge({
    name: 'svctrail_watches_open',
    help: 'Watch streams currently open.',
    registers: [this.registry],
    collect: (): void => this.openWatches.set(this.watchStats().open),
  });
  readonly watchLag: Gauge = new Gauge({
    name: 'svctrail_watch_lag_resource_versions',
    help: 'The largest distance between the log head and a watcher’s last delivered resourceVersion.',
    registers: [this.registry],
    collect: (): void => this.watchLag.set(this.watchStats().maxLag),
  });
  /** Set by the backlog budget: what all watch and feed streams hold unsent, and how many it closed. */
  backlogStats: () => { bytes: number; evictions: number } = () => ({ bytes: 0, evictions: 0 });
  readonly streamBacklog: Gauge = new Gauge({
    name: 'svctrail_stream_backlog_bytes',
    help: 'Bytes buffered for all watch and feed streams (an upper bound), against the shared budget.',
    registers: [this.registry],
    collect: (): void => this.streamBacklog.set(this.backlogStats().bytes),
  });
  readonly streamEvictions: Gauge = new Gauge({
    name: 'svctrail_stream_budget_evictions',
    help: 'Watch and feed streams closed because all backlogs together passed the budget (since start).',
    registers: [this.registry],
    collect: (): void => this.streamEvictions.set(this.backlogStats().evictions),
  });
  readonly databaseBytes: Gauge = new Gauge({
    name: 'svctrail_database_bytes',
    help: 'Size of the SQLite database and its WAL on disk.',
    registers: [this.registry],
    collect: (): void => {
      let bytes = 0;
      for (const suffix of ['', '-wal']) {
        try {
          bytes += statSync(this.config.databasePath + suffix).size;
        } catch {
          // A missing WAL simply adds nothing.
        }
      }
      this.databaseBytes.set(bytes);
    },
  });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    collectDefaultMetrics({ register: this.registry });
    // Exported as 0 from the start, so an alert on any increase has a series to watch.
    for (const stage of ['checkpoint', 'worker'] as const) this.checkpointFailures.inc({ stage }, 0);
  }

  /** Each request series' counter and histogram, looked up once: prom-client checks the label names of every call with labels. */
  private readonly requestSeries = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<'verb' | 'resource' | 'subresource'> }>();

  /** One answered request: counted by kind and code, its latency observed by kind. */
  requestServed(kind: RequestKind, code: number, seconds: number): void {
    const key = `${kind.verb} ${kind.resource} ${kind.subresource} ${code}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      series = { count: this.requests.labels({ ...kind, code: String(code) }), duration: this.requestDuration.labels({ ...kind }) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
  }

  committed(batchSize: number, commitSeconds: number): void {
    this.commitBatchSize.observe(batchSize);
    this.commitDuration.observe(commitSeconds);
  }

  appendLockHeld(seconds: number): void {
    this.appendLockHold.observe(seconds);
    if (seconds > this.longestAppendLockHold) this.longestAppendLockHold = seconds;
  }

  checkpointFailed(stage: CheckpointFailureStage): void {
    this.checkpointFailures.inc({ stage });
  }
}
