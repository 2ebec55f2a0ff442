// Reads the ingress history (ingress_intervals): intervals [from, to) of resourceVersions during
// which a Service held an address, who held an address at a point or during a window, and
// conflicts (two Services holding one address at once). By address: the address index; by
// Service: its scope index; across a namespace or the cluster within a window: the R*Tree
// ingress_interval_spans (closed intervals, see migrations 0003 and 0005), so no query walks unrelated history.
import type { DatabaseHandle } from './database';

export interface IntervalRow {
  id: number;
  address: string;
  addressType: 'ip' | 'hostname';
  uid: string;
  namespace: string;
  name: string;
  fromResourceVersion: number;
  fromTime: string;
  setBy: string;
  toResourceVersion: number | null;
  toTime: string | null;
  clearedBy: string | null;
}

export interface IntervalRange {
  namespace?: string;
  name?: string;
  uid?: string;
  address?: string;
  addressType?: string;
  setBy?: string;
  /** Intervals overlapping [fromRv, toRv]: from <= toRv and (open or to > fromRv). */
  fromRv: number;
  toRv: number;
  /** True when the window starts after the beginning of the log (it then needs an overlap search). */
  windowed: boolean;
  /** Keyset cursor: strictly after (from, id). */
  after?: { from: number; id: number };
}

export interface ConflictRow {
  first: IntervalRow;
  second: IntervalRow;
}

export interface ConflictRange {
  namespace?: string;
  name?: string;
  uid?: string;
  address?: string;
  /** Conflicts that began (the later assignment) within [fromRv, toRv]. */
  fromRv: number;
  toRv: number;
  after?: { secondFrom: number; secondId: number; firstId: number };
}

const columns = (alias: string, prefix = '') =>
  `${alias}.id AS ${prefix}id, ${alias}.address AS ${prefix}address, ${alias}.address_type AS ${prefix}addressType, ${alias}.uid AS ${prefix}uid,
   ${alias}.namespace AS ${prefix}namespace, ${alias}.name AS ${prefix}name, ${alias}.from_resource_version AS ${prefix}fromResourceVersion,
   ${alias}.from_time AS ${prefix}fromTime, ${alias}.set_by AS ${prefix}setBy, ${alias}.to_resource_version AS ${prefix}toResourceVersion,
   ${alias}.to_time AS ${prefix}toTime, ${alias}.cleared_by AS ${prefix}clearedBy`;

