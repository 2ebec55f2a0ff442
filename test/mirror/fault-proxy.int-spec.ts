// The fault proxy the mirror's e2e tests stand behind, checked against a small real HTTPS
// upstream (not svctrail): what passes through unchanged, and what each control does.
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueServingCertificate } from '../../src/tls/certificates';
import { startFaultProxy } from '../helpers/fault-proxy';
import type { FaultProxy } from '../helpers/fault-proxy';

const now = () => new Date();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One open watch as the client of the proxy sees it. */
interface ClientWatch {
  status: number;
  headers: IncomingHttpHeaders;
  lines: string[];
  /** Settles when the answer is over: 'end' when it ended cleanly, 'cut' when the connection was lost. */
  done: Promise<'end' | 'cut'>;
}

describe('the fault proxy', () => {
  let upstream: Server;
  let upstreamUrl: string;
  let upstreamCa: string;
  let proxy: FaultProxy;
  /** Requests the upstream received. */
  let received: { method: string; url: string; headers: IncomingHttpHeaders }[];
  /** The upstream's open watch answers, to write events into. */
  let upstreamWatches: { res: ServerResponse; closed: Promise<void> }[];

  beforeAll(async () => {
    const ca = await createCertificateAuthority('upstream-ca', now);
    const serving = await issueServingCertificate(ca, {}, now);
    upstreamCa = ca.certPem;
    upstream = createServer({ cert: serving.certPem, key: serving.keyPem }, upstreamHandler);
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `https://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  beforeEach(async () => {
    received = [];
    upstreamWatches = [];
    proxy = await startFaultProxy({ upstream: upstreamUrl, upstreamCa });
  });
  afterEach(() => proxy.close());
  afterAll(async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  function upstreamHandler(req: IncomingMessage, res: ServerResponse) {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'https://upstream');
    if (url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1') {
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'watch' });
      res.flushHeaders();
      upstreamWatches.push({ res, closed: new Promise((resolve) => res.on('close', () => resolve())) });
      return;
    }
    // Echoes what it got; the body as a digest so that large bodies are compared whole.
    const hash = createHash('sha256');
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
    });
    req.on('end', () => {
      res.writeHead(req.url === '/teapot' ? 418 : 200, { 'content-type': 'application/json', 'x-upstream': 'echo', 'set-cookie': ['a=1', 'b=2'] });
      res.end(JSON.stringify({ method: req.method, url: req.url, authorization: req.headers.authorization ?? null, custom: req.headers['x-custom'] ?? null, size, sha256: hash.digest('hex') }));
    });
  }

  const call = (method: string, path: string, options: { headers?: Record<string, string>; body?: Buffer; ca?: string } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(`${proxy.url}${path}`, { method, headers: options.headers, ca: options.ca ?? proxy.caPem, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(options.body);
    });

  const watch = (path: string) =>
    new Promise<ClientWatch>((resolve, reject) => {
      const req = request(`${proxy.url}${path}`, { ca: proxy.caPem, agent: false }, (res) => {
        const lines: string[] = [];
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => {
          pending += text;
          for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
            lines.push(pending.slice(0, nl));
            pending = pending.slice(nl + 1);
          }
        });
        const done = new Promise<'end' | 'cut'>((settle) => {
          res.on('end', () => settle(res.complete ? 'end' : 'cut'));
          res.on('error', () => settle('cut'));
          res.on('close', () => settle(res.complete ? 'end' : 'cut'));
        });
        resolve({ status: res.statusCode ?? 0, headers: res.headers, lines, done });
      });
      req.on('error', reject);
      req.end();
    });

  const until = async (check: () => boolean, what: string) => {
    for (const started = Date.now(); !check(); await sleep(10)) {
      if (Date.now() - started > 5_000) throw new Error(`timed out waiting for ${what}`);
    }
  };
  const event = (type: string, rv: string) => `${JSON.stringify({ type, object: { metadata: { resourceVersion: rv } } })}\n`;
  const expiredLine = (asked: string, below: number) =>
    JSON.stringify({
      type: 'ERROR',
      object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${asked} (${below})`, reason: 'Expired', code: 410 },
    });

  it('passes method, path with query, headers (Authorization included), body and answer through, and logs the request', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    const before = Date.now();
    const answer = await call('PUT', '/api/v1/namespaces/a/services/web?fieldManager=x&dryRun=All', {
      headers: { authorization: 'Bearer abc', 'x-custom': 'kept', 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-upstream']).toBe('echo');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(JSON.parse(answer.body)).toEqual({
      method: 'PUT',
      url: '/api/v1/namespaces/a/services/web?fieldManager=x&dryRun=All',
      authorization: 'Bearer abc',
      custom: 'kept',
      size: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    });
    expect(received[0].headers.host).toBe(new URL(upstreamUrl).host);
    expect((await call('GET', '/teapot')).status).toBe(418);
    expect(proxy.requests).toEqual([
      { method: 'PUT', path: '/api/v1/namespaces/a/services/web?fieldManager=x&dryRun=All', time: expect.any(Number), authorization: 'Bearer abc', body: body.toString('utf8'), status: 200 },
      { method: 'GET', path: '/teapot', time: expect.any(Number), status: 418 },
    ]);
    expect(proxy.requests[0].time).toBeGreaterThanOrEqual(before);
    expect(proxy.requests[1].time).toBeGreaterThanOrEqual(proxy.requests[0].time);
  });

  it('serves TLS with its own CA, which clients must trust', async () => {
    await expect(call('GET', '/x', { ca: upstreamCa })).rejects.toMatchObject({ code: expect.stringMatching(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/) });
    expect(proxy.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('streams a watch: each event reaches the client as the upstream writes it, and the end too', async () => {
    const client = await watch('/api/v1/services?watch=true&resourceVersion=5');
    expect(client.headers['x-upstream']).toBe('watch');
    await until(() => upstreamWatches.length === 1, 'the upstream watch');
    upstreamWatches[0].res.write(event('ADDED', '6'));
    await until(() => client.lines.length === 1, 'the first event');
    upstreamWatches[0].res.end(event('MODIFIED', '7'));
    expect(await client.done).toBe('end');
    expect(client.lines).toEqual([event('ADDED', '6').trim(), event('MODIFIED', '7').trim()]);
  });

  it('closeWatches destroys every open watch (watch=true and watch=1), both sides, and nothing else', async () => {
    const a = await watch('/api/v1/services?watch=true');
    const b = await watch('/api/v1/namespaces/x/services?resourceVersion=3&watch=1');
    await until(() => upstreamWatches.length === 2, 'both upstream watches');
    upstreamWatches[0].res.write(event('ADDED', '4'));
    await until(() => a.lines.length === 1, 'the first event');
    expect(proxy.closeWatches()).toBe(2);
    expect(await a.done).toBe('cut');
    expect(await b.done).toBe('cut');
    await Promise.all(upstreamWatches.map((w) => w.closed));
    // A plain request is not a watch; and with none open, nothing is closed.
    expect((await call('GET', '/api/v1/services?watch=false')).status).toBe(200);
    expect(proxy.closeWatches()).toBe(0);
  });

  it('closeWatches({ cleanly: true }) ends each watch as the source’s own timeout does', async () => {
    const a = await watch('/api/v1/services?watch=true');
    await until(() => upstreamWatches.length === 1, 'the upstream watch');
    upstreamWatches[0].res.write(event('ADDED', '4'));
    await until(() => a.lines.length === 1, 'the event');
    expect(proxy.closeWatches({ cleanly: true })).toBe(1);
    expect(await a.done).toBe('end');
    await upstreamWatches[0].closed;
  });

  it('holdWatches buffers watch bytes and releases them in order; a watch the source ended meanwhile ends after them', async () => {
    const client = await watch('/api/v1/services?watch=true');
    await until(() => upstreamWatches.length === 1, 'the upstream watch');
    proxy.holdWatches(true);
    upstreamWatches[0].res.write(event('MODIFIED', '10'));
    upstreamWatches[0].res.write(event('MODIFIED', '11'));
    upstreamWatches[0].res.end(event('BOOKMARK', '12'));
    await upstreamWatches[0].closed;
    await sleep(200);
    expect(client.lines).toEqual([]);
    // Plain requests are not held.
    expect((await call('GET', '/echo')).status).toBe(200);
    proxy.holdWatches(false);
    expect(await client.done).toBe('end');
    expect(client.lines).toEqual([event('MODIFIED', '10').trim(), event('MODIFIED', '11').trim(), event('BOOKMARK', '12').trim()]);
  });

  it('expireBelow answers a watch from an older numeric resourceVersion as the watch cache does, without asking the upstream', async () => {
    proxy.expireBelow(10);
    const expired = await watch('/api/v1/services?watch=true&resourceVersion=9&allowWatchBookmarks=true');
    expect(await expired.done).toBe('end');
    expect(expired.status).toBe(200);
    expect(expired.headers['content-type']).toBe('application/json');
    expect(expired.lines).toEqual([expiredLine('9', 10)]);
    expect(received).toHaveLength(0);
    // From 10 on, from "0", without a resourceVersion, and a LIST from an old one: passed through.
    for (const path of ['/api/v1/services?watch=1&resourceVersion=10', '/api/v1/services?watch=true&resourceVersion=0', '/api/v1/services?watch=true']) {
      const passed = await watch(path);
      expect(passed.headers['x-upstream']).toBe('watch');
    }
    expect((await call('GET', '/api/v1/services?resourceVersion=3')).status).toBe(200);
    expect(received.map((r) => r.url)).toEqual([
      '/api/v1/services?watch=1&resourceVersion=10',
      '/api/v1/services?watch=true&resourceVersion=0',
      '/api/v1/services?watch=true',
      '/api/v1/services?resourceVersion=3',
    ]);
    proxy.expireBelow(null);
    const after = await watch('/api/v1/services?watch=true&resourceVersion=1');
    expect(after.headers['x-upstream']).toBe('watch');
  });

  it('failRequests answers the next requests with a Status of the code asked for (503 by default), without reaching the upstream', async () => {
    proxy.failRequests(2, 429);
    for (let i = 0; i < 2; i++) {
      const answer = await call('GET', '/api/v1/services');
      expect(answer.status).toBe(429);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'TooManyRequests', code: 429 });
    }
    expect(received).toHaveLength(0);
    expect((await call('GET', '/api/v1/services')).status).toBe(200);
    expect(received).toHaveLength(1);
    proxy.failRequests(1);
    expect(JSON.parse((await call('GET', '/x')).body)).toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
    expect(proxy.requests).toHaveLength(4);
  });

  it('rewriteJson rewrites every JSON answer whole and every watch line as it arrives, and nothing once turned off', async () => {
    proxy.rewriteJson((value, path) => ({ ...(value as object), rewritten: path }));
    const answer = await call('GET', '/api/v1/services?limit=1');
    expect(JSON.parse(answer.body)).toMatchObject({ url: '/api/v1/services?limit=1', rewritten: '/api/v1/services?limit=1' });
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    // A JSON answer that is not a success passes as it is.
    expect(JSON.parse((await call('GET', '/teapot')).body)).not.toHaveProperty('rewritten');
    const client = await watch('/api/v1/services?watch=true');
    await until(() => upstreamWatches.length === 1, 'the upstream watch');
    // A line split across writes is rewritten once whole.
    const line = event('ADDED', '6');
    upstreamWatches[0].res.write(line.slice(0, 10));
    upstreamWatches[0].res.write(`${line.slice(10)}${event('MODIFIED', '7')}`);
    await until(() => client.lines.length === 2, 'both events');
    expect(client.lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      { type: 'ADDED', object: { metadata: { resourceVersion: '6' } }, rewritten: '/api/v1/services?watch=true' },
      { type: 'MODIFIED', object: { metadata: { resourceVersion: '7' } }, rewritten: '/api/v1/services?watch=true' },
    ]);
    proxy.rewriteJson(null);
    upstreamWatches[0].res.end(event('DELETED', '8'));
    expect(await client.done).toBe('end');
    expect(client.lines[2]).toBe(event('DELETED', '8').trim());
  });

  it('pauseRequests keeps the requests it matches from the upstream until released; a request whose client left meanwhile never goes', async () => {
    proxy.pauseRequests((path) => path.includes('continue='));
    const waiting = call('GET', '/api/v1/services?limit=1&continue=abc');
    expect((await call('GET', '/api/v1/services?limit=1')).status).toBe(200);
    await until(() => proxy.paused().length === 1, 'the paused request');
    expect(proxy.paused()).toEqual(['/api/v1/services?limit=1&continue=abc']);
    const gone = request(`${proxy.url}/api/v1/services?continue=gone`, { ca: proxy.caPem, agent: false });
    gone.on('error', () => undefined);
    gone.end();
    await until(() => proxy.paused().length === 2, 'the second paused request');
    gone.destroy();
    await sleep(100);
    expect(received.map((r) => r.url)).toEqual(['/api/v1/services?limit=1']);
    proxy.pauseRequests(null);
    expect(JSON.parse((await waiting).body)).toMatchObject({ url: '/api/v1/services?limit=1&continue=abc' });
    await sleep(100);
    expect(received.map((r) => r.url)).toEqual(['/api/v1/services?limit=1', '/api/v1/services?limit=1&continue=abc']);
    expect(proxy.paused()).toEqual([]);
  });

  it('stop cuts every connection and refuses new ones; start listens again on the same port', async () => {
    const client = await watch('/api/v1/services?watch=true');
    await until(() => upstreamWatches.length === 1, 'the upstream watch');
    const url = proxy.url;
    await proxy.stop();
    expect(await client.done).toBe('cut');
    await upstreamWatches[0].closed;
    await expect(call('GET', '/x')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await proxy.start();
    expect(proxy.url).toBe(url);
    expect((await call('GET', '/x')).status).toBe(200);
  });

  it('answers 502 with a Status when the upstream cannot be reached', async () => {
    const unreachable = await startFaultProxy({ upstream: 'https://127.0.0.1:1', upstreamCa });
    try {
      const answer = await new Promise<Answer>((resolve, reject) => {
        const req = request(`${unreachable.url}/x`, { ca: unreachable.caPem, agent: false }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', code: 502 });
    } finally {
      await unreachable.close();
    }
  });
});
