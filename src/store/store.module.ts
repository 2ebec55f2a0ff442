// The store of the chosen engine, the projections that run inside its transactions and the
// change feed. `--storage` picks the engine (StoreSettings.storage); STORE_ENGINE carries the open
// handle to every provider whose implementation differs per engine. Only the chosen engine's
// providers exist: nothing SQLite-only (the data directory's database, the WAL checkpointer, the
// group committer) is instantiated on PostgreSQL, and PostgreSQL's providers, with its driver,
// are loaded only when `--storage` names it.
import { DynamicModule, Global, Inject, Module, OnApplicationShutdown, Provider } from '@nestjs/common';
import { BacklogBudget } from '../feed/backlog-budget';
import { ChangeFeed } from '../feed/change-feed';
import { COMMIT_PUBLISHER } from '../feed/commit-publisher';
import type { CommitPublisher } from '../feed/commit-publisher';
import { MetricsService } from '../observability/metrics.service';
import { Projector } from '../projections/projector';
import { openDatabase } from './database';
import type { DatabaseHandle } from './database';
import { SqliteEventStore } from './event-store';
import { GroupCommitter } from './group-commit';
import { KubeEventLog } from './kube-event-log';
import { WalCheckpointer } from './wal-checkpointer';
import { KUBE_EVENTS } from './ports/kube-events';
import { sqliteHistoryCompactor } from './sqlite-history-compactor';
import { sqliteHistoryStores } from './sqlite-history-stores';
import { HISTORY_COMPACTOR } from './ports/history-compaction';
import { HISTORY_STORES } from './ports/history-stores';
import { SERVICE_CHANGES } from './ports/service-changes';
import { ServiceChangeLog } from './service-change-log';
import { ServiceRepository } from './service-repository';
import { DATABASE } from './ports/store.tokens';
import { SERVICE_WRITE_STORE } from './ports/service-write-store';
import { SqliteServiceWriteStore } from './sqlite-service-write-store';
import { SqliteKubeEventWriteStore } from './sqlite-kube-event-write-store';
import { KUBE_EVENT_WRITE_STORE } from './ports/kube-event-write-store';
import { SqliteMirrorSourceStore } from './sqlite-mirror-source-store';
import { MIRROR_SOURCE_STORE } from './ports/mirror-source-store';
import { MIRROR_LEASE, soleReplicaLease } from './ports/mirror-lease';
import { WRITE_LEADERSHIP } from './ports/write-leadership';
import { AUDIT_ACTOR_STORE } from './ports/audit-actor-store';
import { SqliteAuditActorStore } from './sqlite-audit-actor-store';
import { SERVICE_READ_STORE } from './ports/service-read-store';
import type { ServiceReadStore } from './ports/service-read-store';
import { SqliteServiceReadStore } from './sqlite-service-read-store';
import { SqliteSqlReader } from './sqlite-sql-reader';
import { STORE_ENGINE } from './store-engine';
import type { StoreEngine } from './store-engine';
import type { StoreSettings } from './ports/store-settings';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { SqliteSqlWriter } from './sqlite-sql-writer';
import { EVENT_DATA_PACKING, EventDataPacker } from './event-data-packer';
import { EventDataPacking } from './event-data-packing';

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

/** What both engines export: the store ports, the logs read by watch, Events and history, the feed. */
const COMMON_EXPORTS = [
  STORE_ENGINE,
  SERVICE_READ_STORE,
  SERVICE_WRITE_STORE,
  KUBE_EVENT_WRITE_STORE,
  MIRROR_SOURCE_STORE,
  MIRROR_LEASE,
  WRITE_LEADERSHIP,
  AUDIT_ACTOR_STORE,
  COMMIT_PUBLISHER,
  SERVICE_CHANGES,
  KUBE_EVENTS,
  HISTORY_STORES,
  HISTORY_COMPACTOR,
  ChangeFeed,
  BacklogBudget,
];

/** Providers alike on both engines. */
const COMMON_PROVIDERS: Provider[] = [ChangeFeed, BacklogBudget, EventDataPacker];

