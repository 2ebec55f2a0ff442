// Reads the ingress history (ingress_intervals): intervals [from, to) of resourceVersions during
// which a Service held an address, who held an address at a point or during a window, and
// conflicts (two Services holding one address at once). One implementation for both engines; they
// differ in how a window is searched. By address: the address index; by Service: its scope index.
// Across a namespace or the cluster within a window, SQLite searches the R*Tree
// ingress_interval_spans (closed intervals, see migrations 0003 and 0005) beside a partial index
// of open ones, PostgreSQL the GiST index of each interval's span [from, to) (an int8range,
// postgres/schema.ts): `span @> rv` at a point, `span && [fromRv, toRv]` during a window, open
// intervals included. (A span is never empty: an interval is closed by a later write than the one
// that set it, as a write has at most one ingress change, so `@>`/`&&` select exactly
// `from <= toRv AND (open OR to > fromRv)`.) No query walks unrelated history.
import { SqlParams, type SqlReader } from './sql/sql-reader';
import type { ConflictRange, ConflictRow, IngressHistory, IntervalRange, IntervalRow } from './ports/ingress-history';

const columns = (alias: string, prefix = '') =>
  `${alias}.id AS "${prefix}id", ${alias}.address AS "${prefix}address", ${alias}.address_type AS "${prefix}addressType", ${alias}.uid AS "${prefix}uid",
   ${alias}.namespace AS "${prefix}namespace", ${alias}.name AS "${prefix}name", ${alias}.from_resource_version AS "${prefix}fromResourceVersion",
   ${alias}.from_time AS "${prefix}fromTime", ${alias}.set_by AS "${prefix}setBy", ${alias}.to_resource_version AS "${prefix}toResourceVersion",
   ${alias}.to_time AS "${prefix}toTime", ${alias}.cleared_by AS "${prefix}clearedBy"`;

export class IngressHistoryRepository implements IngressHistory {
  constructor(private readonly db: SqlReader) {}

  /** The intervals a range reads, and the conditions that keep those overlapping its window. */
  private window(range: Omit<IntervalRange, 'after'>, p: SqlParams): { from: string; where: string[] } {
    const overlapping = () => [`i.from_resource_version <= ${p.param(range.toRv)}`, `(i.to_resource_version IS NULL OR i.to_resource_version > ${p.param(range.fromRv)})`];
    if (this.db.dialect.name === 'postgres') {
      // One Service's history: its own index, the window checked on its rows.
      if (range.uid !== undefined || range.name !== undefined) return { from: 'ingress_intervals i', where: overlapping() };
      // Who held it (or what was held) at one resourceVersion: the spans containing it.
      if (range.fromRv === range.toRv) return { from: 'ingress_intervals i', where: [`i.span @> ${p.param(range.fromRv)}::bigint`] };
      // During a window: the spans overlapping it ([fromRv, toRv] inclusive).
      return { from: 'ingress_intervals i', where: [`i.span && int8range(${p.param(range.fromRv)}, ${p.param(range.toRv)}, '[]')`] };
    }
    let from: string;
    // (An address without a Service is read holder by holder: addressIntervals.)
    if (range.uid !== undefined) from = 'ingress_intervals i INDEXED BY ingress_intervals_uid_from';
    else if (range.name !== undefined) from = 'ingress_intervals i INDEXED BY ingress_intervals_name_from';
    else if (range.windowed) {
      // An overlap search: closed intervals are in the R*Tree (CROSS JOIN keeps it the outer
      // loop: SQLite never reorders it); open ones, by their start, in a partial index.
      const toRv = p.param(range.toRv);
      from = `(SELECT i.* FROM ingress_interval_spans s CROSS JOIN ingress_intervals i ON i.id = s.id WHERE s.from_rv <= ${toRv} AND s.to_rv > ${p.param(range.fromRv)}
        UNION ALL SELECT * FROM ingress_intervals INDEXED BY ingress_intervals_open_from WHERE to_resource_version IS NULL AND from_resource_version <= ${toRv}) i`;
    } else if (range.namespace !== undefined) from = 'ingress_intervals i INDEXED BY ingress_intervals_namespace_from';
    else from = 'ingress_intervals i INDEXED BY ingress_intervals_from';
    return { from, where: overlapping() };
  }

