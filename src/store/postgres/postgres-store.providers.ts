// PostgreSQL's providers of the store (StoreModule imports this file only when `--storage` names
// PostgreSQL, so that a SQLite server never loads the driver). Several replicas may write: the
// feed is fed from the log, which the follower reads.
import { Inject, OnApplicationShutdown, OnModuleInit, Provider } from '@nestjs/common';
import { ChangeFeed } from '../../feed/change-feed';
import { COMMIT_PUBLISHER } from '../../feed/commit-publisher';
import { MetricsService } from '../../observability/metrics.service';
import { CLOCK } from '../../shared/clock';
import type { Clock } from '../../shared/clock';
import { KubeEventLog } from '../kube-event-log';
import { AUDIT_ACTOR_STORE } from '../ports/audit-actor-store';
import { HISTORY_COMPACTOR } from '../ports/history-compaction';
import { HISTORY_STORES } from '../ports/history-stores';
import { KUBE_EVENTS } from '../ports/kube-events';
import { MIRROR_LEASE } from '../ports/mirror-lease';
import { MIRROR_SOURCE_STORE } from '../ports/mirror-source-store';
import { SERVICE_CHANGES } from '../ports/service-changes';
import { SERVICE_READ_STORE } from '../ports/service-read-store';
import { SERVICE_WRITE_STORE } from '../ports/service-write-store';
import { KUBE_EVENT_WRITE_STORE } from '../ports/kube-event-write-store';
import { ServiceChangeLog } from '../service-change-log';
import { STORE_ENGINE } from '../store-engine';
import type { StoreEngine } from '../store-engine';
import { PgAppendQueue } from './pg-append-queue';
import { PgAuditActorStore } from './pg-audit-actor-store';
import { PgCommittedWriteReader } from './pg-committed-write-reader';
import { pgHistoryCompactor } from './pg-history-compactor';
import { pgHistoryStores } from './pg-history-stores';
import { PgLogFollower } from './pg-log-follower';
import { PgAdvisoryLease, WRITE_LEADER_LEASE_KEY } from './pg-advisory-lease';
import { PgWriteLeadership } from './pg-write-leadership';
import { WRITE_LEADERSHIP } from '../ports/write-leadership';
import { PgMirrorSourceStore } from './pg-mirror-source-store';
import { PgServiceReadStore } from './pg-service-read-store';
import { PgKubeEventWriteStore } from './pg-kube-event-write-store';
import { PgServiceWriteStore } from './pg-service-write-store';
import { PgSqlReader } from './pg-sql-reader';
import { openPostgres, redactedUrl } from './postgres-database';
import type { PostgresHandle } from './postgres-database';
import { PgSqlWriter } from './pg-sql-writer';
import { EVENT_DATA_PACKING } from '../event-data-packer';
import { EventDataPacking } from '../event-data-packing';

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

export function postgresStoreProviders(url: string): Provider[] {
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
      inject: [STORE_ENGINE, PgCommittedWriteReader, ChangeFeed],
      useFactory: (engine: StoreEngine, reader: PgCommittedWriteReader, feed: ChangeFeed) => new PgLogFollower(postgresHandle(engine), reader, feed),
    },
    { provide: SERVICE_READ_STORE, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new PgServiceReadStore(postgresHandle(engine).pool) },
    { provide: MIRROR_SOURCE_STORE, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new PgMirrorSourceStore(postgresHandle(engine).pool) },
    { provide: MIRROR_LEASE, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new PgAdvisoryLease((config) => postgresHandle(engine).newClient(config)) },
    {
      provide: WRITE_LEADERSHIP,
      inject: [STORE_ENGINE, CLOCK],
      useFactory: (engine: StoreEngine, clock: Clock) =>
        new PgWriteLeadership(postgresHandle(engine).pool, new PgAdvisoryLease((config) => postgresHandle(engine).newClient(config), WRITE_LEADER_LEASE_KEY), clock),
    },
    { provide: AUDIT_ACTOR_STORE, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new PgAuditActorStore(postgresHandle(engine).pool) },
    // One group commit for Service and Event writes: a turn's writes of both kinds share one statement.
    {
      provide: PgAppendQueue,
      inject: [STORE_ENGINE, MetricsService],
      useFactory: (engine: StoreEngine, metrics: MetricsService) => new PgAppendQueue(postgresHandle(engine).writePool, metrics),
    },
    {
      provide: SERVICE_WRITE_STORE,
      inject: [STORE_ENGINE, CLOCK, PgAppendQueue],
      useFactory: (engine: StoreEngine, clock: Clock, queue: PgAppendQueue) => new PgServiceWriteStore(postgresHandle(engine).writePool, clock, undefined, queue),
    },
    {
      provide: KUBE_EVENT_WRITE_STORE,
      inject: [STORE_ENGINE, CLOCK, PgAppendQueue],
      useFactory: (engine: StoreEngine, clock: Clock, queue: PgAppendQueue) => new PgKubeEventWriteStore(postgresHandle(engine).writePool, clock, queue),
    },
    { provide: SERVICE_CHANGES, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new ServiceChangeLog(new PgSqlReader(() => postgresHandle(engine).pool)) },
    { provide: KUBE_EVENTS, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new KubeEventLog(new PgSqlReader(() => postgresHandle(engine).pool)) },
    { provide: HISTORY_STORES, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => pgHistoryStores(postgresHandle(engine)) },
    { provide: HISTORY_COMPACTOR, inject: [STORE_ENGINE, CLOCK], useFactory: (engine: StoreEngine, clock: Clock) => pgHistoryCompactor(postgresHandle(engine).pool, clock) },
    // Every replica converts an older store; a row packed by another is skipped (its UPDATE finds it packed).
    { provide: EVENT_DATA_PACKING, inject: [STORE_ENGINE], useFactory: (engine: StoreEngine) => new EventDataPacking(new PgSqlWriter(postgresHandle(engine).pool)) },
    // Several writers: the feed is fed from the log; a local commit only hurries the follower.
    { provide: COMMIT_PUBLISHER, useExisting: PgLogFollower },
    PostgresLifecycle,
  ];
}
