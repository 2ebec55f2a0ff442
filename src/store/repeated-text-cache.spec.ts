import { RepeatedTextCache } from './repeated-text-cache';
import type { RepeatedTextFields } from './ports/event-row';
import type { SqlReader } from './sql/sql-reader';

/** A repeated_texts table behind the SQL port, counting the reads. */
function table(texts: Record<number, string>) {
  const reads: unknown[][] = [];
  const reader = {
    all: async (_sql: string, params: readonly unknown[] = []) => {
      reads.push([...params]);
      const [low, high] = params as [number, number];
      return Object.entries(texts)
        .filter(([id]) => Number(id) >= low && Number(id) <= high)
        .map(([id, text]) => ({ id: String(id), text }));
    },
  } as unknown as SqlReader;
  return { reader, reads };
}

const row = (groups: number | null, agent: number | null, manager: number | null, user: number | null = null): RepeatedTextFields => ({
  actorUser: user === null ? 'old-user' : '',
  actorUserId: user,
  actorGroups: groups === null ? '["old"]' : '',
  actorGroupsId: groups,
  userAgent: agent === null ? 'old-agent' : '',
  userAgentId: agent,
  fieldManager: manager === null ? 'old-manager' : '',
  fieldManagerId: manager,
});

describe('the repeated-text cache', () => {
  it('given rows with text ids, when resolved, then each id is its text, read once for the range of the ids not kept yet', async () => {
    const { reader, reads } = table({ 1: '["system:masters"]', 2: 'kubectl/v1.33', 3: 'kubectl-client-side-apply', 4: 'metallb', 5: 'kubernetes-admin', 9: 'unused' });
    const cache = new RepeatedTextCache(reader);
    const rows = await cache.resolve([row(1, 2, 3, 5), row(1, 4, 3, 5)]);
    expect(rows.map((r) => [r.actorUser, r.actorGroups, r.userAgent, r.fieldManager])).toEqual([
      ['kubernetes-admin', '["system:masters"]', 'kubectl/v1.33', 'kubectl-client-side-apply'],
      ['kubernetes-admin', '["system:masters"]', 'metallb', 'kubectl-client-side-apply'],
    ]);
    expect(reads).toEqual([[1, 5]]);
    // Kept: the same ids again read nothing.
    await cache.resolve([row(4, 2, 1, 3)]);
    expect(reads).toEqual([[1, 5]]);
  });

  it('given a row not converted yet (no ids), when resolved, then its own texts stand and nothing is read', async () => {
    const { reader, reads } = table({});
    const [resolved] = await new RepeatedTextCache(reader).resolve([row(null, null, null)]);
    expect([resolved.actorUser, resolved.actorGroups, resolved.userAgent, resolved.fieldManager]).toEqual(['old-user', '["old"]', 'old-agent', 'old-manager']);
    expect(reads).toEqual([]);
  });

  it('given an id the table does not hold, when resolved, then it throws rather than answer an empty text', async () => {
    const { reader } = table({ 1: 'a' });
    await expect(new RepeatedTextCache(reader).resolve([row(1, 7, 1)])).rejects.toThrow(/repeated text 7/);
  });

  it('given more texts than it keeps, when a range past the bound is read, then it starts over and still resolves', async () => {
    const texts: Record<number, string> = {};
    for (let id = 1; id <= 10_005; id++) texts[id] = `t${id}`;
    const { reader, reads } = table(texts);
    const cache = new RepeatedTextCache(reader);
    await cache.resolve([row(1, 1, 10_000)]);
    const [last] = await cache.resolve([row(10_005, 10_005, 10_005)]);
    expect(last.userAgent).toBe('t10005');
    // The first range was dropped: reading id 1 again reads the table again.
    await cache.resolve([row(1, 1, 1)]);
    expect(reads).toEqual([
      [1, 10_000],
      [10_005, 10_005],
      [1, 1],
    ]);
  });
});
