// Migration 0007 gave every revision row a `patch` column (the write's JSON patch, computed once
// instead of on every change-log read). Rows written before it have none: this fills them in,
// once, when a writer opens the database, from the same stored revisions the change log used to
// diff. The partial index service_revisions_unpatched holds exactly the rows still to do, so
// every later start finds it empty in one seek.
import type Database from 'better-sqlite3';
import { jsonPatchText } from '../domain/json-patch-diff';
import { encodeRevisionPatch } from './revision-texts';
import { decodeStoredText, type StoredText } from './stored-text-codec';

/** Rows per transaction: a running server's writers wait at most one batch. */
const BATCH = 2000;

/** Fills every missing revision patch; returns how many rows it filled. */
export function backfillRevisionPatches(sqlite: Database.Database): number {
  // Filled rows leave the partial index, so each batch is the index's first rows: a range from
  // the smallest uid (a search of the index, not a scan).
  const pending = sqlite.prepare(`SELECT uid, resource_version AS rv, object FROM service_revisions WHERE patch IS NULL AND uid >= '' ORDER BY uid, resource_version LIMIT ?`);
  const previous = sqlite.prepare('SELECT object FROM service_revisions WHERE uid = ? AND resource_version < ? ORDER BY resource_version DESC LIMIT 1').pluck();
  const store = sqlite.prepare('UPDATE service_revisions SET patch = ? WHERE uid = ? AND resource_version = ?');
  const batch = sqlite.transaction(() => {
    const rows = pending.all(BATCH) as { uid: string; rv: number; object: StoredText }[];
    // The previous revision of a uid's first revision is none: a create, whose patch adds it whole.
    for (const row of rows) {
      const before = previous.get(row.uid, row.rv) as StoredText | undefined;
      store.run(encodeRevisionPatch(jsonPatchText(before === undefined ? null : decodeStoredText(before), decodeStoredText(row.object))), row.uid, row.rv);
    }
    return rows.length;
  });
  let filled = 0;
  for (let n = batch.immediate(); n > 0; n = batch.immediate()) filled += n;
  return filled;
}