  /** One page of intervals: its SQL and values. */
  intervalsQuery(range: IntervalRange, limit: number): { sql: string; values: unknown[] } {
    const p = new SqlParams();
    const { from, where } = this.window(range, p);
    if (range.uid !== undefined) where.push(`i.uid = ${p.param(range.uid)}`);
    if (range.namespace !== undefined) where.push(`i.namespace = ${p.param(range.namespace)}`);
    if (range.name !== undefined) where.push(`i.name = ${p.param(range.name)}`);
    if (range.address !== undefined) where.push(`i.address = ${p.param(range.address)}`);
    if (range.addressType !== undefined) where.push(`i.address_type = ${p.param(range.addressType)}`);
    if (range.setBy !== undefined) where.push(`i.set_by = ${p.param(range.setBy)}`);
    if (range.after) {
      const afterFrom = p.param(range.after.from);
      where.push(`i.from_resource_version >= ${afterFrom}`, `(i.from_resource_version > ${afterFrom} OR i.id > ${p.param(range.after.id)})`);
    }
    const sql = `SELECT ${columns('i')} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY i.from_resource_version, i.id LIMIT ${p.param(limit)}`;
    return { sql, values: p.values };
  }

  async intervals(range: IntervalRange, limit: number): Promise<IntervalRow[]> {
    if (this.db.dialect.name === 'sqlite' && range.address !== undefined && range.uid === undefined && range.name === undefined) return this.addressIntervals(range, limit);
    const { sql, values } = this.intervalsQuery(range, limit);
    return this.db.all<IntervalRow>(sql, values);
  }

  /**
   * The intervals of one address on SQLite, holder by holder. A holder's intervals of an address
   * never overlap, so of those that began before the window only its newest can reach into it:
   * one seek per holder, then the ones that began inside the window. The cost follows the holders
   * and the answer, not how many times the address was assigned.
   */
  private async addressIntervals(range: IntervalRange, limit: number): Promise<IntervalRow[]> {
    const address = range.address!;
    const byAddress = `ingress_intervals i${this.db.dialect.indexedBy('ingress_intervals_address_uid_from')}`;
    const nextHolder = `SELECT uid FROM ${byAddress} WHERE address = $1 AND uid > $2 ORDER BY uid LIMIT 1`;
    const newestBefore = `SELECT ${columns('i')} FROM ${byAddress}
       WHERE i.address = $1 AND i.uid = $2 AND i.from_resource_version < $3 ORDER BY i.from_resource_version DESC, i.id DESC LIMIT 1`;
    const afterFrom = range.after?.from ?? 0;
    const afterId = range.after?.id ?? 0;
    // One more than a page per holder: rows at the cursor's own resourceVersion are skipped below.
    const p = new SqlParams(address, '', range.fromRv, range.toRv, afterFrom, limit + 1);
    const filters = [
      ...(range.namespace !== undefined ? [`i.namespace = ${p.param(range.namespace)}`] : []),
      ...(range.addressType !== undefined ? [`i.address_type = ${p.param(range.addressType)}`] : []),
      ...(range.setBy !== undefined ? [`i.set_by = ${p.param(range.setBy)}`] : []),
    ]
      .map((f) => ` AND ${f}`)
      .join('');
    const within = `SELECT ${columns('i')} FROM ${byAddress}
       WHERE i.address = $1 AND i.uid = $2 AND i.from_resource_version >= $3 AND i.from_resource_version <= $4
         AND i.from_resource_version >= $5${filters}
       ORDER BY i.from_resource_version, i.id LIMIT $6`;
    const isAfterCursor = (r: IntervalRow) => !range.after || r.fromResourceVersion > afterFrom || (r.fromResourceVersion === afterFrom && r.id > afterId);
    const matches = (r: IntervalRow) =>
      (range.namespace === undefined || r.namespace === range.namespace) &&
      (range.addressType === undefined || r.addressType === range.addressType) &&
      (range.setBy === undefined || r.setBy === range.setBy);
    const rows: IntervalRow[] = [];
    for (let uid = (await this.db.one<{ uid: string }>(nextHolder, [address, '']))?.uid; uid !== undefined; uid = (await this.db.one<{ uid: string }>(nextHolder, [address, uid]))?.uid) {
      const before = await this.db.one<IntervalRow>(newestBefore, [address, uid, range.fromRv]);
      if (before && (before.toResourceVersion === null || before.toResourceVersion > range.fromRv) && matches(before) && isAfterCursor(before)) rows.push(before);
      p.values[1] = uid;
      rows.push(...(await this.db.all<IntervalRow>(within, p.values)).filter(isAfterCursor));
    }
    rows.sort((a, b) => a.fromResourceVersion - b.fromResourceVersion || a.id - b.id);
    return rows.slice(0, limit);
  }

