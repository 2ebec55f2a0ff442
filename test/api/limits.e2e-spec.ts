// Hostile input: deep nesting, huge arrays, huge numbers, slow clients, too many watches. Each
// gets a Status (never a 500, a hang or a crash) and the store stays intact.
import { connect } from 'node:tls';
import { MAX_BODY_BYTES } from '../../src/kube-api/body-limits';
import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { kubeConfigFor } from '../helpers/client-node';
import { WatchRegistry } from '../../src/watch/watch-registry';
import { startTestServer, type TestServer } from '../helpers/test-server';

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
    [
      'prototype pollution keys',
      'POST',
      NS,
      'application/json',
      () => '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"metadata":{"name":"proto","labels":{"__proto__":"a"}},"spec":{"ports":[{"port":80}]}}',
    ],
  ])('%s is a 4xx Status', async (_label, method, path, contentType, body) => {
    const res = await t.client.request(method, path, { body: body(), contentType });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.json.kind).toBe('Status');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await t.client.get(`${NS}/x`)).status).toBe(200);
  });

  const status = (code: number, message: string, reason?: string) => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    ...(reason ? { reason } : {}),
    code,
  });

  it.each([
    ['an overlong UTF-8 percent-encoding', `${NS}/%c0%af`],
    ['a percent-encoding that is not UTF-8', '/api/%ff%fe'],
  ])('%s in the path is a 400 Status', async (_label, path) => {
    const res = await t.client.get(path);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json).toEqual(status(400, 'the request path is not a valid URL: a percent-encoding in it does not decode to UTF-8', 'BadRequest'));
  });

  it('a path parameter over the length limit is a 414 Status', async () => {
    const res = await t.client.get(`${NS}/${'a'.repeat(500)}`);
    expect(res.status).toBe(414);
    expect(res.json).toEqual(status(414, 'the request URI is too long: a segment of its path is longer than the server accepts'));
  });

  // Answered by Node's HTTP parser through the server's clientError handler: no request exists.
  const rawExchange = (request: string) =>
    new Promise<string>((resolve) => {
      const url = new URL(t.server.url);
      const received: Buffer[] = [];
      const socket = connect({ host: url.hostname, port: Number(url.port), ca: t.ca }, () => socket.write(request));
      socket.on('data', (c: Buffer) => received.push(c));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Buffer.concat(received).toString()));
    });
  const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

  it('oversized headers are a 431 Status', async () => {
    const response = await rawExchange(`GET ${NS} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`);
    expect(response.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(bodyOf(response)).toEqual(status(431, 'the request header fields are too large'));
    const res = await t.client.get(NS, { headers: { 'x-big': 'a'.repeat(20000) } });
    expect(res.status).toBe(431);
    expect(res.json.kind).toBe('Status');
  });

  it('a request that is not HTTP is a 400 Status', async () => {
    const response = await rawExchange('HELLO THERE\r\n\r\n');
    expect(response.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(bodyOf(response)).toEqual(status(400, 'the request is not valid HTTP: HPE_INVALID_METHOD', 'BadRequest'));
  });

  it('an oversized body is answered 413 with a Status that a client still sending can read', async () => {
    // A client that reads the answer only once it has sent its whole body. If the server answers
    // and closes with the body still arriving, its kernel resets the connection and the client
    // never sees the answer: the server must read (and drop) the body first.
    const url = new URL(t.server.url);
    const exchange = (size: number) =>
      new Promise<string>((resolve) => {
        const received: Buffer[] = [];
        const socket = connect({ host: url.hostname, port: Number(url.port), ca: t.ca }, () => {
          socket.pause();
          socket.write(`POST ${NS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.adminToken}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          let sent = 0;
          const write = (): void => {
            while (sent < size) {
              const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
              sent += piece.length;
              if (!socket.write(piece)) return void socket.once('drain', write);
            }
            socket.resume();
          };
          write();
        });
        socket.on('data', (c: Buffer) => received.push(c));
        socket.on('error', (error) => received.push(Buffer.from(`\n[${(error as NodeJS.ErrnoException).code}]`)));
        socket.on('close', () => resolve(Buffer.concat(received).toString()));
      });
    for (const size of [MAX_BODY_BYTES + 1, 8 * 1024 * 1024]) {
      const answer = await exchange(size);
      expect({ size, statusLine: answer.split('\r\n')[0] }).toEqual({ size, statusLine: 'HTTP/1.1 413 Payload Too Large' });
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Request entity too large: limit is ${MAX_BODY_BYTES}`,
        reason: 'RequestEntityTooLarge',
        code: 413,
      });
    }
  });

  it('client-node sees the 413 Status of an oversized create', async () => {
    const api = kubeConfigFor(t).makeApiClient(CoreV1Api);
    const error = await api
      .createNamespacedService({ namespace: 'limits', body: { metadata: { name: 'huge', annotations: { a: 'x'.repeat(8 * 1024 * 1024) } }, spec: { ports: [{ port: 80 }] } } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ApiException);
    expect((error as ApiException<unknown>).code).toBe(413);
    expect(JSON.parse((error as ApiException<string>).body)).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
  });

  it('a client that never finishes its headers is disconnected', async () => {
    // The same server with its headers timeout shortened from 20 s, so the test waits 2 s.
    const headersTimeoutMs = 2_000;
    const short = await startTestServer({ headersTimeoutMs });
    try {
      const url = new URL(short.server.url);
      const closed = await new Promise<number>((resolve, reject) => {
        const started = Date.now();
        const socket = connect({ host: url.hostname, port: Number(url.port), ca: short.ca }, () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'));
        socket.on('close', () => resolve(Date.now() - started));
        socket.on('error', () => undefined);
        // Keep reading (the server answers 408 before it closes), or 'close' never comes.
        socket.resume();
        setTimeout(() => reject(new Error('still open after 30 s')), 30_000);
      });
      expect(closed).toBeGreaterThanOrEqual(headersTimeoutMs);
      expect(closed).toBeLessThan(headersTimeoutMs + 10_000);
    } finally {
      await short.stop();
    }
  }, 40_000);

  it('caps concurrent watches with 429 and a Retry-After', async () => {
    const registry = t.server.app.get(WatchRegistry);
    const before = registry.maxWatches;
    registry.maxWatches = 2;
    const streams: { close(): void }[] = [];
    try {
      streams.push(await t.client.stream(`${NS}?watch=true`));
      streams.push(await t.client.stream(`${NS}?watch=true`));
      const third = await t.client.get(`${NS}?watch=true`);
      expect(third.status).toBe(429);
      expect(third.json.reason).toBe('TooManyRequests');
      expect(third.headers['retry-after']).toBe('1');
    } finally {
      for (const stream of streams) stream.close();
      registry.maxWatches = before;
    }
  });
});
