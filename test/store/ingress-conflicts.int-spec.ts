// Conflicts (two Services holding one address at once): for each interval of the scope, the other
// holders' intervals of its address (two uid ranges of the address index around its own holder).
// Property: for random histories
// of a few addresses among several holders (each holder's intervals disjoint, as the projection
// writes them; ids growing with the start, as written in log order), random scopes, windows and
// page sizes, the pages put together are exactly the pairs a brute-force overlap filter finds,
// in (later id, earlier id) order.
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DatabaseHandle, openDatabase } from '../../src/store/database';
import { IngressHistoryRepository } from '../../src/store/ingress-history-repository';
import type { ConflictRange, IntervalRow } from '../../src/store/ports/ingress-history';
import { SqliteSqlReader } from '../../src/store/sqlite-sql-reader';

const ADDRESSES = ['203.0.113.7', '203.0.113.8', 'lb.example.com'];
/** uid → (namespace, name): u3 is a re-created u1 (same name, new uid). */
const HOLDERS: Record<string, { namespace: string; name: string }> = {
  u1: { namespace: 'ns-a', name: 'web' },
  u2: { namespace: 'ns-a', name: 'api' },
  u3: { namespace: 'ns-a', name: 'web' },
  u4: { namespace: 'ns-b', name: 'web' },
};

interface Span {
  gap: number;
  length: number;
  address: number;
  hostname: boolean;
}

describe('ingress conflicts', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let repository: IngressHistoryRepository;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-conflicts-'));
    handle = openDatabase({ path: join(dir, 'c.db'), migrationsFolder: join(__dirname, '../../migrations'), synchronous: 'NORMAL' });
    repository = new IngressHistoryRepository(new SqliteSqlReader(handle));
  });
  afterAll(() => {
    handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function seed(histories: { uid: string; spans: Span[]; open: boolean }[]): IntervalRow[] {
    handle.sqlite.exec('DELETE FROM ingress_intervals');
    const insert = handle.sqlite.prepare(
      `INSERT INTO ingress_intervals (address, address_type, uid, namespace, name, from_resource_version, from_time, set_by, to_resource_version, to_time, cleared_by)
       VALUES (@address, @addressType, @uid, @namespace, @name, @from, 't', 'x', @to, @toTime, @clearedBy)`,
    );
    const rows: { uid: string; from: number; to: number | null; address: string; addressType: string }[] = [];
    for (const h of histories) {
      let at = 0;
      h.spans.forEach((s, i) => {
        const from = at + s.gap + 1;
        const to = i === h.spans.length - 1 && h.open ? null : from + s.length + 1;
        // The hostname-typed twin of an IP string never conflicts with the IP.
        rows.push({ uid: h.uid, from, to, address: ADDRESSES[s.address], addressType: s.hostname || s.address === 2 ? 'hostname' : 'ip' });
        at = to ?? from;
      });
    }
    // In log order: ids grow with the start.
    rows.sort((a, b) => a.from - b.from);
    for (const r of rows) insert.run({ ...r, ...HOLDERS[r.uid], toTime: r.to === null ? null : 't', clearedBy: r.to === null ? null : 'y' });
    return handle.sqlite
      .prepare(
        `SELECT id, address, address_type AS addressType, uid, namespace, name, from_resource_version AS fromResourceVersion, from_time AS fromTime, set_by AS setBy,
           to_resource_version AS toResourceVersion, to_time AS toTime, cleared_by AS clearedBy FROM ingress_intervals`,
      )
      .all() as IntervalRow[];
  }

  it('pages through exactly the overlapping pairs', async () => {
    const span = fc.record({ gap: fc.nat(15), length: fc.nat(25), address: fc.nat(2), hostname: fc.boolean().map((b) => b && Math.random() < 0.2) });
    const history = (uid: string) => fc.record({ uid: fc.constant(uid), spans: fc.array(span, { maxLength: 25 }), open: fc.boolean() });
    const scope = fc.constantFrom<Partial<ConflictRange>>(
      {},
      { namespace: 'ns-a' },
      { namespace: 'ns-b' },
      { namespace: 'ns-a', name: 'web' },
      { uid: 'u2' },
      { uid: 'u3', namespace: 'ns-a' },
      { address: '203.0.113.7' },
      { namespace: 'ns-a', address: '203.0.113.8' },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(history('u1'), history('u2'), history('u3'), history('u4')),
        scope,
        fc.nat(400),
        fc.nat(400),
        fc.integer({ min: 1, max: 6 }),
        async (histories, filters, x, y, limit) => {
          const all = seed(histories);
          const fromRv = Math.min(x, y);
          const toRv = Math.max(x, y);
          const inScope = (r: IntervalRow) =>
            (filters.uid === undefined || r.uid === filters.uid) &&
            (filters.namespace === undefined || r.namespace === filters.namespace) &&
            (filters.name === undefined || r.name === filters.name) &&
            (filters.address === undefined || r.address === filters.address);
          const scoped = filters.uid !== undefined || filters.namespace !== undefined || filters.name !== undefined;
          const expected: string[] = [];
          for (const b of all) {
            for (const a of all) {
              const overlap =
                a.address === b.address &&
                a.addressType === b.addressType &&
                a.uid !== b.uid &&
                a.id < b.id &&
                a.fromResourceVersion <= b.fromResourceVersion &&
                (a.toResourceVersion === null || a.toResourceVersion > b.fromResourceVersion);
              if (overlap && b.fromResourceVersion >= fromRv && b.fromResourceVersion <= toRv && (inScope(b) || (scoped && inScope(a)))) expected.push(`${b.id}.${a.id}`);
            }
          }
          expected.sort((p, q) => {
            const [pb, pa] = p.split('.').map(Number);
            const [qb, qa] = q.split('.').map(Number);
            return pb - qb || pa - qa;
          });
          const got: string[] = [];
          let after: ConflictRange['after'];
          for (let pages = 0; pages < 1000; pages++) {
            const page = await repository.conflicts({ ...filters, fromRv, toRv, after }, limit);
            got.push(...page.map((r) => `${r.second.id}.${r.first.id}`));
            // Whole rows, as the API serves them.
            for (const r of page) {
              expect(r.first).toEqual(all.find((i) => i.id === r.first.id));
              expect(r.second).toEqual(all.find((i) => i.id === r.second.id));
            }
            if (page.length < limit) break;
            const last = page[page.length - 1];
            after = { secondFrom: last.second.fromResourceVersion, secondId: last.second.id, firstId: last.first.id };
          }
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