  /**
   * Conflicts where the later-assigned side (`second`) or, with `side: 'first'`, the earlier
   * side is in the scope. The other side is found by the address index among the other
   * holders' intervals that were open when the later one began (the driver's own holder is
   * skipped by two uid ranges, so an address one Service flapped costs nothing per interval).
   * Ordered by (second.id, first.id).
   */
  conflictsQuery(range: ConflictRange, side: 'first' | 'second', limit: number): { sql: string; values: unknown[] } {
    const { indexedBy } = this.db.dialect;
    const p = new SqlParams();
    const driver = side === 'second' ? 'b' : 'a';
    const other = side === 'second' ? 'a' : 'b';
    let index: string;
    if (range.uid !== undefined) index = 'ingress_intervals_uid_from';
    else if (range.address !== undefined) index = 'ingress_intervals_address_uid_from';
    else if (range.name !== undefined) index = 'ingress_intervals_name_from';
    else if (range.namespace !== undefined) index = 'ingress_intervals_namespace_from';
    else index = 'ingress_intervals_from';
    const toRv = p.param(range.toRv);
    const where = [`b.from_resource_version >= ${p.param(range.fromRv)}`, `b.from_resource_version <= ${toRv}`];
    if (side === 'first') where.push(`a.from_resource_version <= ${toRv}`);
    if (range.uid !== undefined) where.push(`${driver}.uid = ${p.param(range.uid)}`);
    if (range.namespace !== undefined) where.push(`${driver}.namespace = ${p.param(range.namespace)}`);
    if (range.name !== undefined) where.push(`${driver}.name = ${p.param(range.name)}`);
    if (range.address !== undefined) where.push(`${driver}.address = ${p.param(range.address)}`);
    if (range.after) {
      const second = p.param(range.after.secondId);
      where.push(`b.from_resource_version >= ${p.param(range.after.secondFrom)}`, `(b.id > ${second} OR (b.id = ${second} AND a.id > ${p.param(range.after.firstId)}))`);
    }
    // The other holders' intervals of the address, as two ranges of the (address, uid) index on
    // either side of the driver's own uid: a Service that held an address 10,000 times is never
    // read against itself (with `a.uid <> b.uid` each of its intervals walked all the others).
    const join = `((a.address = b.address AND a.uid < b.uid) OR (a.address = b.address AND a.uid > b.uid)) AND a.address_type = b.address_type AND a.id < b.id
      AND a.from_resource_version <= b.from_resource_version AND (a.to_resource_version IS NULL OR a.to_resource_version > b.from_resource_version)`;
    const sql = `SELECT ${columns('a', 'first_')}, ${columns('b', 'second_')}
      FROM ingress_intervals ${driver}${indexedBy(index)}
      JOIN ingress_intervals ${other}${indexedBy('ingress_intervals_address_uid_from')} ON ${join}
      WHERE ${where.join(' AND ')} ORDER BY b.id, a.id LIMIT ${p.param(limit)}`;
    return { sql, values: p.values };
  }

  async conflicts(range: ConflictRange, limit: number): Promise<ConflictRow[]> {
    const run = async (side: 'first' | 'second') => {
      const { sql, values } = this.conflictsQuery(range, side, limit);
      return (await this.db.all<Record<string, unknown>>(sql, values)).map(splitConflictRow);
    };
    return conflictPage(await run('second'), conflictsNeedFirstSide(range) ? await run('first') : [], limit);
  }
}

/** A Service is in a conflict whichever side it is on; the address filter alone needs one side. */
export function conflictsNeedFirstSide(range: ConflictRange): boolean {
  return range.uid !== undefined || range.namespace !== undefined || range.name !== undefined;
}

/** One page of conflicts from the rows of both sides: in (second, first) id order, each once. */
export function conflictPage(second: ConflictRow[], first: ConflictRow[], limit: number): ConflictRow[] {
  const rows = [...second, ...first].sort((x, y) => x.second.id - y.second.id || x.first.id - y.first.id);
  const unique = rows.filter((r, i) => i === 0 || r.second.id !== rows[i - 1].second.id || r.first.id !== rows[i - 1].first.id);
  return unique.slice(0, limit);
}

/** A joined row (first_*, second_* columns) as the two intervals of a conflict. */
export function splitConflictRow(row: Record<string, unknown>): ConflictRow {
  const pick = (prefix: string) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, v]) => [k.slice(prefix.length), v]),
    ) as unknown as IntervalRow;
  return { first: pick('first_'), second: pick('second_') };
}
