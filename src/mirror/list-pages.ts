// The pages of one paged LIST of the source, read as client-go's pager reads them (`limit`, then
// each page's `continue`), all at the snapshot of the first. A relist walks them twice (the names
// first, so that what is gone is deleted before anything is created; then the objects) holding at
// most a page and the next one: the first page is kept, each later one is read again by the
// continue token that named it. kube-apiserver answers a token with the same page until etcd
// compacts past its snapshot; then 410, and the reflector lists anew.

/** One page: its items as the source sent them, the list's resourceVersion, the next page's token ('' on the last). */
export interface ListPage {
  items: unknown[];
  resourceVersion: string;
  next: string;
}

interface ObjectList {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: unknown[];
}

export class ListPages {
  private first?: ListPage;
  /** The token of each page after the first, in order: what a second walk reads them by. */
  private readonly tokens: string[] = [];

  constructor(
    /** GETs the collection with this query (`limit=…&continue=…`). */
    private readonly get: (query: string) => Promise<unknown>,
    private readonly limit: number,
  ) {}

  /**
   * Every page, from the first; each next one is fetched while the one before is handled. With
   * `again`, the first page and every token are kept for a second walk.
   */
  async *read(options: { again?: boolean } = {}): AsyncGenerator<ListPage> {
    let next: Promise<ListPage> | undefined = this.fetch('');
    for (let i = 0; next; i++) {
      const page: ListPage = await next;
      if (options.again) {
        if (i === 0) this.first = page;
        if (page.next) this.tokens.push(page.next);
      }
      next = page.next ? this.prefetch(page.next) : undefined;
      yield page;
    }
  }

  /** The pages read({ again: true }) gave, again and the same (an error if the source answers a token with another page). */
  async *again(): AsyncGenerator<ListPage> {
    if (!this.first) throw new Error('the LIST was not read for a second walk');
    const { resourceVersion } = this.first;
    // From here on only the tokens are kept: the first page goes once it is handled.
    let next: Promise<ListPage> | undefined = Promise.resolve(this.first);
    this.first = undefined;
    for (let i = 0; next; i++) {
      const page: ListPage = await next;
      if (i > 0 && (page.next !== (this.tokens[i] ?? '') || page.resourceVersion !== resourceVersion)) {
        throw new Error(`the source answered a page of its LIST at resourceVersion ${resourceVersion} with another one when asked again (resourceVersion ${page.resourceVersion})`);
      }
      next = i < this.tokens.length ? this.prefetch(this.tokens[i]) : undefined;
      yield page;
    }
  }

  private async fetch(token: string): Promise<ListPage> {
    const list = (await this.get(`limit=${this.limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`)) as ObjectList;
    return { items: list.items ?? [], resourceVersion: list.metadata?.resourceVersion ?? '', next: list.metadata?.continue ?? '' };
  }

  /** A page asked for ahead: its failure is the walk's when it gets there, never an unhandled rejection if the walk stops first. */
  private prefetch(token: string): Promise<ListPage> {
    const page = this.fetch(token);
    page.catch(() => undefined);
    return page;
  }
}
