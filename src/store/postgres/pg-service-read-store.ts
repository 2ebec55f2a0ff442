// The PostgreSQL engine's ServiceReadStore: the shared reads (service-read-repository.ts) over a
// pool. A read outside a snapshot runs on any pooled connection and sees every write committed
// before it began (read-your-writes across replicas: an acknowledged write is committed); a
// snapshot is one REPEATABLE READ READ ONLY transaction on one connection (PgReadScope), which
// every read inside it finds.
import type { Pool } from 'pg';
import { ServiceReadRepository } from '../service-read-repository';
import { PgReadScope } from './history/pg-read-scope';
import { PgSqlReader } from './pg-sql-reader';

export class PgServiceReadStore extends ServiceReadRepository {
  constructor(pool: Pool) {
    const scope = new PgReadScope(pool);
    super(new PgSqlReader(() => scope.db), scope);
  }
}
