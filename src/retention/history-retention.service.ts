// `--history-retention DURATION`: the server compacts its own history, every tenth of the
// duration (at least hourly), up to the newest write older than the duration. Each compaction is
// the one `svctrail compact` runs (short transactions; on SQLite inside the group commit), so
// writes keep flowing; with several PostgreSQL replicas each may try, and all but the first find
// the history already compacted.
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { HISTORY_COMPACTOR } from '../store/ports/history-compaction';
import type { HistoryCompactor } from '../store/ports/history-compaction';
import { retentionPeriodMs } from './retention-duration';

/** The actor compactions by retention are recorded under. */
export const RETENTION_ACTOR = 'system:svctrail:history-retention';

/** DI token of the retention duration in milliseconds. */
export const RETENTION_MS = Symbol('RETENTION_MS');

@Injectable()
export class HistoryRetentionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('HistoryRetention');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(RETENTION_MS) private readonly retentionMs: number,
    @Inject(HISTORY_COMPACTOR) private readonly compactor: HistoryCompactor,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.compact().finally(() => this.schedule());
    }, retentionPeriodMs(this.retentionMs));
    this.timer.unref();
  }

  /** One round: compacts up to the newest write older than the retention. Never throws. */
  private async compact(): Promise<void> {
    const time = new Date(this.clock.now().getTime() - this.retentionMs).toISOString();
    try {
      const outcome = await this.compactor.compact({ point: { kind: 'time', time }, actor: RETENTION_ACTOR });
      if (outcome.kind === 'compacted') {
        const { horizon, removed } = outcome.compaction;
        this.logger.log(`compacted the history to resourceVersion ${horizon.resourceVersion} (${horizon.time}): ${removed.objects} objects, ${removed.bytes} bytes`);
      }
    } catch (error) {
      this.logger.warn(`history compaction failed, retried in the next round: ${(error as Error).message}`);
    }
  }
}
