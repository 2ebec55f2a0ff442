// Verify's check of the log below each compaction's horizon: every checksum a compaction recorded
// (store/facts-checksum.ts) recomputed from the events the store holds now, in the snapshot the
// fold reads. A mismatch is a difference of the compactions table, reported and counted like a
// projection row that differs from its fold.
import { checksumLinks, factsChecksum } from '../store/facts-checksum';
import { readCompactions } from '../store/history-compaction';
import type { SqlReader } from '../store/sql/sql-reader';
import type { ProjectionComparison } from './projection-comparison';

export async function checkFactsChecksums(reader: SqlReader, comparison: ProjectionComparison, maxDifferences: number): Promise<ProjectionComparison> {
  const compactions = await readCompactions(reader);
  const links = checksumLinks(compactions.map((c) => ({ id: c.id, horizon: c.horizon.resourceVersion, checksum: c.facts?.checksum, after: c.facts?.after })));
  if (!links.length) return comparison; // never compacted: nothing to check, no line in the report
  const samples = [...comparison.samples];
  let differences = 0;
  for (const link of links) {
    const computed = await factsChecksum(reader, link.range, link.seed);
    if (computed === link.recorded) continue;
    differences++;
    if (samples.length < maxDifferences) {
      samples.push({
        table: 'compactions',
        key: { id: link.id },
        kind: 'changed',
        columns: [{ column: 'facts_checksum', live: link.recorded, folded: computed }],
      });
    }
  }
  const table = { table: 'compactions', liveRows: links.length, foldedRows: links.length, differences };
  return { tables: [...comparison.tables, table], differences: comparison.differences + differences, samples };
}
