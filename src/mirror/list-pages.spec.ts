import { type ListPage, ListPages } from './list-pages';

/** A source's paged LIST at one snapshot: pages of `items` by continue token, each GET logged. */
function pagedSource(pages: string[][], resourceVersion = '40') {
  const asked: string[] = [];
  const state = { lost: false };
  const get = (query: string) => {
    asked.push(query);
    // The snapshot is gone and the source pages from its newest state: nothing lines up any more.
    if (state.lost) return Promise.resolve({ metadata: { resourceVersion: '41', continue: 'p9' }, items: [{ metadata: { name: query } }] });
    const token = new URLSearchParams(query).get('continue');
    const at = token === null ? 0 : Number(token.slice(1));
    const next = at + 1 < pages.length ? `p${at + 1}` : undefined;
    return Promise.resolve({ metadata: { resourceVersion, ...(next ? { continue: next } : {}) }, items: pages[at].map((name) => ({ metadata: { name } })) });
  };
  return { asked, get, state };
}

const names = (page: ListPage) => page.items.map((item) => (item as { metadata: { name: string } }).metadata.name);

describe('ListPages', () => {
  it('reads page after page by continue token, asking for the next one before the one before is handled', async () => {
    const source = pagedSource([['a', 'b'], ['c', 'd'], ['e']]);
    const seen: [string[], string[]][] = [];
    for await (const page of new ListPages(source.get, 2).read()) seen.push([names(page), [...source.asked]]);
    expect(seen).toEqual([
      [
        ['a', 'b'],
        ['limit=2', 'limit=2&continue=p1'],
      ],
      [
        ['c', 'd'],
        ['limit=2', 'limit=2&continue=p1', 'limit=2&continue=p2'],
      ],
      [['e'], ['limit=2', 'limit=2&continue=p1', 'limit=2&continue=p2']],
    ]);
  });

  it('walks the same pages again: the first as kept, each later one by the token that named it, nothing more', async () => {
    const source = pagedSource([['a', 'b'], ['c', 'd'], ['e']]);
    const pages = new ListPages(source.get, 2);
    for await (const page of pages.read({ again: true })) expect(page.resourceVersion).toBe('40');
    source.asked.length = 0;
    const again: string[][] = [];
    for await (const page of pages.again()) again.push(names(page));
    expect(again).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(source.asked).toEqual(['limit=2&continue=p1', 'limit=2&continue=p2']);
  });

  it('refuses a second walk of a LIST read without keeping it, and a source that answers a token with another page', async () => {
    const plain = new ListPages(pagedSource([['a']]).get, 2);
    for await (const _page of plain.read()) continue;
    await expect(plain.again().next()).rejects.toThrow(/not read for a second walk/);

    const source = pagedSource([['a', 'b'], ['c', 'd'], ['e']]);
    const pages = new ListPages(source.get, 2);
    for await (const _page of pages.read({ again: true })) continue;
    source.state.lost = true;
    const walk = pages.again();
    expect(names((await walk.next()).value as ListPage)).toEqual(['a', 'b']);
    await expect(walk.next()).rejects.toThrow(/answered a page of its LIST at resourceVersion 40 with another one/);
  });

  it('gives a failed page to the walk that reaches it, and nothing unhandled to a walk that stopped before it', async () => {
    const failing = (query: string) => (query.includes('continue') ? Promise.reject(new Error('410 Expired')) : Promise.resolve({ metadata: { resourceVersion: '1', continue: 'p1' }, items: [] }));
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const stopped = new ListPages(failing, 2).read();
      await stopped.next();
      await stopped.return(undefined);
      const reached = new ListPages(failing, 2).read();
      await reached.next();
      await expect(reached.next()).rejects.toThrow('410 Expired');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
