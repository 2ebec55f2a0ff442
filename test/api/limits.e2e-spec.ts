// Hostile input: deep nesting, huge arrays, huge numbers, slow clients, too many watches. Each
// gets a Status (never a 500, a hang or a crash) and the store stays intact.
import { connect } from 'node:tls';
import { WatchRegistry } from '../../src/watch/watch-registry';
import { startTestServer, TestServer } from '../helpers/test-server';

const NS = '/api/v1/namespaces/limits/services';

describe('limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    await t.client.post(NS, { metadata: { name: 'x' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
  });
  afterAll(async () => t.stop());

  it.each([
    ['a deeply nested create body', 'POST', NS, 'application/json', () => '['.repeat(100000) + ']'.repeat(100000)],
    ['a deeply nested merge patch', 'PATCH', `${NS}/x`, 'application/merge-patch+json', () => '{"a":'.repeat(50000) + '1' + '}'.repeat(50000)],
    ['a deeply nested strategic patch', 'PATCH', `${NS}/x`, 'application/strategic-merge-patch+json', () => '{"a":'.repeat(9000) + '1' + '}'.repeat(9000)],
    ['a deeply nested JSON patch', 'PATCH', `${NS}/x`, 'application/json-patch+json', () => '[' + '['.repeat(9000) + ']'.repeat(9000) + ']'],
    ['a huge array', 'POST', NS, 'application/json', () => `{"metadata":{"name":"big"},"spec":{"ports":[${'{"port":1},'.repeat(200000)}{"port":2}]}}`],
    ['a huge number', 'POST', NS, 'application/json', () => `{"metadata":{"name":"num"},"spec":{"ports":[{"port":1${'0'.repeat(5000)}}]}}`],
    ['prototype pollution keys', 'POST', NS, 'application/json', () => '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"metadata":{"name":"proto","labels":{"__proto__":"a"}},"spec":{"ports":[{"port":80}]}}'],
  ])('%s is a 4xx Status', async (_label, method, path, contentType, body) => {
    const res = await t.client.request(method, path, { body: body(), contentType });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.json.kind).toBe('Status');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await t.client.get(`${NS}/x`)).status).toBe(200);
  });

  it('a client that never finishes its headers is disconnected', async () => {
    const url = new URL(t.server.url);
    const closed = await new Promise<number>((resolve, reject) => {
      const started = Date.now();
      const socket = connect({ host: url.hostname, port: Number(url.port), ca: t.ca }, () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'));
      socket.on('close', () => resolve(Date.now() - started));
      socket.on('error', () => undefined);
      // Keep reading (the server answers 408 before it closes), or 'close' never comes.
      socket.resume();
      setTimeout(() => reject(new Error('still open after 30 s')), 30000);
    });
    expect(closed).toBeGreaterThan(15000);
    expect(closed).toBeLessThan(30000);
  }, 40000);

  it('caps concurrent watches with 429 and a Retry-After', async () => {
    const registry = t.server.app.get(WatchRegistry);
    registry.maxWatches = 2;
    const a = await t.client.stream(`${NS}?watch=true`);
    const b = await t.client.stream(`${NS}?watch=true`);
    const third = await t.client.get(`${NS}?watch=true`);
    expect(third.status).toBe(429);
    expect(third.json.reason).toBe('TooManyRequests');
    expect(third.headers['retry-after']).toBe('1');
    a.close();
    b.close();
    registry.maxWatches = 1000;
  });
});
