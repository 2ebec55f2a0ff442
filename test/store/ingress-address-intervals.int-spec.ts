// "Who held this address" is answered holder by holder (one seek for the interval that began
// before the window, then those inside it). Property: for random histories of one address among
// several holders (each holder's intervals disjoint, as the projection writes them), random
// windows and page sizes, the pages put together are exactly the intervals a brute-force
// overlap filter finds, in (from, id) order.
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DatabaseHandle, openDatabase } from '../../src/store/database';
import { IngressHistoryRepository } from '../../src/store/ingress-history-repository';
import type { IntervalRow } from '../../src/store/ports/ingress-history';
import { SqliteSqlReader } from '../../src/store/sqlite-sql-reader';

const ADDRESS = '203.0.113.7';

interface Seeded {
  uid: string;
  /** Gaps and lengths of consecutive intervals; the last may stay open. */
  spans: { gap: number; length: number }[];
  open: boolean;
  setBy: 'a' | 'b';
}

describe('ingress intervals of one address, holder by holder', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let repository: IngressHistoryRepository;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-address-'));
    handle = openDatabase({ path: join(dir, 'a.db'), migrationsFolder: join(__dirname, '../../migrations'), synchronous: 'NORMAL' });
    repository = new IngressHistoryRepository(new SqliteSqlReader(handle));
  });
  afterAll(() => {
    handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function seed(holders: Seeded[]): IntervalRow[] {
    handle.sqlite.exec('DELETE FROM ingress_intervals');
    const insert = handle.sqlite.prepare(
      `INSERT INTO ingress_intervals (address, address_type, uid, namespace, name, from_resource_version, from_time, set_by, to_resource_version, to_time, cleared_by)
       VALUES (?, 'ip', ?, 'ns', ?, ?, 't', ?, ?, ?, ?)`,
    );
    // Interleave holders' intervals in time order, as writes would.
    const rows: { uid: string; from: number; to: number | null; setBy: string }[] = [];
    for (const h of holders) {
      let at = 0;
      h.spans.forEach((s, i) => {
        const from = at + s.gap + 1;
        const last = i === h.spans.length - 1;
        const to = last && h.open ? null : from + s.length + 1;
        rows.push({ uid: h.uid, from, to, setBy: h.setBy });
        at = to ?? from;
      });
    }
    rows.sort((a, b) => a.from - b.from);
    for (const r of rows) insert.run(ADDRESS, r.uid, `svc-${r.uid}`, r.from, r.setBy, r.to, r.to === null ? null : 't', r.to === null ? null : 'x');
    return handle.sqlite
      .prepare('SELECT * FROM ingress_intervals')
      .all()
      .map((r: any) => ({ id: r.id, uid: r.uid, fromResourceVersion: r.from_resource_version, toResourceVersion: r.to_resource_version, setBy: r.set_by })) as IntervalRow[];
  }

  it('pages through exactly the intervals overlapping the window', async () => {
    const holder = (uid: string) =>
      fc.record({
        uid: fc.constant(uid),
        spans: fc.array(fc.record({ gap: fc.nat(20), length: fc.nat(20) }), { minLength: 0, maxLength: 30 }),
        open: fc.boolean(),
        setBy: fc.constantFrom('a' as const, 'b' as const),
      });
    await fc.assert(
      fc.asyncProperty(
        fc.array(holder('u1'), { minLength: 1, maxLength: 1 }).chain((first) => fc.tuple(fc.constant(first), holder('u2'), holder('u3'))),
        fc.nat(400),
        fc.nat(400),
        fc.integer({ min: 1, max: 7 }),
        fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
        fc.option(fc.constantFrom('ns', 'elsewhere'), { nil: undefined }),
        async ([[h1], h2, h3], x, y, limit, setBy, namespace) => {
          const all = seed([h1, h2, h3]);
          const fromRv = Math.min(x, y);
          const toRv = Math.max(x, y);
          const expected = all
            .filter((r) => r.fromResourceVersion <= toRv && (r.toResourceVersion === null || r.toResourceVersion > fromRv) && (setBy === undefined || r.setBy === setBy) && namespace !== 'elsewhere')
            .sort((a, b) => a.fromResourceVersion - b.fromResourceVersion || a.id - b.id)
            .map((r) => r.id);
          const got: number[] = [];
          let after: { from: number; id: number } | undefined;
          for (let pages = 0; pages < 1000; pages++) {
            const page = await repository.intervals({ address: ADDRESS, namespace, fromRv, toRv, windowed: fromRv > 0, setBy, after }, limit);
            got.push(...page.map((r) => r.id));
            if (page.length < limit) break;
            const last = page[page.length - 1];
            after = { from: last.fromResourceVersion, id: last.id };
          }
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });
});