function sqliteProviders(settings: StoreSettings): Provider[] {
  return [
    {
      provide: DATABASE,
      useFactory: () => openDatabase({ path: settings.databasePath, migrationsFolder: settings.migrationsFolder, synchronous: settings.sqliteSynchronous }),
    },
    { provide: STORE_ENGINE, inject: [DATABASE], useFactory: (handle: DatabaseHandle): StoreEngine => ({ kind: 'sqlite', handle }) },
    { provide: SqliteEventStore, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new SqliteEventStore(h) },
    { provide: ServiceRepository, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new ServiceRepository(h) },
    { provide: Projector, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new Projector(h) },
    {
      provide: GroupCommitter,
      inject: [DATABASE, MetricsService],
      useFactory: (h: DatabaseHandle, metrics: MetricsService) => new GroupCommitter(h, metrics),
    },
    { provide: SERVICE_READ_STORE, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new SqliteServiceReadStore(h) },
    { provide: SERVICE_CHANGES, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new ServiceChangeLog(new SqliteSqlReader(h)) },
    { provide: KUBE_EVENTS, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new KubeEventLog(new SqliteSqlReader(h)) },
    // SQLite's snapshots already cover the history repositories: they read through SERVICE_READ_STORE.
    { provide: HISTORY_STORES, inject: [DATABASE, SERVICE_READ_STORE], useFactory: (h: DatabaseHandle, reads: ServiceReadStore) => sqliteHistoryStores(h, reads) },
    { provide: SqliteMirrorSourceStore, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new SqliteMirrorSourceStore(h) },
    { provide: MIRROR_SOURCE_STORE, useExisting: SqliteMirrorSourceStore },
    { provide: MIRROR_LEASE, useValue: soleReplicaLease },
    // One server per SQLite store: it writes everything itself.
    { provide: WRITE_LEADERSHIP, useValue: null },
    { provide: AUDIT_ACTOR_STORE, inject: [DATABASE, GroupCommitter], useFactory: (h: DatabaseHandle, committer: GroupCommitter) => new SqliteAuditActorStore(h, committer) },
    {
      provide: SERVICE_WRITE_STORE,
      inject: [GroupCommitter, SqliteEventStore, ServiceRepository, Projector, CLOCK, SqliteMirrorSourceStore],
      useFactory: (committer: GroupCommitter, events: SqliteEventStore, repository: ServiceRepository, projector: Projector, clock: Clock, mirror: SqliteMirrorSourceStore) =>
        new SqliteServiceWriteStore(committer, events, repository, projector, clock, mirror),
    },
    {
      provide: KUBE_EVENT_WRITE_STORE,
      inject: [DATABASE, GroupCommitter, SqliteEventStore, Projector, CLOCK, SqliteMirrorSourceStore],
      useFactory: (h: DatabaseHandle, committer: GroupCommitter, events: SqliteEventStore, projector: Projector, clock: Clock, mirror: SqliteMirrorSourceStore) =>
        new SqliteKubeEventWriteStore(h, committer, events, projector, clock, mirror),
    },
    // Its transactions join the group commit: no write waits for more than one of them.
    {
      provide: HISTORY_COMPACTOR,
      inject: [DATABASE, GroupCommitter, CLOCK],
      useFactory: (h: DatabaseHandle, committer: GroupCommitter, clock: Clock) => sqliteHistoryCompactor(h, committer, clock),
    },
    // A store written before packed event data is converted in the background, joining the group commit.
    {
      provide: EVENT_DATA_PACKING,
      inject: [DATABASE, GroupCommitter],
      useFactory: (h: DatabaseHandle, committer: GroupCommitter) => new EventDataPacking(new SqliteSqlWriter(h, committer)),
    },
    // The only writer: a committed write goes straight to the feed.
    {
      provide: COMMIT_PUBLISHER,
      inject: [ChangeFeed],
      useFactory: (feed: ChangeFeed): CommitPublisher => ({
        committed: (write) => {
          feed.committedHere(write);
          feed.publish(write);
        },
      }),
    },
    {
      provide: WalCheckpointer,
      inject: [DATABASE, MetricsService],
      useFactory: (h: DatabaseHandle, metrics: MetricsService) => new WalCheckpointer(h, settings.databasePath, { observer: metrics }),
    },
    DatabaseLifecycle,
  ];
}

@Global()
@Module({})
export class StoreModule {
  static async register(settings: StoreSettings): Promise<DynamicModule> {
    const choice = settings.storage;
    if (choice.engine === 'postgres') {
      const { postgresStoreProviders } = await import('./postgres/postgres-store.providers.js');
      return {
        module: StoreModule,
        providers: [...postgresStoreProviders(choice.url), ...COMMON_PROVIDERS],
        exports: COMMON_EXPORTS,
      };
    }
    return {
      module: StoreModule,
      providers: [...sqliteProviders(settings), ...COMMON_PROVIDERS],
      exports: [...COMMON_EXPORTS, DATABASE, GroupCommitter, WalCheckpointer, SqliteEventStore, ServiceRepository, Projector],
    };
  }
}
