// The store of the chosen engine, the projections that run inside its transactions and the
// change feed. `--storage` picks the engine (StoreSettings.storage); STORE_ENGINE carries the open
// handle to every provider whose implementation differs per engine. Only the chosen engine's
// providers exist: nothing SQLite-only (the data directory's database, the WAL checkpointer, the
// group committer) is instantiated on PostgreSQL.
import { DynamicModule, Global, Inject, Module, OnApplicationShutdown, OnModuleInit, Provider } from '@nestjs/common';
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
import { WalCheckpointer } from './wal-checkpointer';
import { KUBE_EVENTS } from './ports/kube-events';
import { historyCompactorFor } from './history-compactor.provider';
import { HISTORY_COMPACTOR } from './ports/history-compaction';
import { kubeEventLogFor } from './kube-events.provider';
import { SERVICE_CHANGES } from './ports/service-changes';
import { serviceChangeLogFor } from './service-changes.provider';
import { ServiceRepository } from './service-repository';
import { DATABASE } from './ports/store.tokens';
import { SERVICE_WRITE_STORE } from './ports/service-write-store';
import { SqliteServiceWriteStore } from './sqlite-service-write-store';
import { SqliteMirrorSourceStore } from './sqlite-mirror-source-store';
import { MIRROR_SOURCE_STORE } from './ports/mirror-source-store';
import { PgMirrorSourceStore } from './postgres/pg-mirror-source-store';
import { MIRROR_LEASE, soleReplicaLease } from './ports/mirror-lease';
import { AUDIT_ACTOR_STORE } from './ports/audit-actor-store';
import { SqliteAuditActorStore } from './sqlite-audit-actor-store';
import { PgAuditActorStore } from './postgres/pg-audit-actor-store';
import { PgMirrorLease } from './postgres/pg-mirror-lease';
import { SERVICE_READ_STORE } from './ports/service-read-store';
import { SqliteServiceReadStore } from './sqlite-service-read-store';
import { STORE_ENGINE } from './store-engine';
import type { StoreEngine } from './store-engine';
import type { StoreSettings } from './ports/store-settings';
import { PgCommittedWriteReader } from './postgres/pg-committed-write-reader';
import { PgLogFollower } from './postgres/pg-log-follower';
import { PgServiceReadStore } from './postgres/pg-service-read-store';
import { PgServiceWriteStore } from './postgres/pg-service-write-store';
import { openPostgres, redactedUrl } from './postgres/postgres-database';
import type { PostgresHandle } from './postgres/postgres-database';
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

/** Starts the log follower before the server listens; stops it, then closes the pool. */
class PostgresLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(STORE_ENGINE) private readonly engine: StoreEngine,
    private readonly follower: PgLogFollower,
  ) {}
  async onModuleInit(): Promise<void> {
    await this.follower.start();
  }
  async onApplicationShutdown(): Promise<void> {
    await this.follower.stop();
    await this.engine.handle.close();
  }
}

const postgresHandle = (engine: StoreEngine): PostgresHandle => {
  if (engine.kind !== 'postgres') throw new Error(`a PostgreSQL provider was asked for on ${engine.kind}`);
  return engine.handle;
};

/** What both engines export: the store port, the logs read by watch and Events, the feed. */
const COMMON_EXPORTS = [
  STORE_ENGINE,
  SERVICE_READ_STORE,
  SERVICE_WRITE_STORE,
  MIRROR_SOURCE_STORE,
  MIRROR_LEASE,
  AUDIT_ACTOR_STORE,
  COMMIT_PUBLISHER,
  SERVICE_CHANGES,
  KUBE_EVENTS,
  HISTORY_COMPACTOR,
  ChangeFeed,
  BacklogBudget,
];

