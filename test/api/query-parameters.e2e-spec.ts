// Boolean and integer query parameters over real HTTPS, read as kube-apiserver reads them
// (apimachinery runtime/conversion.go on the first value): only 0 and false (any case) are false,
// a bare or empty parameter is true; integers are strconv.ParseInt's, and a bad one is the
// handler's 400 BadRequest with strconv's text, on lists and watches of Services and Events,
// deletes and applies.
import { WatchRegistry } from '../../src/watch/watch-registry';
import { startTestServer, type TestServer } from '../helpers/test-server';

const NS = 'qparams';
const SERVICES = `/api/v1/namespaces/${NS}/services`;
const EVENTS = `/api/v1/namespaces/${NS}/events`;
const APPLY = 'application/apply-patch+yaml';
const svc = (name: string) => ({ metadata: { name }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
const badRequest = (message: string) => JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
const parseIntError = (text: string, reason = 'invalid syntax') => badRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: ${reason}`);

describe('query parameters as kube-apiserver reads them', () => {
  let t: TestServer;
  /** Before this suite's writes: watches replay them from here. */
  let from: string;

  beforeAll(async () => {
    t = await startTestServer();
    from = (await t.client.get(SERVICES)).json.metadata.resourceVersion;
    for (const name of ['a', 'b', 'c']) expect((await t.client.post(SERVICES, svc(name))).status).toBe(201);
  });
  afterAll(async () => t.stop());

  /** The whole answer of a request that may be a watch: the server ends a watch after a second. */
  const answer = (path: string, query: string) => t.client.get(`${path}?${query}&resourceVersion=${from}&timeoutSeconds=1`);

  describe('watch', () => {
    it.each(['watch=True', 'watch=TRUE', 'watch=1', 'watch=yes', 'watch=', 'watch', 'watch=1&watch=0'])('?%s is a watch', async (query) => {
      const answers = await Promise.all([SERVICES, EVENTS].flatMap((path) => [answer(path, query), answer(path, 'watch=true')]));
      for (const [res, canonical] of [answers.slice(0, 2), answers.slice(2)]) {
        expect([res.status, res.headers['content-type']]).toEqual([200, 'application/json']);
        expect(res.text).toBe(canonical.text);
        expect(
          res.text
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l).type),
        ).toContain('ADDED');
      }
    });

    it.each(['watch=0', 'watch=false', 'watch=False', 'watch=FALSE', 'watch=fal%C5%BFe', 'watch=0&watch=1'])('?%s is a list', async (query) => {
      expect((await answer(SERVICES, query)).json).toMatchObject({ kind: 'ServiceList', items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }, { metadata: { name: 'c' } }] });
      expect((await answer(EVENTS, query)).json.kind).toBe('EventList');
    });
  });

  it('allowWatchBookmarks: True and a bare name ask for bookmarks, 0 and FALSE do not', async () => {
    const registry = t.server.app.get(WatchRegistry);
    const interval = registry.bookmarkIntervalMs;
    registry.bookmarkIntervalMs = 100;
    try {
      const head = (await t.client.get(SERVICES)).json.metadata.resourceVersion;
      const bookmarks = async (query: string) => {
        const res = await t.client.get(`${SERVICES}?watch=1&resourceVersion=${head}&timeoutSeconds=1&${query}`);
        expect(res.status).toBe(200);
        return res.text
          .split('\n')
          .filter(Boolean)
          .filter((l) => JSON.parse(l).type === 'BOOKMARK').length;
      };
      const [upper, bare, zero, falsy] = await Promise.all(['allowWatchBookmarks=True', 'allowWatchBookmarks', 'allowWatchBookmarks=0', 'allowWatchBookmarks=FALSE'].map(bookmarks));
      expect(upper).toBeGreaterThan(0);
      expect(bare).toBeGreaterThan(0);
      expect([zero, falsy]).toEqual([0, 0]);
    } finally {
      registry.bookmarkIntervalMs = interval;
    }
  });

  describe('timeoutSeconds and limit', () => {
    it.each([
      ['abc', 'invalid syntax'],
      ['', 'invalid syntax'],
      ['1.5', 'invalid syntax'],
      ['%201', 'invalid syntax', ' 1'],
      ['0x10', 'invalid syntax'],
      ['99999999999999999999', 'value out of range'],
    ])('timeoutSeconds=%s is a 400 on lists and watches, of both paths', async (value, reason, text = value) => {
      for (const path of [SERVICES, `${SERVICES}?watch=true`, `/api/v1/watch/namespaces/${NS}/services`, EVENTS, `${EVENTS}?watch=1`, '/api/v1/watch/events']) {
        const res = await t.client.get(`${path}${path.includes('?') ? '&' : '?'}timeoutSeconds=${value}`);
        expect({ path, text: res.text }).toEqual({ path, text: parseIntError(text, reason) });
      }
    });

    it.each([
      ['abc', 'invalid syntax'],
      ['', 'invalid syntax'],
      ['2.0', 'invalid syntax'],
      ['1e3', 'invalid syntax'],
      ['9223372036854775808', 'value out of range'],
    ])('limit=%s is a 400 on lists of Services and Events', async (value, reason) => {
      for (const path of [SERVICES, EVENTS, '/api/v1/services']) {
        expect((await t.client.get(`${path}?limit=${value}`)).text).toBe(parseIntError(value, reason));
      }
    });

    it('limit takes a sign and the first of repeated values; 0 and negatives are no limit', async () => {
      const names = async (query: string) => {
        const res = await t.client.get(`${SERVICES}?${query}`);
        expect(res.status).toBe(200);
        return [res.json.items.map((s: any) => s.metadata.name), res.json.metadata.continue !== undefined];
      };
      expect(await names('limit=%2B1')).toEqual([['a'], true]);
      expect(await names('limit=2&limit=abc')).toEqual([['a', 'b'], true]);
      expect(await names('limit=-1')).toEqual([['a', 'b', 'c'], false]);
      expect(await names('limit=0')).toEqual([['a', 'b', 'c'], false]);
    });

    it('of two bad values, the one decoded first is reported: timeoutSeconds before limit', async () => {
      expect((await t.client.get(`${SERVICES}?limit=y&timeoutSeconds=x`)).text).toBe(parseIntError('x'));
    });

    it('timeoutSeconds takes a sign and leading zeros', async () => {
      const res = await t.client.get(`${SERVICES}?watch=1&resourceVersion=${from}&timeoutSeconds=%2B01`);
      expect(res.status).toBe(200);
      expect(res.text.split('\n').filter(Boolean)).toHaveLength(3);
    });

    it('a timeoutSeconds longer than any timer keeps the watch open', async () => {
      const watch = await t.client.stream(`${SERVICES}?watch=1&resourceVersion=${from}&timeoutSeconds=9223372036854775807`);
      try {
        expect(watch.status).toBe(200);
        expect((await watch.take(3)).map((e) => e.object.metadata.name)).toEqual(['a', 'b', 'c']);
        const created = await t.client.post(SERVICES, svc('late'));
        expect((await watch.next())?.object.metadata.uid).toBe(created.json.metadata.uid);
        expect(await t.client.delete(`${SERVICES}/late`)).toMatchObject({ status: 200 });
      } finally {
        watch.close();
      }
    });
  });

  describe('DeleteOptions in the query', () => {
    it.each([
      ['gracePeriodSeconds=abc', parseIntError('abc')],
      ['gracePeriodSeconds=', parseIntError('')],
    ])('?%s is a 400', async (query, text) => {
      expect((await t.client.delete(`${SERVICES}/a?dryRun=All&${query}`)).text).toBe(text);
    });

    it('a signed gracePeriodSeconds is accepted; orphanDependents, whatever its value, conflicts with propagationPolicy', async () => {
      expect((await t.client.delete(`${SERVICES}/a?dryRun=All&gracePeriodSeconds=%2B0`)).status).toBe(200);
      const both = await t.client.delete(`${SERVICES}/a?dryRun=All&orphanDependents=True&propagationPolicy=Background`);
      expect([both.status, both.json.message]).toEqual([
        422,
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set',
      ]);
    });
  });

  describe('force on apply', () => {
    const apply = (query: string, labels: Record<string, string>) =>
      t.client.request('PATCH', `${SERVICES}/b?${query}`, { body: JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'b', labels } }), contentType: APPLY });

    it('only 0 and false leave a conflict unforced', async () => {
      expect((await apply('fieldManager=first', { owner: 'first' })).status).toBe(200);
      for (const unforced of ['force=0', 'force=FALSE', 'force=false']) {
        expect((await apply(`fieldManager=second&${unforced}`, { owner: 'second' })).status).toBe(409);
      }
      expect((await apply('fieldManager=second&force=True', { owner: 'second' })).json.metadata.labels).toEqual({ owner: 'second' });
      expect((await apply('fieldManager=first&force=1', { owner: 'first' })).json.metadata.labels).toEqual({ owner: 'first' });
      expect((await apply('fieldManager=second&force', { owner: 'second' })).json.metadata.labels).toEqual({ owner: 'second' });
    });

    it('force in any spelling is refused on a patch that is not an apply', async () => {
      for (const query of ['force=', 'force=0', 'force=True']) {
        const res = await t.client.request('PATCH', `${SERVICES}/c?${query}`, { body: '{}', contentType: 'application/merge-patch+json' });
        expect([res.status, res.json.message]).toEqual([422, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch']);
      }
    });
  });
});
