// Opens the PostgreSQL store a maintenance command names. Connection failures become refusals an
// operator can act on (exit 1 with the reason, no stack trace), and the commands that read an
// existing store (export, verify, replay) refuse a database without one instead of creating the
// schema there: a mistyped database name must not grow svctrail's tables. The CLI's read commands
// open it read-only: no migration, and every session refuses writes; a store older than the
// columns they read is refused with what to do.
import { Client } from 'pg';
import { redactedUrl } from '../../store/postgres/postgres-database';
import { openPostgres, type PostgresHandle } from '../../store/postgres/postgres-database';
import { MaintenanceError } from '../maintenance-error';

const CONNECT_TIMEOUT_MS = 10_000;

export async function openPgStore(url: string, options: { existing: boolean; max: number; readOnly?: boolean }): Promise<PostgresHandle> {
  const where = redactedUrl(url);
  if (options.existing) {
    const probe = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      const { rows } = await probe.query<{ ok: boolean; dense: boolean }>(
        `SELECT to_regclass('events') IS NOT NULL AS ok, EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'events' AND column_name = 'packed_data') AS dense`,
      );
      if (!rows[0].ok) throw new MaintenanceError(`no svctrail store in the PostgreSQL database ${where} (no events table)`);
      // A read-only session can make no stand-in for what an older store lacks (SQLite's are temp views).
      if (options.readOnly && !rows[0].dense) {
        throw new MaintenanceError(
          `the svctrail store in PostgreSQL at ${where} was written by an older svctrail (before dense events, migration 0012), and a read command leaves a store as it finds it: start this version's server on it, or run a writing command (compact, replay), once first`,
        );
      }
    } catch (error) {
      if (error instanceof MaintenanceError) throw error;
      throw new MaintenanceError(`cannot read PostgreSQL at ${where}: ${(error as Error).message}`);
    } finally {
      await probe.end().catch(() => undefined);
    }
  }
  try {
    return await openPostgres(url, { max: options.max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, readOnly: options.readOnly });
  } catch (error) {
    throw new MaintenanceError(`cannot open the svctrail store in PostgreSQL at ${where}: ${(error as Error).message}`);
  }
}