/** Providers alike on both engines: each picks its implementation from STORE_ENGINE. */
const COMMON_PROVIDERS: Provider[] = [
  { provide: SERVICE_CHANGES, inject: [STORE_ENGINE], useFactory: serviceChangeLogFor },
  { provide: KUBE_EVENTS, inject: [STORE_ENGINE], useFactory: kubeEventLogFor },
  ChangeFeed,
  BacklogBudget,
];

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
    { provide: SqliteMirrorSourceStore, inject: [DATABASE], useFactory: (h: DatabaseHandle) => new SqliteMirrorSourceStore(h) },
    { provide: MIRROR_SOURCE_STORE, useExisting: SqliteMirrorSourceStore },
    { provide: MIRROR_LEASE, useValue: soleReplicaLease },
    { provide: AUDIT_ACTOR_STORE, inject: [DATABASE, GroupCommitter], useFactory: (h: DatabaseHandle, committer: GroupCommitter) => new SqliteAuditActorStore(h, committer) },
    {
      provide: SERVICE_WRITE_STORE,
      inject: [GroupCommitter, SqliteEventStore, ServiceRepository, Projector, CLOCK, SqliteMirrorSourceStore],
      useFactory: (committer: GroupCommitter, events: SqliteEventStore, repository: ServiceRepository, projector: Projector, clock: Clock, mirror: SqliteMirrorSourceStore) =>
        new SqliteServiceWriteStore(committer, events, repository, projector, clock, mirror),
    },
    // Its transactions join the group commit: no write waits for more than one of them.
    {
      provide: HISTORY_COMPACTOR,
      inject: [STORE_ENGINE, GroupCommitter, CLOCK],
      useFactory: (engine: StoreEngine, committer: GroupCommitter, clock: Clock) => historyCompactorFor(engine, committer, clock),
    },
    // The only writer: a committed write goes straight to the feed.
    { provide: COMMIT_PUBLISHER, inject: [ChangeFeed], useFactory: (feed: ChangeFeed): CommitPublisher => ({ committed: (write) => feed.publish(write) }) },
    {
      provide: WalCheckpointer,
      inject: [DATABASE, MetricsService],
      useFactory: (h: DatabaseHandle, metrics: MetricsService) => new WalCheckpointer(h, settings.databasePath, { observer: metrics }),
    },
    DatabaseLifecycle,
  ];
}

function postgresProviders(url: string): Provider[] {
  return [
    {
      provide: STORE_ENGINE,
      useFactory: async (): Promise<StoreEngine> => {
        try {
          return { kind: 'postgres', handle: await openPostgres(url) };
        } catch (error) {
          throw new Error(`the PostgreSQL store at ${redactedUrl(url)} cannot be opened: ${(error as Error).message}`, { cause: error });
        }
      },
    },
    { provide: PgCommittedWriteReader, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new PgCommittedWriteReader(postgresHandle(engine).pool) },
    {
      provide: PgLogFollower,
      inject: [PgCommittedWriteReader, ChangeFeed],
      useFactory: (reader: PgCommittedWriteReader, feed: ChangeFeed) => new PgLogFollower(url, reader, feed),
    },
    { provide: SERVICE_READ_STORE, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new PgServiceReadStore(postgresHandle(engine).pool) },
    { provide: MIRROR_SOURCE_STORE, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new PgMirrorSourceStore(postgresHandle(engine).pool) },
    { provide: MIRROR_LEASE, useValue: new PgMirrorLease(url) },
    { provide: AUDIT_ACTOR_STORE, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new PgAuditActorStore(postgresHandle(engine).pool) },
    {
      provide: SERVICE_WRITE_STORE,
      inject: [STORE_ENGINE, CLOCK, MetricsService],
      useFactory: (engine: StoreEngine, clock: Clock, metrics: MetricsService) => new PgServiceWriteStore(postgresHandle(engine).writePool, clock, metrics),
    },
    { provide: HISTORY_COMPACTOR, inject: [STORE_ENGINE, CLOCK], useFactory: (engine: StoreEngine, clock: Clock) => historyCompactorFor(engine, undefined, clock) },
    // Several writers: the feed is fed from the log; a local commit only hurries the follower.
    { provide: COMMIT_PUBLISHER, useExisting: PgLogFollower },
    PostgresLifecycle,
  ];
}

@Global()
@Module({})
export class StoreModule {
  static register(settings: StoreSettings): DynamicModule {
    const choice = settings.storage;
    if (choice.engine === 'postgres') {
      return {
        module: StoreModule,
        providers: [...postgresProviders(choice.url), ...COMMON_PROVIDERS],
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
