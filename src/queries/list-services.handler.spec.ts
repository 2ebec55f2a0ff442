import type { ListPageRequest, ServiceReads, ServiceReadStore, ServiceRow } from '../store/ports/service-read-store';
import { ExpiredError } from '../domain/errors/domain-errors';
import { decodeContinue, encodeContinue } from './continue-token';
import { ListServicesHandler } from './list-services.handler';
import { type ListServicesOptions, ListServicesQuery } from './service.queries';

/** An in-memory store of `count` Services in namespace `ns`, recording every page it is asked for. */
function storeOf(count: number, labelled: (i: number) => boolean = () => true, horizon = 0) {
  const rows: ServiceRow[] = Array.from({ length: count }, (_, i) => {
    const name = `svc-${String(i).padStart(4, '0')}`;
    const labels = labelled(i) ? { app: 'web' } : {};
    return { namespace: 'ns', name, json: JSON.stringify({ kind: 'Service', apiVersion: 'v1', metadata: { name, namespace: 'ns', labels } }) };
  });
  const asked: ListPageRequest[] = [];
  const reads: ServiceReads = {
    head: async () => 100,
    horizon: async () => horizon,
    resourceVersionAt: async () => 100,
    firstPositionAtOrAfter: async () => 101,
    writeStartAtOrAfter: async () => 1,
    liveJson: async () => undefined,
    jsonAsOf: async () => undefined,
    listPage: async (request) => {
      asked.push(request);
      const after = request.after;
      return rows.filter((r) => !after || r.name > after.name).slice(0, request.limit);
    },
  };
  const store: ServiceReadStore = { ...reads, ready: async () => true, inSnapshot: (run) => run(reads) };
  return { store, asked };
}

const list = (store: ServiceReadStore, options: Omit<ListServicesOptions, 'namespace'>) => new ListServicesHandler(store).execute(new ListServicesQuery({ namespace: 'ns', ...options }));

describe('ListServicesHandler pages', () => {
  it('given no selector, when a page of 10 is listed, then it reads 11 rows: the items and one to know there are more', async () => {
    const { store, asked } = storeOf(100);
    const page = await list(store, { limit: 10 });
    expect(page.items.map((i) => i.object.metadata.name)).toEqual(Array.from({ length: 10 }, (_, i) => `svc-${String(i).padStart(4, '0')}`));
    expect(page.metadata.continue).toBeDefined();
    expect(asked.map((r) => r.limit)).toEqual([11]);
  });

  it('given no selector, when the last page is exactly full, then no continue token is handed out', async () => {
    const { store } = storeOf(20);
    const first = await list(store, { limit: 10 });
    const second = await list(store, { limit: 10, continue: first.metadata.continue });
    expect(second.items.map((i) => i.object.metadata.name)).toEqual(Array.from({ length: 10 }, (_, i) => `svc-${String(10 + i).padStart(4, '0')}`));
    expect(second.metadata.continue).toBeUndefined();
  });

  it('given a label selector most rows fail, when a page of 10 is listed, then it reads batch after batch until the page is full', async () => {
    const { store, asked } = storeOf(2000, (i) => i % 150 === 0);
    const page = await list(store, { limit: 10, labelSelector: 'app=web' });
    expect(page.items.map((i) => i.object.metadata.name)).toEqual(Array.from({ length: 10 }, (_, i) => `svc-${String(i * 150).padStart(4, '0')}`));
    expect(page.metadata.continue).toBeDefined();
    expect(asked.map((r) => r.limit)).toEqual([500, 500, 500]);
  });

  it('given a limit past any count (99999999999999999999), when listed, then it reads batches of 500 and returns everything', async () => {
    const { store, asked } = storeOf(1100);
    const page = await list(store, { limit: Number('99999999999999999999') });
    expect(page.items).toHaveLength(1100);
    expect(page.metadata.continue).toBeUndefined();
    expect(asked.map((r) => r.limit)).toEqual([500, 500, 500]);
  });

  it('given nothing written since the first page, when the next page is listed, then it reads the current table, not the revisions', async () => {
    const { store, asked } = storeOf(30);
    const first = await list(store, { limit: 10 });
    const second = await list(store, { limit: 10, continue: first.metadata.continue });
    expect(second.metadata.resourceVersion).toBe('100');
    expect(second.items[0].object.metadata.name).toBe('svc-0010');
    expect(asked.map((r) => r.asOf)).toEqual([undefined, undefined]);
  });

  it('given writes since the first page, when the next page is listed, then it reads the snapshot of the first page from the revisions', async () => {
    const { store, asked } = storeOf(30);
    const first = await list(store, { limit: 10 });
    const later = { ...store, inSnapshot: <T>(run: (reads: ServiceReads) => Promise<T>) => store.inSnapshot((reads) => run({ ...reads, head: async () => 105 })) };
    const second = await list(later, { limit: 10, continue: first.metadata.continue });
    expect(second.metadata.resourceVersion).toBe('100');
    expect(asked.map((r) => r.asOf)).toEqual([undefined, 100]);
  });

  it('given no limit, when the namespace is listed, then every item comes back without a continue token', async () => {
    const { store } = storeOf(1100);
    const page = await list(store, {});
    expect(page.items).toHaveLength(1100);
    expect(page.metadata.continue).toBeUndefined();
  });
});

