// The SQLite store, the projections that run inside its transactions and the change feed.
import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, APP_CONFIG } from '../config/app-config';
import { BacklogBudget } from '../feed/backlog-budget';
import { ChangeFeed } from '../feed/change-feed';
import { MetricsService } from '../observability/metrics.service';
import { Projector } from '../projections/projector';
import { openDatabase } from './database';
import type { DatabaseHandle } from './database';
import { SqliteEventStore } from './event-store';
import { GroupCommitter } from './group-commit';
import { WalCheckpointer } from './wal-checkpointer';
import { KubeEventLog } from './kube-event-log';
import { ServiceChangeLog } from './service-change-log';
import { ServiceRepository } from './service-repository';
import { DATABASE } from './store.tokens';
import { SERVICE_WRITE_STORE } from './service-write-store';
import { SqliteServiceWriteStore } from './sqlite-service-write-store';
import { SERVICE_READ_STORE } from './service-read-store';
import { SqliteServiceReadStore } from './sqlite-service-read-store';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';

class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(DATABASE) private readonly handle: DatabaseHandle,
    private readonly committer: GroupCommitter,
    private readonly checkpointer: WalCheckpointer,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    if (!this.handle.sqlite.open) return;
    this.committer.flush();
    await this.checkpointer.stop();
    // Closing the last connection checkpoints the rest of the WAL and removes it.
    this.handle.close();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: DATABASE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        openDatabase({ path: config.databasePath, migrationsFolder: config.migrationsFolder, synchronous: config.sqliteSynchronous }),
    },
    { provide: SqliteEventStore, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new SqliteEventStore(h) },
    { provide: ServiceRepository, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new ServiceRepository(h) },
    { provide: Projector, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new Projector(h) },
    { provide: ServiceChangeLog, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new ServiceChangeLog(h) },
    { provide: KubeEventLog, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new KubeEventLog(h) },
    {
      provide: GroupCommitter,
      inject: [DATABASE, MetricsService],
      useFactory: (h: DatabaseHandle, metrics: MetricsService) => new GroupCommitter(h, metrics),
    },
    { provide: SERVICE_READ_STORE, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new SqliteServiceReadStore(h) },
    {
      provide: SERVICE_WRITE_STORE,
      inject: [GroupCommitter, SqliteEventStore, ServiceRepository, Projector, CLOCK],
      useFactory: (committer: GroupCommitter, events: SqliteEventStore, repository: ServiceRepository, projector: Projector, clock: Clock) =>
        new SqliteServiceWriteStore(committer, events, repository, projector, clock),
    },
    {
      provide: WalCheckpointer,
      inject: [DATABASE, APP_CONFIG, MetricsService],
      useFactory: (h: DatabaseHandle, config: AppConfig, metrics: MetricsService) => new WalCheckpointer(h, config.databasePath, { observer: metrics }),
    },
    ChangeFeed,
    BacklogBudget,
    DatabaseLifecycle,
  ],
  exports: [DATABASE, SERVICE_READ_STORE, SERVICE_WRITE_STORE, GroupCommitter, WalCheckpointer, SqliteEventStore, ServiceRepository, ServiceChangeLog, KubeEventLog, Projector, ChangeFeed, BacklogBudget],
})
export class StoreModule {}
