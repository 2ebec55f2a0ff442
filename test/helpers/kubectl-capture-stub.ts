// A loopback stub that records what real kubectl POSTs (path, Content-Type, body) and echoes the
// body back as the created object, in the body's own format; every other request is a 404 Status.
// Used to take golden request bytes from kubectl at test time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl } from './kubectl';

export interface CapturedRequest {
  path: string;
  contentType: string;
  body: Buffer;
}

export class KubectlCaptureStub {
  private captured: CapturedRequest[] = [];

  private constructor(
    private readonly server: Server,
    private readonly work: string,
  ) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (req.method !== 'POST') {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","reason":"NotFound","code":404}');
          return;
        }
        const contentType = String(req.headers['content-type']);
        this.captured.push({ path: String(req.url), contentType, body });
        res.writeHead(201, { 'content-type': contentType }).end(body);
      });
    });
  }

  static async start(): Promise<KubectlCaptureStub> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const work = mkdtempSync(join(tmpdir(), 'svctrail-capture-'));
    const port = (server.address() as AddressInfo).port;
    writeFileSync(
      join(work, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'stub', cluster: { server: `http://127.0.0.1:${port}` } }],
        contexts: [{ name: 'stub', context: { cluster: 'stub', user: 'stub', namespace: 'default' } }],
        'current-context': 'stub',
        users: [{ name: 'stub', user: { token: 'x' } }],
      }),
    );
    return new KubectlCaptureStub(server, work);
  }

  /** Runs kubectl against the stub and returns the one body it POSTed. */
  async capture(binary: string, args: string[]): Promise<CapturedRequest> {
    this.captured = [];
    const result = await kubectl(binary, join(this.work, 'kubeconfig'), [`--cache-dir=${join(this.work, 'cache')}`, ...args]);
    if (this.captured.length !== 1) throw new Error(`kubectl ${args.join(' ')}: ${this.captured.length} bodies sent (exit ${result.status}): ${result.stderr}`);
    return this.captured[0];
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
    rmSync(this.work, { recursive: true, force: true });
  }
}
