// The ServiceReadStore the history services read through on PostgreSQL: PgServiceReadStore's
// reads, but inside a snapshot on the snapshot's connection (PgReadScope), the one the history
// repositories use too, so an answer's head, window and page come from one snapshot.
import type { Pool } from 'pg';
import { PgServiceReadStore } from '../pg-service-read-store';
import type { ListPageRequest, ServiceReads, ServiceReadStore, ServiceRow } from '../../ports/service-read-store';
import type { PgReadScope } from './pg-read-scope';

export class PgHistoryReadStore implements ServiceReadStore {
  private readonly outside: PgServiceReadStore;

  constructor(private readonly scope: PgReadScope) {
    this.outside = new PgServiceReadStore(scope.pool);
  }

  /**
   * The reads on the current connection. PgServiceReadStore only ever queries what it is given
   * (its pool-only methods, ready and inSnapshot, are not called on this one); a connection
   * answers the same queries as the pool.
   */
  private get reads(): ServiceReads {
    return this.scope.inside ? new PgServiceReadStore(this.scope.db as unknown as Pool) : this.outside;
  }

  ready(): Promise<boolean> {
    return this.outside.ready();
  }

  inSnapshot<T>(reads: (snapshot: ServiceReads) => Promise<T>): Promise<T> {
    return this.scope.inSnapshot(() => reads(this));
  }

  head(): Promise<number> {
    return this.reads.head();
  }

  resourceVersionAt(time: string): Promise<number> {
    return this.reads.resourceVersionAt(time);
  }

  firstPositionAtOrAfter(time: string): Promise<number> {
    return this.reads.firstPositionAtOrAfter(time);
  }

  writeStartAtOrAfter(resourceVersion: number): Promise<number> {
    return this.reads.writeStartAtOrAfter(resourceVersion);
  }

  liveJson(namespace: string, name: string): Promise<string | undefined> {
    return this.reads.liveJson(namespace, name);
  }

  jsonAsOf(namespace: string, name: string, resourceVersion: number): Promise<string | undefined> {
    return this.reads.jsonAsOf(namespace, name, resourceVersion);
  }

  listPage(request: ListPageRequest): Promise<ServiceRow[]> {
    return this.reads.listPage(request);
  }
}