describe('ListServicesHandler below the compaction horizon', () => {
  const token = (rv: number) => encodeContinue({ resourceVersion: rv, after: { namespace: 'ns', name: 'svc-0004' } });

  it('given a horizon at 50, when a LIST is Exact at 40, then it is 410 Expired in etcd3 words', async () => {
    const { store } = storeOf(10, undefined, 50);
    await expect(list(store, { resourceVersion: '40', resourceVersionMatch: 'Exact' })).rejects.toEqual(new ExpiredError('The resourceVersion for the provided list is too old.'));
  });

  it('given a horizon at 50, when a continue token holds snapshot 40, then it is 410 with a token to go on at the newest state from the same key', async () => {
    const { store } = storeOf(10, undefined, 50);
    const error = (await list(store, { continue: token(40) }).catch((e: unknown) => e)) as ExpiredError;
    expect(error).toBeInstanceOf(ExpiredError);
    expect(error.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\./);
    expect(decodeContinue(error.continueToken!)).toEqual({ resourceVersion: -1, after: { namespace: 'ns', name: 'svc-0004' } });
  });

  it('given that token, when it is followed, then the newest state is read after the key', async () => {
    const { store, asked } = storeOf(10, undefined, 50);
    const page = await list(store, { continue: token(-1), limit: 2 });
    expect(page.items.map((i) => i.object.metadata.name)).toEqual(['svc-0005', 'svc-0006']);
    expect(page.metadata.resourceVersion).toBe('100');
    expect(asked[0]).toMatchObject({ asOf: undefined, after: { namespace: 'ns', name: 'svc-0004' } });
  });

  it('given a continue token at the head, when it is followed, then the horizon is not read: the current table is above it', async () => {
    const { store, asked } = storeOf(10, undefined, 50);
    const horizon = jest.spyOn(await store.inSnapshot(async (reads) => reads), 'horizon');
    const page = await list(store, { continue: token(100), limit: 2 });
    expect(page.items.map((i) => i.object.metadata.name)).toEqual(['svc-0005', 'svc-0006']);
    expect(asked[0].asOf).toBeUndefined();
    expect(horizon).not.toHaveBeenCalled();
    // Below the head it is read (and the snapshot is above it here).
    await list(store, { continue: token(60), limit: 2 });
    expect(horizon).toHaveBeenCalledTimes(1);
  });

  it('given a horizon at 50, when a LIST is Exact at the horizon, then it reads that snapshot', async () => {
    const { store, asked } = storeOf(10, undefined, 50);
    await list(store, { resourceVersion: '50', resourceVersionMatch: 'Exact', limit: 1 });
    expect(asked[0].asOf).toBe(50);
  });
});
