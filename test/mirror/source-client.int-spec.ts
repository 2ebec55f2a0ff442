// The mirror's source client against a real HTTPS server on 127.0.0.1: every kind of kubeconfig
// credential it presents, the re-read after a 401, and the watch stream's framing and timeouts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { SourceClient } from '../../src/mirror/source/source-client';
import { SourceHttpError } from '../../src/mirror/source/source-http-error';
import { loadSourceKubeconfig } from '../../src/mirror/source/source-kubeconfig';
import { createCertificateAuthority, issueClientCertificate, issueServingCertificate } from '../../src/tls/certificates';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('SourceClient against a real HTTPS server', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let caPem: string;
  let clientCa: Awaited<ReturnType<typeof createCertificateAuthority>>;
  let handler: Handler;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svctrail-source-client-'));
    const ca = await createCertificateAuthority('source-ca', () => new Date());
    clientCa = await createCertificateAuthority('client-ca', () => new Date());
    const serving = await issueServingCertificate(ca, {}, () => new Date());
    caPem = ca.certPem;
    server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: clientCa.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const kubeconfig = (user: object, cluster: object = { server: url, 'certificate-authority-data': Buffer.from(caPem).toString('base64') }) => {
    const path = join(dir, `config-${Math.random().toString(36).slice(2)}`);
    writeFileSync(path, stringify({ 'current-context': 'c', contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }], clusters: [{ name: 'k', cluster }], users: [{ name: 'u', user }] }));
    return new SourceClient(loadSourceKubeconfig(path));
  };
  const json = (res: ServerResponse, code: number, body: object) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const unauthorized = (res: ServerResponse) => json(res, 401, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });

  it('presents a bearer token and trusts the CA from a file', async () => {
    const caFile = join(dir, 'ca.crt');
    writeFileSync(caFile, caPem);
    handler = (req, res) => (req.headers.authorization === 'Bearer t0k' ? json(res, 200, { path: req.url, agent: req.headers['user-agent'] }) : unauthorized(res));
    const client = kubeconfig({ token: 't0k' }, { server: url, 'certificate-authority': caFile });
    expect(await client.getJson('/api/v1/services?limit=2')).toEqual({ path: '/api/v1/services?limit=2', agent: expect.stringMatching(/^svctrail-mirror\//) });
    client.close();
  });

  it('refuses a server its CA did not sign', async () => {
    const other = await createCertificateAuthority('other', () => new Date());
    handler = (_req, res) => json(res, 200, {});
    const client = kubeconfig({ token: 't' }, { server: url, 'certificate-authority-data': Buffer.from(other.certPem).toString('base64') });
    await expect(client.getJson('/x')).rejects.toThrow(/self-signed|unable to verify|certificate/i);
    client.close();
  });

  it('presents a client certificate (inline data) the server verifies', async () => {
    const cert = await issueClientCertificate(clientCa, { user: 'mirror', groups: ['readers'] }, () => new Date());
    handler = (req, res) => {
      const socket = req.socket as TLSSocket;
      json(res, socket.authorized ? 200 : 401, { cn: socket.getPeerCertificate().subject?.CN });
    };
    const client = kubeconfig({ 'client-certificate-data': Buffer.from(cert.certPem).toString('base64'), 'client-key-data': Buffer.from(cert.keyPem).toString('base64') });
    expect(await client.getJson('/x')).toEqual({ cn: 'mirror' });
    client.close();
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
    await expect(client.getJson('/x')).rejects.toMatchObject({ status: 401 });
    expect(seen).toEqual(['Bearer old', 'Bearer old']);
    seen = [];
    writeFileSync(tokenFile, 'new\n');
    expect(await client.getJson('/x')).toEqual({ ok: true });
    expect(seen).toEqual(['Bearer old', 'Bearer new']);
    client.close();
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
    handler = (req, res) => (req.headers.authorization === 'Bearer tok-2' ? json(res, 200, { ok: true }) : unauthorized(res));
    const client = kubeconfig({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, env: [{ name: 'REGION', value: 'eu-1' }], interactiveMode: 'Never' } });
    expect(await client.getJson('/x')).toEqual({ ok: true });
    expect(readFileSync(counter, 'utf8')).toBe('2');
    const [info, region] = readFileSync(join(dir, 'exec-info'), 'utf8').split('\n');
    expect(JSON.parse(info)).toEqual({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', spec: { interactive: false } });
    expect(region).toBe('eu-1');
    // The token is kept while it is accepted: no third run.
    expect(await client.getJson('/x')).toEqual({ ok: true });
    expect(readFileSync(counter, 'utf8')).toBe('2');
    client.close();
  });

  it('says which plugin failed and how', async () => {
    const plugin = join(dir, 'failing.js');
    writeFileSync(plugin, `#!${process.execPath}\nprocess.stderr.write('no credentials for you\\n'); process.exit(3);\n`);
    chmodSync(plugin, 0o755);
    const client = kubeconfig({ exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: plugin } });
    await expect(client.getJson('/x')).rejects.toThrow(/failing\.js failed \(exit 3\): no credentials for you/);
    client.close();
  });

  it('answers a non-2xx with the Status the source sent', async () => {
    handler = (_req, res) => json(res, 410, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the continue token is too old', reason: 'Expired', code: 410 });
    const client = kubeconfig({ token: 't' });
    const error = await client.getJson('/api/v1/services?continue=x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceHttpError);
    expect(error).toMatchObject({ status: 410, statusObject: { reason: 'Expired', code: 410 } });
    client.close();
  });

  it('yields each watch event whole, however the bytes are split (a character across chunks included), and ends with the response', async () => {
    const events = [{ type: 'ADDED', object: { name: 'ü-ß-€' } }, { type: 'BOOKMARK', object: { rv: '7' } }, { type: 'MODIFIED', object: { name: 'x' } }];
    const bytes = Buffer.from(events.map((e) => JSON.stringify(e) + '\n').join(''));
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let at = 0;
      const next = () => {
        if (at >= bytes.length) return res.end();
        res.write(bytes.subarray(at, at + 3));
        at += 3;
        setImmediate(next);
      };
      next();
    };
    const client = kubeconfig({ token: 't' });
    const got: unknown[] = [];
    for await (const event of client.watch('/api/v1/services?watch=true', { signal: new AbortController().signal, idleTimeoutMs: 5_000 })) got.push(event);
    expect(got).toEqual(events);
    client.close();
  });

  it('gives a watch up when nothing arrives for the idle timeout, and when aborted', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"BOOKMARK","object":{}}\n');
    };
    const client = kubeconfig({ token: 't' });
    const got: unknown[] = [];
    await expect(
      (async () => {
        for await (const event of client.watch('/w', { signal: new AbortController().signal, idleTimeoutMs: 300 })) got.push(event);
      })(),
    ).rejects.toThrow(/nothing arrived on the source's watch for 300 ms/);
    expect(got).toHaveLength(1);

    const abort = new AbortController();
    const reading = (async () => {
      for await (const _event of client.watch('/w', { signal: abort.signal, idleTimeoutMs: 10_000 })) abort.abort();
    })();
    await expect(reading).rejects.toThrow();
    client.close();
  });
});
