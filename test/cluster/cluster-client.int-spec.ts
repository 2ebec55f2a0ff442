// The cluster client (the mirror's source, the cluster svctrail delegates authentication and
// authorization to) against a real HTTPS server on 127.0.0.1: every kind of kubeconfig credential
// it presents, the re-read after a 401, POSTs, and the watch stream's framing and timeouts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ClusterClient, SVCTRAIL_USER_AGENT, USER_AGENT } from '../../src/cluster/cluster-client';
import { ClusterHttpError } from '../../src/cluster/cluster-http-error';
import { loadKubeconfigConnection } from '../../src/cluster/kubeconfig-connection';
import { ClusterTimeoutError } from '../../src/cluster/cluster-timeout-error';
import { createCertificateAuthority, issueClientCertificate, issueServingCertificate } from '../../src/tls/certificates';
import type { CertificateAuthority } from '../../src/tls/certificates';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const now = () => new Date();
const b64 = (text: string) => Buffer.from(text).toString('base64');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('ClusterClient against a real HTTPS server', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let caPem: string;
  let clientCa: CertificateAuthority;
  let handler: Handler;
  const clients: ClusterClient[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-source-client-'));
    const ca = await createCertificateAuthority('source-ca', now);
    clientCa = await createCertificateAuthority('client-ca', now);
    const serving = await issueServingCertificate(ca, {}, now);
    caPem = ca.certPem;
    // Asks every client for a certificate and lets the handler judge it, as kube-apiserver does.
    server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: clientCa.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const kubeconfig = (user: object, cluster: object = { server: url, 'certificate-authority-data': b64(caPem) }) => {
    const path = join(dir, `config-${Math.random().toString(36).slice(2)}`);
    writeFileSync(path, stringify({ 'current-context': 'c', contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }], clusters: [{ name: 'k', cluster }], users: [{ name: 'u', user }] }));
    const client = new ClusterClient(loadKubeconfigConnection(path), { name: 'the source' });
    clients.push(client);
    return client;
  };
  const json = (res: ServerResponse, code: number, body: object) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const unauthorized = (res: ServerResponse) => json(res, 401, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  const collect = async (events: AsyncIterable<unknown>, each?: (event: unknown) => Promise<void> | void) => {
    const got: unknown[] = [];
    for await (const event of events) {
      got.push(event);
      await each?.(event);
    }
    return got;
  };
  const caught = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as Error,
    );

  describe('credentials and trust', () => {
    it('presents a bearer token, asks for JSON, names itself, and trusts the CA from a file relative to the kubeconfig', async () => {
      writeFileSync(join(dir, 'ca.crt'), caPem);
      handler = (req, res) => (req.headers.authorization === 'Bearer t0k' ? json(res, 200, { path: req.url, accept: req.headers.accept, agent: req.headers['user-agent'] }) : unauthorized(res));
      const client = kubeconfig({ token: 't0k' }, { server: url, 'certificate-authority': 'ca.crt' });
      expect(await client.getJson('/api/v1/services?limit=2')).toEqual({ path: '/api/v1/services?limit=2', accept: 'application/json', agent: USER_AGENT });
      expect(USER_AGENT).toBe(`svctrail-mirror/${(JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string }).version}`);
    });

    it('refuses a server its CA did not sign, and accepts it with insecure-skip-tls-verify', async () => {
      const other = await createCertificateAuthority('other', now);
      handler = (_req, res) => json(res, 200, { ok: true });
      const error = await caught(kubeconfig({ token: 't' }, { server: url, 'certificate-authority-data': b64(other.certPem) }).getJson('/x'));
      expect((error as NodeJS.ErrnoException).code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
      expect(await kubeconfig({ token: 't' }, { server: url, 'insecure-skip-tls-verify': true }).getJson('/x')).toEqual({ ok: true });
    });

    it('sends tls-server-name as the TLS server name', async () => {
      handler = (req, res) => json(res, 200, { sni: (req.socket as TLSSocket & { servername?: string }).servername });
      expect(await kubeconfig({ token: 't' }, { server: url, 'certificate-authority-data': b64(caPem), 'tls-server-name': 'localhost' }).getJson('/x')).toEqual({ sni: 'localhost' });
    });

    it('presents a client certificate (inline data) the server verifies', async () => {
      const cert = await issueClientCertificate(clientCa, { user: 'mirror', groups: ['readers'] }, now);
      handler = (req, res) => {
        const socket = req.socket as TLSSocket;
        json(res, socket.authorized ? 200 : 401, { cn: socket.getPeerCertificate().subject?.CN, auth: req.headers.authorization ?? null });
      };
      expect(await kubeconfig({ 'client-certificate-data': b64(cert.certPem), 'client-key-data': b64(cert.keyPem) }).getJson('/x')).toEqual({ cn: 'mirror', auth: null });
      // Without one the server's check fails, and says so.
      await expect(kubeconfig({}).getJson('/x')).rejects.toMatchObject({ status: 401 });
    });

    it('re-reads rotated client certificate files after a 401, on a new connection', async () => {
      const first = await issueClientCertificate(clientCa, { user: 'old-identity', groups: [] }, now);
      const second = await issueClientCertificate(clientCa, { user: 'new-identity', groups: [] }, now);
      writeFileSync(join(dir, 'me.crt'), first.certPem);
      writeFileSync(join(dir, 'me.key'), first.keyPem);
      let accepted = 'old-identity';
      const seen: { cn: string; port: number }[] = [];
      handler = (req, res) => {
        const cn = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN);
        seen.push({ cn, port: req.socket.remotePort ?? 0 });
        if (cn === accepted) json(res, 200, { cn });
        else unauthorized(res);
      };
      const client = kubeconfig({ 'client-certificate': 'me.crt', 'client-key': 'me.key' });
      expect(await client.getJson('/x')).toEqual({ cn: 'old-identity' });
      expect(await client.getJson('/x')).toEqual({ cn: 'old-identity' });
      expect(seen[1].port).toBe(seen[0].port); // keep-alive: one connection while nothing changes
      writeFileSync(join(dir, 'me.crt'), second.certPem);
      writeFileSync(join(dir, 'me.key'), second.keyPem);
      accepted = 'new-identity';
      expect(await client.getJson('/x')).toEqual({ cn: 'new-identity' });
      expect(seen.slice(2).map((s) => s.cn)).toEqual(['old-identity', 'new-identity']);
      expect(seen[3].port).not.toBe(seen[2].port);
    });

    it('re-reads a rotated token file after a 401, once', async () => {
      const tokenFile = join(dir, 'token');
      writeFileSync(tokenFile, 'old\n');
      let seen: string[] = [];
      handler = (req, res) => {
        seen.push(String(req.headers.authorization));
        if (req.headers.authorization === 'Bearer new') json(res, 200, { ok: true });
        else unauthorized(res);
      };
      const client = kubeconfig({ tokenFile });
      const error = await caught(client.getJson('/x'));
      expect(error).toBeInstanceOf(ClusterHttpError);
      expect(error).toMatchObject({ status: 401, statusObject: { code: 401, reason: 'Unauthorized', message: 'Unauthorized' } });
      expect(seen).toEqual(['Bearer old', 'Bearer old']);
      seen = [];
      writeFileSync(tokenFile, 'new\n');
      expect(await client.getJson('/x')).toEqual({ ok: true });
      expect(seen).toEqual(['Bearer old', 'Bearer new']);
    });

    it('runs an exec credential plugin as kubectl does, and again when its token is refused', async () => {
      const plugin = join(dir, 'plugin.js');
      const counter = join(dir, 'runs');
      writeFileSync(counter, '0');
      writeFileSync(
        plugin,
        `#!${process.execPath}
const fs = require('fs');
const runs = Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8')) + 1;
fs.writeFileSync(${JSON.stringify(counter)}, String(runs));
fs.writeFileSync(${JSON.stringify(join(dir, 'exec-info'))}, process.env.KUBERNETES_EXEC_INFO + '\\n' + process.env.REGION);
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'tok-' + runs } }));
`,
      );
      chmodSync(plugin, 0o755);
      const seen: string[] = [];
      handler = (req, res) => {
        seen.push(String(req.headers.authorization));
        if (req.headers.authorization === 'Bearer tok-2') json(res, 200, { ok: true });
        else unauthorized(res);
      };
      // The command is relative to the kubeconfig's folder, as kubectl resolves it.
      const client = kubeconfig({
        exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.js', env: [{ name: 'REGION', value: 'eu-1' }], interactiveMode: 'Never', provideClusterInfo: true },
      });
      expect(await client.getJson('/x')).toEqual({ ok: true });
      expect(seen).toEqual(['Bearer tok-1', 'Bearer tok-2']);
      expect(readFileSync(counter, 'utf8')).toBe('2');
      const [info, region] = readFileSync(join(dir, 'exec-info'), 'utf8').split('\n');
      expect(JSON.parse(info)).toEqual({
        apiVersion: 'client.authentication.k8s.io/v1',
        kind: 'ExecCredential',
        spec: { interactive: false, cluster: { server: url, 'certificate-authority-data': b64(caPem) } },
      });
      expect(region).toBe('eu-1');
      // The token is kept while it is accepted: no third run.
      expect(await client.getJson('/x')).toEqual({ ok: true });
      expect(readFileSync(counter, 'utf8')).toBe('2');
    });

    it('says which plugin failed and how', async () => {
      const plugin = join(dir, 'failing.js');
      writeFileSync(plugin, `#!${process.execPath}\nprocess.stderr.write('no credentials for you\\nmore\\n'); process.exit(3);\n`);
      chmodSync(plugin, 0o755);
      const client = kubeconfig({ exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: plugin } });
      await expect(client.getJson('/x')).rejects.toThrow(/failing\.js failed \(exit 3\): no credentials for you$/);
    });

    it('sends basic auth when the kubeconfig gives a username and password', async () => {
      handler = (req, res) => json(res, 200, { auth: req.headers.authorization });
      expect(await kubeconfig({ username: 'admin', password: 'pa:ss' }).getJson('/x')).toEqual({ auth: `Basic ${b64('admin:pa:ss')}` });
    });

    it('sends no credentials to a plain http server, as kubectl does', async () => {
      const plain: HttpServer = createHttpServer((req, res) => json(res, 200, { auth: req.headers.authorization ?? null, path: req.url }));
      await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
      try {
        const client = kubeconfig({ token: 'secret' }, { server: `http://127.0.0.1:${(plain.address() as AddressInfo).port}/prefix/` });
        expect(await client.getJson('/api/v1/services?watch=false')).toEqual({ auth: null, path: '/prefix/api/v1/services?watch=false' });
      } finally {
        plain.closeAllConnections();
        await new Promise((resolve) => plain.close(resolve));
      }
    });
  });

  describe('answers and failures', () => {
    it('answers a non-2xx with the Status the source sent', async () => {
      handler = (_req, res) => json(res, 410, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the continue token is too old', reason: 'Expired', code: 410 });
      const error = await caught(kubeconfig({ token: 't' }).getJson('/api/v1/services?continue=x'));
      expect(error).toBeInstanceOf(ClusterHttpError);
      expect(error).toMatchObject({ status: 410, statusObject: { reason: 'Expired', code: 410, message: 'the continue token is too old' } });
      expect(error?.message).toBe('the source answered 410 Expired to GET /api/v1/services?continue=x: the continue token is too old');
    });

    it('POSTs a JSON body and answers the JSON sent back; a refusal names the POST and keeps what a retry needs to know', async () => {
      handler = (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (body.spec.token === 'busy') {
            res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
            res.end(
              JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'slow down', reason: 'TooManyRequests', details: { retryAfterSeconds: 1 }, code: 429 }),
            );
            return;
          }
          json(res, 201, { method: req.method, url: req.url, contentType: req.headers['content-type'], agent: req.headers['user-agent'], echoed: body });
        });
      };
      const path = join(dir, 'post.kubeconfig');
      writeFileSync(
        path,
        stringify({
          'current-context': 'c',
          contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
          clusters: [{ name: 'k', cluster: { server: url, 'certificate-authority-data': b64(caPem) } }],
          users: [{ name: 'u', user: { token: 't' } }],
        }),
      );
      const client = new ClusterClient(loadKubeconfigConnection(path), { userAgent: SVCTRAIL_USER_AGENT });
      clients.push(client);
      const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'abc' } };
      expect(await client.postJson('/apis/authentication.k8s.io/v1/tokenreviews?timeout=10s', review)).toEqual({
        method: 'POST',
        url: '/apis/authentication.k8s.io/v1/tokenreviews?timeout=10s',
        contentType: 'application/json',
        agent: SVCTRAIL_USER_AGENT,
        echoed: review,
      });
      const error = await caught(client.postJson('/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: 'busy' } }));
      expect(error).toBeInstanceOf(ClusterHttpError);
      expect(error).toMatchObject({ status: 429, method: 'POST', retryAfter: true, statusObject: { reason: 'TooManyRequests', retryAfterSeconds: 1 } });
      expect(error?.message).toBe('the cluster answered 429 TooManyRequests to POST /apis/authentication.k8s.io/v1/tokenreviews: slow down');
    });

    it('answers a non-2xx that is not a Status (a proxy page) with its code alone', async () => {
      handler = (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>Bad Gateway</html>');
      };
      const error = await caught(kubeconfig({ token: 't' }).getJson('/x'));
      expect(error).toBeInstanceOf(ClusterHttpError);
      expect(error).toMatchObject({ status: 502, statusObject: undefined });
    });

    it('rejects with the network error when nothing listens', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      await expect(kubeconfig({ token: 't' }, { server: `https://127.0.0.1:${port}`, 'certificate-authority-data': b64(caPem) }).getJson('/x')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    });

    it('times a GET out when the answer does not come, or its body stalls, and frees the connection', async () => {
      const closed: Promise<void>[] = [];
      const track = (req: IncomingMessage) => closed.push(new Promise((resolve) => req.socket.once('close', () => resolve())));
      handler = (req) => track(req);
      const client = kubeconfig({ token: 't' });
      const started = Date.now();
      const error = await caught(client.getJson('/slow', { timeoutMs: 300 }));
      expect(error).toBeInstanceOf(ClusterTimeoutError);
      expect(error?.message).toBe('the source did not answer GET /slow within 300 ms');
      expect(Date.now() - started).toBeLessThan(3_000);
      handler = (req, res) => {
        track(req);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"items":[');
      };
      await expect(client.getJson('/stalled-body', { timeoutMs: 300 })).rejects.toThrow(ClusterTimeoutError);
      await expect(Promise.all(closed)).resolves.toHaveLength(2);
    });

    it('gives a GET up when aborted, with an AbortError', async () => {
      handler = () => undefined;
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 100);
      const error = await caught(kubeconfig({ token: 't' }).getJson('/x', { signal: abort.signal }));
      expect(error?.name).toBe('AbortError');
      // An already aborted signal sends nothing.
      let requests = 0;
      handler = (_req, res) => {
        requests++;
        json(res, 200, {});
      };
      await expect(kubeconfig({ token: 't' }).getJson('/x', { signal: abort.signal })).rejects.toMatchObject({ name: 'AbortError' });
      expect(requests).toBe(0);
    });
  });

  describe('watch', () => {
    const events = [
      { type: 'ADDED', object: { name: 'ü-ß-€' } },
      { type: 'BOOKMARK', object: { rv: '7' } },
      { type: 'MODIFIED', object: { name: 'x' } },
    ];
    const bytes = Buffer.from(events.map((e) => JSON.stringify(e) + '\n').join(''));
    const never = () => new AbortController().signal;

    it('yields each event whole, however the bytes are split (a character across chunks included), and ends with the answer', async () => {
      for (const size of [1, 3, 7, bytes.length]) {
        handler = (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          let at = 0;
          const next = () => {
            if (at >= bytes.length) return res.end();
            res.write(bytes.subarray(at, at + size));
            at += size;
            setImmediate(next);
          };
          next();
        };
        expect(await collect(kubeconfig({ token: 't' }).watch('/api/v1/services?watch=true', { signal: never(), idleTimeoutMs: 5_000 }))).toEqual(events);
      }
    });

    it('yields an event as soon as its line arrives, before the answer ends', async () => {
      let response: ServerResponse | undefined;
      handler = (_req, res) => {
        response = res;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`${JSON.stringify(events[0])}\n`);
      };
      // The second event is sent only once the first was yielded.
      const got = await collect(kubeconfig({ token: 't' }).watch('/w', { signal: never(), idleTimeoutMs: 5_000 }), () => {
        if (!response?.writableEnded) response?.end(`${JSON.stringify(events[1])}\n`);
      });
      expect(got).toEqual([events[0], events[1]]);
    });

    it('retries the watch once with fresh credentials on a 401, and throws ClusterHttpError for other answers', async () => {
      const tokenFile = join(dir, 'watch-token');
      writeFileSync(tokenFile, 'old');
      const seen: string[] = [];
      handler = (req, res) => {
        seen.push(String(req.headers.authorization));
        if (req.headers.authorization !== 'Bearer new') {
          // The token is rotated while the old one is refused.
          writeFileSync(tokenFile, 'new');
          return unauthorized(res);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(bytes);
      };
      const client = kubeconfig({ tokenFile });
      expect(await collect(client.watch('/w', { signal: never(), idleTimeoutMs: 5_000 }))).toEqual(events);
      expect(seen).toEqual(['Bearer old', 'Bearer new']);
      handler = (_req, res) => json(res, 403, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'services is forbidden', reason: 'Forbidden', code: 403 });
      const error = await caught(collect(client.watch('/w', { signal: never(), idleTimeoutMs: 5_000 })));
      expect(error).toBeInstanceOf(ClusterHttpError);
      expect(error).toMatchObject({ status: 403, statusObject: { reason: 'Forbidden' } });
    });

    it('gives the watch up when nothing arrives for the idle timeout, headers or bytes', async () => {
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"type":"BOOKMARK","object":{}}\n');
      };
      const client = kubeconfig({ token: 't' });
      const got: unknown[] = [];
      const started = Date.now();
      const error = await caught(collect(client.watch('/w', { signal: never(), idleTimeoutMs: 300 }), (e) => void got.push(e)));
      expect(error).toBeInstanceOf(ClusterTimeoutError);
      expect(error?.message).toBe("nothing arrived on the source's watch for 300 ms");
      expect(got).toEqual([{ type: 'BOOKMARK', object: {} }]);
      expect(Date.now() - started).toBeLessThan(3_000);
      handler = () => undefined;
      await expect(collect(client.watch('/w', { signal: never(), idleTimeoutMs: 300 }))).rejects.toThrow('the source did not answer the watch /w within 300 ms');
    });

    it('does not count a slow consumer as a stalled source', async () => {
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(bytes);
      };
      const got = await collect(kubeconfig({ token: 't' }).watch('/w', { signal: never(), idleTimeoutMs: 200 }), () => sleep(350));
      expect(got).toEqual(events);
    });

    it('throws when the source cuts the watch off mid-answer', async () => {
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`${JSON.stringify(events[0])}\n{"type":"MODI`, () => setTimeout(() => res.socket?.destroy(), 50));
      };
      const got: unknown[] = [];
      await expect(collect(kubeconfig({ token: 't' }).watch('/w', { signal: never(), idleTimeoutMs: 5_000 }), (e) => void got.push(e))).rejects.toThrow();
      expect(got).toEqual([events[0]]);
    });

    it('stops at once when aborted, destroying the connection', async () => {
      let socket: Socket | undefined;
      handler = (req, res) => {
        socket = req.socket;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`${JSON.stringify(events[0])}\n`);
      };
      const abort = new AbortController();
      const got: unknown[] = [];
      const started = Date.now();
      const error = await caught(
        collect(kubeconfig({ token: 't' }).watch('/w', { signal: abort.signal, idleTimeoutMs: 10_000 }), (event) => {
          got.push(event);
          setTimeout(() => abort.abort(), 50);
        }),
      );
      expect(error?.name).toBe('AbortError');
      expect(got).toEqual([events[0]]);
      expect(Date.now() - started).toBeLessThan(5_000);
      await new Promise<void>((resolve) => (socket!.destroyed ? resolve() : socket!.once('close', () => resolve())));
      expect(socket!.destroyed).toBe(true);
    });

    it('closes the connection when the consumer stops early', async () => {
      let socket: Socket | undefined;
      handler = (req, res) => {
        socket = req.socket;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(bytes);
      };
      for await (const event of kubeconfig({ token: 't' }).watch('/w', { signal: never(), idleTimeoutMs: 10_000 })) {
        expect(event).toEqual(events[0]);
        break;
      }
      await new Promise<void>((resolve) => (socket!.destroyed ? resolve() : socket!.once('close', () => resolve())));
      expect(socket!.destroyed).toBe(true);
    });
  });
});
