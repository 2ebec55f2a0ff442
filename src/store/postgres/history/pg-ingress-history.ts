// IngressHistory on PostgreSQL: the same answers as IngressHistoryRepository. Where SQLite keeps
// an R*Tree of closed intervals beside a partial index of open ones, every interval here carries
// its span [from, to) as an int8range with a GiST index (schema.ts): who held an address at a
// resourceVersion is `span @> rv`, during a window `span && [fromRv, toRv]`, open intervals
// included, one index search however much history surrounds the window. (A span is never empty:
// an interval is closed by a later write than the one that set it, as a write has at most one
// ingress change, so `@>`/`&&` select exactly SQLite's `from <= toRv AND (open OR to > fromRv)`.)
import { conflictPage, conflictsNeedFirstSide, splitConflictRow } from '../../ingress-history-repository';
import type { ConflictRange, ConflictRow, IngressHistory, IntervalRange, IntervalRow } from '../../ingress-history-repository';
import type { PgReadScope } from './pg-read-scope';
import { PgSqlParams } from './pg-sql-params';

const columns = (alias: string, prefix = '') =>
  `${alias}.id AS "${prefix}id", ${alias}.address AS "${prefix}address", ${alias}.address_type AS "${prefix}addressType", ${alias}.uid AS "${prefix}uid",
   ${alias}.namespace AS "${prefix}namespace", ${alias}.name AS "${prefix}name", ${alias}.from_resource_version AS "${prefix}fromResourceVersion",
   ${alias}.from_time AS "${prefix}fromTime", ${alias}.set_by AS "${prefix}setBy", ${alias}.to_resource_version AS "${prefix}toResourceVersion",
   ${alias}.to_time AS "${prefix}toTime", ${alias}.cleared_by AS "${prefix}clearedBy"`;

export class PgIngressHistory implements IngressHistory {
  constructor(private readonly scope: PgReadScope) {}

  async intervals(range: IntervalRange, limit: number): Promise<IntervalRow[]> {
    const p = new PgSqlParams();
    const where: string[] = [];
    if (range.uid !== undefined || range.name !== undefined) {
      // One Service's history: its own index, the window checked on its rows.
      where.push(`i.from_resource_version <= ${p.param(range.toRv)}`, `(i.to_resource_version IS NULL OR i.to_resource_version > ${p.param(range.fromRv)})`);
    } else if (range.fromRv === range.toRv) {
      // Who held it (or what was held) at one resourceVersion: the spans containing it.
      where.push(`i.span @> ${p.param(range.fromRv)}::bigint`);
    } else {
      // During a window: the spans overlapping it ([fromRv, toRv] inclusive).
      where.push(`i.span && int8range(${p.param(range.fromRv)}, ${p.param(range.toRv)}, '[]')`);
    }
    if (range.uid !== undefined) where.push(`i.uid = ${p.param(range.uid)}`);
    if (range.namespace !== undefined) where.push(`i.namespace = ${p.param(range.namespace)}`);
    if (range.name !== undefined) where.push(`i.name = ${p.param(range.name)}`);
    if (range.address !== undefined) where.push(`i.address = ${p.param(range.address)}`);
    if (range.addressType !== undefined) where.push(`i.address_type = ${p.param(range.addressType)}`);
    if (range.setBy !== undefined) where.push(`i.set_by = ${p.param(range.setBy)}`);
    if (range.after) {
      const from = p.param(range.after.from);
      where.push(`i.from_resource_version >= ${from}`, `(i.from_resource_version > ${from} OR i.id > ${p.param(range.after.id)})`);
    }
    const { rows } = await this.scope.db.query<IntervalRow>(
      `SELECT ${columns('i')} FROM ingress_intervals i WHERE ${where.join(' AND ')} ORDER BY i.from_resource_version, i.id LIMIT ${p.param(limit)}`,
      p.values,
    );
    return rows;
  }

  /**
   * As IngressHistoryRepository.conflicts: the later-assigned side (`second`), or with
   * `side: 'first'` the earlier one, is in the scope; the other holders' intervals of the address
   * that were open when the later one began are found through the address index.
   */
  private conflictsSql(range: ConflictRange, side: 'first' | 'second', p: PgSqlParams): string {
    const driver = side === 'second' ? 'b' : 'a';
    const where = [`b.from_resource_version >= ${p.param(range.fromRv)}`, `b.from_resource_version <= ${p.param(range.toRv)}`];
    if (side === 'first') where.push(`a.from_resource_version <= ${p.param(range.toRv)}`);
    if (range.uid !== undefined) where.push(`${driver}.uid = ${p.param(range.uid)}`);
    if (range.namespace !== undefined) where.push(`${driver}.namespace = ${p.param(range.namespace)}`);
    if (range.name !== undefined) where.push(`${driver}.name = ${p.param(range.name)}`);
    if (range.address !== undefined) where.push(`${driver}.address = ${p.param(range.address)}`);
    if (range.after) {
      const second = p.param(range.after.secondId);
      where.push(
        `b.from_resource_version >= ${p.param(range.after.secondFrom)}`,
        `(b.id > ${second} OR (b.id = ${second} AND a.id > ${p.param(range.after.firstId)}))`,
      );
    }
    const join = `a.address = b.address AND a.uid <> b.uid AND a.address_type = b.address_type AND a.id < b.id
      AND a.from_resource_version <= b.from_resource_version AND (a.to_resource_version IS NULL OR a.to_resource_version > b.from_resource_version)`;
    return `SELECT ${columns('a', 'first_')}, ${columns('b', 'second_')} FROM ingress_intervals a JOIN ingress_intervals b ON ${join}
      WHERE ${where.join(' AND ')} ORDER BY b.id, a.id`;
  }

  async conflicts(range: ConflictRange, limit: number): Promise<ConflictRow[]> {
    const run = async (side: 'first' | 'second') => {
      const p = new PgSqlParams();
      const sql = `${this.conflictsSql(range, side, p)} LIMIT ${p.param(limit)}`;
      return (await this.scope.db.query<Record<string, unknown>>(sql, p.values)).rows.map(splitConflictRow);
    };
    return conflictPage(await run('second'), conflictsNeedFirstSide(range) ? await run('first') : [], limit);
  }
}