export class IngressHistoryRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  static intervalsSql(range: Omit<IntervalRange, 'fromRv' | 'toRv'>): string {
    const where = ['i.from_resource_version <= @toRv', '(i.to_resource_version IS NULL OR i.to_resource_version > @fromRv)'];
    let from: string;
    // (An address without a Service is read holder by holder: addressIntervals.)
    if (range.uid !== undefined) from = 'ingress_intervals i INDEXED BY ingress_intervals_uid_from';
    else if (range.name !== undefined) from = 'ingress_intervals i INDEXED BY ingress_intervals_name_from';
    else if (range.windowed) {
      // An overlap search: only intervals that touch the window, however much history surrounds
      // it. Closed intervals are in the R*Tree (CROSS JOIN keeps it the outer loop: SQLite never
      // reorders it); open ones, by their start, in a partial index.
      from = `(SELECT i.* FROM ingress_interval_spans s CROSS JOIN ingress_intervals i ON i.id = s.id WHERE s.from_rv <= @toRv AND s.to_rv > @fromRv
        UNION ALL SELECT * FROM ingress_intervals INDEXED BY ingress_intervals_open_from WHERE to_resource_version IS NULL AND from_resource_version <= @toRv) i`;
    } else if (range.namespace !== undefined) from = 'ingress_intervals i INDEXED BY ingress_intervals_namespace_from';
    else from = 'ingress_intervals i INDEXED BY ingress_intervals_from';
    if (range.uid !== undefined) where.push('i.uid = @uid');
    if (range.namespace !== undefined) where.push('i.namespace = @namespace');
    if (range.name !== undefined) where.push('i.name = @name');
    if (range.address !== undefined) where.push('i.address = @address');
    if (range.addressType !== undefined) where.push('i.address_type = @addressType');
    if (range.setBy !== undefined) where.push('i.set_by = @setBy');
    if (range.after) where.push('i.from_resource_version >= @afterFrom', '(i.from_resource_version > @afterFrom OR i.id > @afterId)');
    return `SELECT ${columns('i')} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY i.from_resource_version, i.id LIMIT @limit`;
  }

  intervals(range: IntervalRange, limit: number): IntervalRow[] {
    if (range.address !== undefined && range.uid === undefined && range.name === undefined) return this.addressIntervals(range, limit);
    const after = range.after ? { afterFrom: range.after.from, afterId: range.after.id } : {};
    return this.handle.statement(IngressHistoryRepository.intervalsSql(range)).all({ ...range, windowed: undefined, ...after, limit }) as IntervalRow[];
  }

  /**
   * The intervals of one address, holder by holder. A holder's intervals of an address never
   * overlap, so of those that began before the window only its newest can reach into it: one
   * seek per holder, then the ones that began inside the window. The cost follows the holders
   * and the answer, not how many times the address was assigned.
   */
  private addressIntervals(range: IntervalRange, limit: number): IntervalRow[] {
    const address = range.address!;
    const nextHolder = this.handle.statement(
      'SELECT uid FROM ingress_intervals INDEXED BY ingress_intervals_address_uid_from WHERE address = ? AND uid > ? ORDER BY uid LIMIT 1',
    );
    const filters = [
      ...(range.namespace !== undefined ? ['i.namespace = @namespace'] : []),
      ...(range.addressType !== undefined ? ['i.address_type = @addressType'] : []),
      ...(range.setBy !== undefined ? ['i.set_by = @setBy'] : []),
    ].map((f) => ` AND ${f}`).join('');
    const newestBefore = this.handle.statement(
      `SELECT ${columns('i')} FROM ingress_intervals i INDEXED BY ingress_intervals_address_uid_from
       WHERE i.address = @address AND i.uid = @uid AND i.from_resource_version < @fromRv ORDER BY i.from_resource_version DESC, i.id DESC LIMIT 1`,
    );
    const within = this.handle.statement(
      `SELECT ${columns('i')} FROM ingress_intervals i INDEXED BY ingress_intervals_address_uid_from
       WHERE i.address = @address AND i.uid = @uid AND i.from_resource_version >= @fromRv AND i.from_resource_version <= @toRv
         AND i.from_resource_version >= @afterFrom${filters}
       ORDER BY i.from_resource_version, i.id LIMIT @limit`,
    );
    const afterFrom = range.after?.from ?? 0;
    const afterId = range.after?.id ?? 0;
    const isAfterCursor = (r: IntervalRow) => !range.after || r.fromResourceVersion > afterFrom || (r.fromResourceVersion === afterFrom && r.id > afterId);
    const matches = (r: IntervalRow) =>
      (range.namespace === undefined || r.namespace === range.namespace) &&
      (range.addressType === undefined || r.addressType === range.addressType) && (range.setBy === undefined || r.setBy === range.setBy);
    const rows: IntervalRow[] = [];
    for (let uid = nextHolder.pluck().get(address, '') as string | undefined; uid !== undefined; uid = nextHolder.pluck().get(address, uid) as string | undefined) {
      const params = { address, uid, fromRv: range.fromRv, toRv: range.toRv, afterFrom, namespace: range.namespace, addressType: range.addressType, setBy: range.setBy };
      const before = newestBefore.get(params) as IntervalRow | undefined;
      if (before && (before.toResourceVersion === null || before.toResourceVersion > range.fromRv) && matches(before) && isAfterCursor(before)) rows.push(before);
      // One more than a page per holder: rows at the cursor's own resourceVersion are skipped below.
      rows.push(...(within.all({ ...params, limit: limit + 1 }) as IntervalRow[]).filter(isAfterCursor));
    }
    rows.sort((a, b) => a.fromResourceVersion - b.fromResourceVersion || a.id - b.id);
    return rows.slice(0, limit);
  }

  /**
   * The scope's own intervals that can take part in a conflict, in (from, id) order, a batch at a
   * time after a keyset cursor: as the later-assigned side (`second`: begun inside the window) or
   * as the earlier one (`first`: begun by the window's end and still open after its start).
   */
  static conflictDriversSql(range: Omit<ConflictRange, 'fromRv' | 'toRv' | 'after'>, side: 'first' | 'second'): string {
    let index: string;
    if (range.uid !== undefined) index = 'ingress_intervals_uid_from';
    else if (range.name !== undefined && range.namespace !== undefined) index = 'ingress_intervals_name_from';
    else if (range.namespace !== undefined) index = 'ingress_intervals_namespace_from';
    else if (range.address !== undefined) index = 'ingress_intervals_address_uid_from';
    else index = 'ingress_intervals_from';
    const where = ['i.from_resource_version <= @toRv', '(i.from_resource_version > @keyFrom OR (i.from_resource_version = @keyFrom AND i.id > @keyId))'];
    if (side === 'second') where.push('i.from_resource_version >= @fromRv');
    else where.push('(i.to_resource_version IS NULL OR i.to_resource_version > @fromRv)');
    if (range.uid !== undefined) where.push('i.uid = @uid');
    if (range.namespace !== undefined) where.push('i.namespace = @namespace');
    if (range.name !== undefined) where.push('i.name = @name');
    if (range.address !== undefined) where.push('i.address = @address');
    return `SELECT ${columns('i')} FROM ingress_intervals i INDEXED BY ${index} WHERE ${where.join(' AND ')} ORDER BY i.from_resource_version, i.id LIMIT @batch`;
  }

  /**
   * Conflicts (two Services holding one address at once) where the later-assigned side
   * (`second`, begun inside the window) or, for a Service, namespace or uid scope, the earlier
   * side is in the scope, ordered by (second.id, first.id), holder by holder: a holder's
   * intervals of one address never overlap, so for each interval of the scope and each other
   * holder of its address, one seek finds the only interval of that holder open when it began,
   * and one range finds those of that holder that began while it was open. The cost follows the
   * scope's intervals and the address's distinct holders, not how many times an address was
   * assigned. Interval ids grow with their start (rows are written in log order), so (from, id)
   * order is id order and the walk stops once a page is complete.
   */
  conflicts(range: ConflictRange, limit: number): ConflictRow[] {
    const scoped = range.uid !== undefined || range.namespace !== undefined || range.name !== undefined;
    const after = range.after;
    const isAfter = (r: ConflictRow) => !after || r.second.id > after.secondId || (r.second.id === after.secondId && r.first.id > after.firstId);
    const fromRv = Math.max(range.fromRv, after?.secondFrom ?? 0);
    const holdersOf = this.holderCache();
    const openAt = this.handle.statement(
      `SELECT ${columns('i')} FROM ingress_intervals i INDEXED BY ingress_intervals_address_uid_from
       WHERE i.address = @address AND i.uid = @uid AND i.from_resource_version <= @at AND i.address_type = @addressType
       ORDER BY i.from_resource_version DESC, i.id DESC LIMIT 1`,
    );
    const begunDuring = this.handle.statement(
      `SELECT ${columns('i')} FROM ingress_intervals i INDEXED BY ingress_intervals_address_uid_from
       WHERE i.address = @address AND i.uid = @uid AND i.from_resource_version >= @from AND i.from_resource_version <= @to
         AND i.address_type = @addressType AND i.id > @id
       ORDER BY i.from_resource_version, i.id LIMIT @limit`,
    );
    // Only conflicts after the cursor count towards the page, each once (both its holders may be in the scope).
    const found: ConflictRow[] = [];
    const seen = new Set<string>();
    const add = (r: ConflictRow) => {
      const key = `${r.second.id}.${r.first.id}`;
      if (!isAfter(r) || seen.has(key)) return;
      seen.add(key);
      found.push(r);
    };
    let sortedUpTo = 0;
    let end: IntervalRow | undefined;
    const pageEnd = () => {
      if (found.length >= limit && found.length !== sortedUpTo) {
        found.sort(byConflictOrder);
        sortedUpTo = found.length;
        end = found[limit - 1].second;
      }
      return end;
    };
    // Each side's intervals in (from, id) order; a side stops once the page is complete and its
    // next interval (and so every conflict it could still add) comes after the page's last one.
    const walk = (side: 'first' | 'second', each: (i: IntervalRow) => void) => {
      const drivers = this.handle.statement(IngressHistoryRepository.conflictDriversSql(range, side));
      const params = { uid: range.uid, namespace: range.namespace, name: range.name, address: range.address, fromRv, toRv: range.toRv, batch: CONFLICT_BATCH };
      let key = { keyFrom: -1, keyId: -1 };
      for (;;) {
        const rows = drivers.all({ ...params, ...key }) as IntervalRow[];
        for (const row of rows) {
          const end = pageEnd();
          if (end && (row.fromResourceVersion > end.fromResourceVersion || (side === 'second' && row.id > end.id))) return;
          each(row);
        }
        if (rows.length < CONFLICT_BATCH) return;
        const last = rows[rows.length - 1];
        key = { keyFrom: last.fromResourceVersion, keyId: last.id };
      }
    };
    walk('second', (b) => {
      for (const uid of holdersOf(b.address)) {
        if (uid === b.uid) continue;
        const a = openAt.get({ address: b.address, uid, at: b.fromResourceVersion, addressType: b.addressType }) as IntervalRow | undefined;
        if (a && a.id < b.id && (a.toResourceVersion === null || a.toResourceVersion > b.fromResourceVersion)) add({ first: a, second: b });
      }
    });
    if (scoped) {
      walk('first', (a) => {
        for (const uid of holdersOf(a.address)) {
          if (uid === a.uid) continue;
          const to = a.toResourceVersion === null ? range.toRv : Math.min(range.toRv, a.toResourceVersion - 1);
          const params = { address: a.address, uid, from: Math.max(a.fromResourceVersion, fromRv), to, addressType: a.addressType, id: a.id, limit: limit + 1 };
          for (const b of begunDuring.all(params) as IntervalRow[]) add({ first: a, second: b });
        }
      });
    }
    return found.sort(byConflictOrder).slice(0, limit);
  }

  /** The distinct holders (uids) of an address, each address read once per call of the returned function's owner. */
  private holderCache(): (address: string) => string[] {
    const nextHolder = this.handle.statement(
      'SELECT uid FROM ingress_intervals INDEXED BY ingress_intervals_address_uid_from WHERE address = ? AND uid > ? ORDER BY uid LIMIT 1',
    );
    const cache = new Map<string, string[]>();
    return (address) => {
      let holders = cache.get(address);
      if (!holders) {
        holders = [];
        for (let uid = nextHolder.pluck().get(address, '') as string | undefined; uid !== undefined; uid = nextHolder.pluck().get(address, uid) as string | undefined) holders.push(uid);
        cache.set(address, holders);
      }
      return holders;
    };
  }
}

/** Intervals of a scope read per round while looking for conflicts. */
const CONFLICT_BATCH = 200;

const byConflictOrder = (x: ConflictRow, y: ConflictRow) => x.second.id - y.second.id || x.first.id - y.first.id;

