// The watch paths kube-apiserver deprecated in 1.11 and still serves (installer.go WATCH and
// WATCHLIST, handlers/get.go ListResource with forceWatch), over real HTTPS: each answers exactly
// what `?watch=true` on its list path answers, a name in the path is a metadata.name field
// selector, `?watch=0` does not turn them into a list, and paths of resources that cannot be
// watched stay unknown. Events: the read-only Events svctrail derives from the Service history
// (events.controller.ts), watched through the same generic rewrite.
import { findKubectl, kubectl } from '../helpers/kubectl';
import { startTestServer, type TestServer } from '../helpers/test-server';

const NS = 'dwatch';
const SERVICES = `/api/v1/namespaces/${NS}/services`;
const svc = (name: string) => ({ metadata: { name }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
const status = (code: number, reason: string, message: string, details?: object) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });

describe('deprecated watch paths', () => {
  let t: TestServer;
  /** Before this suite's writes: every watch below replays them from here. */
  let from: string;
  let eventName: string;

  beforeAll(async () => {
    t = await startTestServer();
    from = (await t.client.get('/api/v1/services')).json.metadata.resourceVersion;
    const web = await t.client.post(SERVICES, svc('web'));
    await t.client.post(SERVICES, svc('api'));
    await t.client.post('/api/v1/namespaces/dwatch-b/services', svc('web'));
    await t.client.put(`${SERVICES}/web/status`, { ...web.json, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } });
    eventName = (await t.client.get(`/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name%3Dweb`)).json.items[0].metadata.name;
  });
  afterAll(async () => t.stop());

  /** A watch's whole answer: the replay from `from`, ended by the server after a second. */
  const replay = (path: string) => t.client.get(`${path}${path.includes('?') ? '&' : '?'}resourceVersion=${from}&timeoutSeconds=1`);
  const lines = (text: string) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));

  it.each([
    ['/api/v1/watch/namespaces/dwatch/services', `${SERVICES}?watch=true`, ['ADDED web', 'ADDED api', 'MODIFIED web']],
    ['/api/v1/watch/namespaces/dwatch/services/web', `${SERVICES}?watch=true&fieldSelector=metadata.name%3Dweb`, ['ADDED web', 'MODIFIED web']],
    ['/api/v1/watch/services', '/api/v1/services?watch=true', ['ADDED web', 'ADDED api', 'ADDED web', 'MODIFIED web']],
    // forceWatch: whatever ?watch= says.
    ['/api/v1/watch/namespaces/dwatch/services?watch=0', `${SERVICES}?watch=true`, ['ADDED web', 'ADDED api', 'MODIFIED web']],
    ['/api/v1/watch/namespaces/dwatch/services/web?fieldSelector=metadata.name%3Dweb', `${SERVICES}?watch=true&fieldSelector=metadata.name%3Dweb`, ['ADDED web', 'MODIFIED web']],
  ])('GET %s answers what %s answers', async (deprecated, current, expected) => {
    const [old, now] = await Promise.all([replay(deprecated), replay(current)]);
    expect([old.status, old.headers['content-type']]).toEqual([200, 'application/json']);
    expect(old.text).toBe(now.text);
    expect(lines(old.text).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(expected);
  });

  it.each([
    ['/api/v1/watch/namespaces/dwatch/events', `/api/v1/namespaces/${NS}/events?watch=true`, 3],
    ['/api/v1/watch/namespaces/dwatch/events/EVENT', `/api/v1/namespaces/${NS}/events?watch=true&fieldSelector=metadata.name%3DEVENT`, 1],
    ['/api/v1/watch/events', '/api/v1/events?watch=true', 4],
  ])('Events: GET %s answers what %s answers', async (deprecated, current, count) => {
    const [old, now] = await Promise.all([replay(deprecated.replace('EVENT', eventName)), replay(current.replace('EVENT', eventName))]);
    expect([old.status, old.headers['content-type']]).toEqual([200, 'application/json']);
    expect(old.text).toBe(now.text);
    const events = lines(old.text);
    expect(events).toHaveLength(count);
    expect(events.every((e) => e.type === 'ADDED' && e.object.kind === 'Event')).toBe(true);
  });

  it('a named watch follows that object only, live', async () => {
    const watch = await t.client.stream(`/api/v1/watch/namespaces/${NS}/services/api`);
    try {
      expect(watch.status).toBe(200);
      expect((await watch.next())?.object.metadata.name).toBe('api');
      const web = (await t.client.get(`${SERVICES}/web`)).json;
      await t.client.put(`${SERVICES}/web`, { ...web, metadata: { ...web.metadata, labels: { seen: 'no' } } });
      const api = (await t.client.get(`${SERVICES}/api`)).json;
      await t.client.put(`${SERVICES}/api`, { ...api, metadata: { ...api.metadata, labels: { seen: 'yes' } } });
      // Events arrive in order: the first after the ADDED being api's proves web's was not sent.
      const next = await watch.next();
      expect([next?.type, next?.object.metadata.name, next?.object.metadata.labels]).toEqual(['MODIFIED', 'api', { seen: 'yes' }]);
    } finally {
      watch.close();
    }
  });

  it('a protobuf watch through a deprecated path is framed like the list path’s', async () => {
    const accept = 'application/vnd.kubernetes.protobuf;stream=watch';
    const [old, now] = await Promise.all([t.client.openStream(`/api/v1/watch/namespaces/${NS}/services`, accept), t.client.openStream(`${SERVICES}?watch=1`, accept)]);
    old.request.destroy();
    now.request.destroy();
    expect(old.response.statusCode).toBe(200);
    expect(old.response.headers['content-type']).toBe(now.response.headers['content-type']);
    expect(old.response.headers['content-type']).toBe(accept);
  });

  it.each([
    ['metadata.name%3Dapi', "fieldSelector metadata.name doesn't match requested name"],
    ['metadata.name!%3Dweb', "fieldSelector metadata.name doesn't match requested name"],
    ['spec.type%3DLoadBalancer', "fieldSelector metadata.name doesn't match requested name"],
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
  ])('a named path with ?fieldSelector=%s is a 400: %s', async (selector, message) => {
    const res = await t.client.get(`/api/v1/watch/namespaces/${NS}/services/web?fieldSelector=${selector}`);
    expect(res.text).toBe(status(400, 'BadRequest', message));
  });

  it('query parameters are read as on the list path', async () => {
    const timeout = await t.client.get(`/api/v1/watch/namespaces/${NS}/services?timeoutSeconds=soon`);
    expect(timeout.text).toBe(status(400, 'BadRequest', 'strconv.ParseInt: parsing "soon": invalid syntax'));
    const match = await t.client.get(`/api/v1/watch/namespaces/${NS}/services/web?resourceVersion=1&resourceVersionMatch=Exact`);
    expect([match.status, match.json.message]).toEqual([422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch']);
  });

  it.each([
    // No WATCH route: a subresource, a namespaced resource named without its namespace, unserved
    // resources, and groups whose resources cannot be watched.
    ['GET', `/api/v1/watch/namespaces/${NS}/services/web/status`, 404, 'NotFound', 'the server could not find the requested resource'],
    ['GET', '/api/v1/watch/services/web', 404, 'NotFound', 'the server could not find the requested resource'],
    ['GET', `/api/v1/watch/namespaces/${NS}/pods`, 404, 'NotFound', 'the server could not find the requested resource'],
    ['GET', '/apis/history.svctrail.io/v1alpha1/watch/changes', 404, 'NotFound', 'the server could not find the requested resource'],
    ['GET', `/apis/history.svctrail.io/v1alpha1/watch/namespaces/${NS}/changes`, 404, 'NotFound', 'the server could not find the requested resource'],
    // The WATCH routes are GET only.
    ['POST', `/api/v1/watch/namespaces/${NS}/services`, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    ['DELETE', `/api/v1/watch/namespaces/${NS}/services/web`, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  ])('%s %s is %d %s', async (method, path, code, reason, message) => {
    const res = await t.client.request(method, path, method === 'POST' ? { body: svc('posted') } : {});
    // The router's own answers carry empty details.
    expect(res.text).toBe(status(code, reason, message, {}));
    expect((await t.client.get(`${SERVICES}/posted`)).status).toBe(404);
  });

  it('the history group is untouched: its lists still answer', async () => {
    const changes = await t.client.get(`/apis/history.svctrail.io/v1alpha1/namespaces/${NS}/changes`);
    expect(changes.status).toBe(200);
    expect(changes.json.items.length).toBeGreaterThan(0);
  });

  it('metrics count a deprecated path’s watch as a watch of its resource', async () => {
    const series = /^apiserver_request_total\{verb="watch",resource="services",subresource="",code="200"\} (\d+)$/m;
    const count = async () => Number(series.exec((await t.client.get('/metrics', { accept: 'text/plain' })).text)?.[1] ?? 0);
    const before = await count();
    expect((await replay(`/api/v1/watch/namespaces/${NS}/services/web`)).status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  const binary = findKubectl();
  (binary ? it : it.skip)('kubectl get --raw reads a deprecated watch path', async () => {
    const path = `/api/v1/watch/namespaces/${NS}/services/web?resourceVersion=${from}&timeoutSeconds=1`;
    const [raw, direct] = await Promise.all([kubectl(binary!, t.server.kubeconfigPath, ['get', '--raw', path]), t.client.get(path)]);
    expect(raw.stderr).toBe('');
    expect(raw.stdout).toBe(direct.text);
  });
});
