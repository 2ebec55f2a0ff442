import { checksumLinks, factsChecksumSteps, type FactsRange } from './facts-checksum';

/** An events table of `count` rows as a driver reads it; `override` changes a row's columns. */
function log(count: number, override: (position: number) => Record<string, unknown> = () => ({})) {
  return Array.from({ length: count }, (_, i) => ({
    position: i + 1,
    resource_version: i + 1,
    stream_id: `uid-${i % 7}`,
    stream_version: Math.floor(i / 7) + 1,
    namespace: 'default',
    name: `svc-${i % 7}`,
    type: 'ServiceStatusChanged',
    data: JSON.stringify({ ingress: [{ ip: `10.0.0.${i % 250}` }] }),
    recorded_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    actor_user: 'lb',
    actor_groups: '["system:authenticated"]',
    user_agent: 'lb/1.0',
    field_manager: 'lb',
    request_id: `r-${i}`,
    verb: 'update',
    subresource: 'status',
    ...override(i + 1),
  }));
}

/** Runs the steps over rows as the engines' drivers do; returns the checksum and the statements' parameters. */
function run(rows: Record<string, unknown>[], range: FactsRange, seed: string | null): { checksum: string; reads: unknown[][] } {
  const reads: unknown[][] = [];
  const steps = factsChecksumSteps(range, seed);
  for (let next = steps.next([]); ;) {
    if (next.done) return { checksum: next.value, reads };
    const [after, through] = next.value.params as number[];
    reads.push([after, through]);
    expect(next.value.sql).toMatch(/LIMIT 2000$/);
    next = steps.next(rows.filter((r) => (r.position as number) > after && (r.position as number) <= through).slice(0, 2000));
  }
}

describe('facts checksum', () => {
  it('given a log longer than a page, when checksummed, then it is read in pages by position up to the horizon', () => {
    const { checksum, reads } = run(log(4500), { after: 0, through: 4200 }, null);
    expect(checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(reads).toEqual([
      [0, 4200],
      [2000, 4200],
      [4000, 4200],
    ]);
  });

  it('given the same events, when checksummed twice, then the checksums are equal; integers read as text (PostgreSQL bigint) give the same', () => {
    const asText = log(300, (p) => ({ position: String(p), resource_version: String(p) }));
    expect(run(log(300), { after: 0, through: 300 }, null).checksum).toBe(run(asText, { after: 0, through: 300 }, null).checksum);
  });

  it('given one event changed in any column, when checksummed, then the checksum differs', () => {
    const base = run(log(300), { after: 0, through: 300 }, null).checksum;
    expect(
      run(
        log(300, (p) => (p === 150 ? { user_agent: 'lb/1.1' } : {})),
        { after: 0, through: 300 },
        null,
      ).checksum,
    ).not.toBe(base);
    expect(
      run(
        log(300, (p) => (p === 1 ? { data: '{}' } : {})),
        { after: 0, through: 300 },
        null,
      ).checksum,
    ).not.toBe(base);
  });

  it('given an event above the horizon changed, when checksummed to the horizon, then the checksum is unchanged', () => {
    const base = run(log(300), { after: 0, through: 200 }, null).checksum;
    expect(
      run(
        log(300, (p) => (p === 250 ? { user_agent: 'other' } : {})),
        { after: 0, through: 200 },
        null,
      ).checksum,
    ).toBe(base);
  });

  it('given a link seeded with the previous checksum, when its seed differs, then so does the link', () => {
    const first = run(log(300), { after: 0, through: 100 }, null).checksum;
    const second = run(log(300), { after: 100, through: 300 }, first).checksum;
    expect(run(log(300), { after: 100, through: 300 }, null).checksum).not.toBe(second);
    expect(run(log(300), { after: 100, through: 300 }, first).checksum).toBe(second);
  });

  it('given compactions, when linked, then each checksum is checked from its predecessor; one without a checksum is skipped; a missing predecessor cannot match', () => {
    const links = checksumLinks([
      { id: 1, horizon: 100, checksum: 'sha256:a', after: 0 },
      { id: 2, horizon: 150 },
      { id: 3, horizon: 200, checksum: 'sha256:b', after: 100 },
      { id: 4, horizon: 300, checksum: 'sha256:c', after: 250 },
    ]);
    expect(links).toEqual([
      { id: 1, range: { after: 0, through: 100 }, seed: null, recorded: 'sha256:a' },
      { id: 3, range: { after: 100, through: 200 }, seed: 'sha256:a', recorded: 'sha256:b' },
      { id: 4, range: { after: 250, through: 300 }, seed: 'missing compaction at 250', recorded: 'sha256:c' },
    ]);
  });
});
