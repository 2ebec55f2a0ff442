// A minimal HTTPS client for end-to-end tests: real TLS against the server's CA, bearer token
// or client certificate, raw bodies in and out (so byte-exact assertions are possible).
import type { ClientRequest, IncomingMessage } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';

export interface ClientCredentials {
  ca: string;
  token?: string;
  cert?: string;
  key?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body's bytes (protobuf answers). */
  bytes: Buffer;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

export interface RequestOptions {
  body?: string | object | Buffer;
  contentType?: string;
  accept?: string;
  /** An array sends the header once per value, as a client that repeats it does. */
  headers?: Record<string, string | string[]>;
  /** Overrides the client's credentials for this call (null = send none). */
  token?: string | null;
  /** Gives up (rejects with a "timed out" error) when no whole answer came within this many ms. */
  timeoutMs?: number;
}

/**
 * With `keepAlive` (the client of an in-process test server, test-server.ts): one keep-alive
 * connection pool per set of TLS credentials (CA, client certificate and key) in this suite, so
 * requests reuse connections as kubectl and client-go do. A new TLS connection per request was
 * about half of the CPU a request cost client and server together. A client certificate is only
 * ever sent on connections of its own pool; bearer tokens are headers of each request. Streams
 * (watches, feeds) still open a connection of their own, which they hold. Without it (the
 * default, and what the tests of server processes that are signalled, killed and restarted use),
 * every request has a connection of its own.
 */
const pools = new Map<string, Agent>();

function poolFor(credentials: ClientCredentials): Agent {
  const key = JSON.stringify([credentials.ca, credentials.cert ?? '', credentials.key ?? '']);
  let agent = pools.get(key);
  if (!agent) {
    agent = new Agent({ keepAlive: true, ca: credentials.ca, cert: credentials.cert, key: credentials.key });
    pools.set(key, agent);
  }
  return agent;
}

export class HttpsClient {
  constructor(
    readonly baseUrl: string,
    private readonly credentials: ClientCredentials,
    private readonly options: { keepAlive?: boolean } = {},
  ) {}

  withToken(token: string | undefined): HttpsClient {
    return new HttpsClient(this.baseUrl, { ...this.credentials, token }, this.options);
  }

  get(path: string, options: RequestOptions = {}) {
    return this.request('GET', path, options);
  }
  post(path: string, body: RequestOptions['body'], options: RequestOptions = {}) {
    return this.request('POST', path, { ...options, body });
  }
  put(path: string, body: RequestOptions['body'], options: RequestOptions = {}) {
    return this.request('PUT', path, { ...options, body });
  }
  delete(path: string, options: RequestOptions = {}) {
    return this.request('DELETE', path, options);
  }

  request(method: string, path: string, options: RequestOptions = {}): Promise<RawResponse> {
    const url = new URL(path, this.baseUrl);
    const body = options.body === undefined ? undefined : typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
    const headers: Record<string, string | string[]> = { accept: options.accept ?? 'application/json', ...(options.headers ?? {}) };
    if (body !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const token = options.token === undefined ? this.credentials.token : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    return new Promise((resolve, reject) => {
      const tls = this.options.keepAlive ? { agent: poolFor(this.credentials) } : { ca: this.credentials.ca, cert: this.credentials.cert, key: this.credentials.key, agent: false as const };
      const req = httpsRequest(url, { method, headers, ...tls }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, bytes, json });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      if (options.timeoutMs !== undefined) {
        const timer = setTimeout(() => req.destroy(new Error(`${method} ${path} timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
        req.on('close', () => clearTimeout(timer));
      }
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  /** Opens a streaming GET and hands over the raw response (for binary streams). */
  openStream(path: string, accept: string): Promise<{ response: IncomingMessage; request: ClientRequest }> {
    const url = new URL(path, this.baseUrl);
    const headers: Record<string, string> = { accept };
    if (this.credentials.token) headers.authorization = `Bearer ${this.credentials.token}`;
    return new Promise((resolve, reject) => {
      const request = httpsRequest(url, { method: 'GET', headers, ca: this.credentials.ca, agent: false }, (response) => resolve({ response, request }));
      request.on('error', reject);
      request.end();
    });
  }

  /** Opens a streaming GET (a watch) and yields parsed lines as they arrive. */
  stream(path: string, options: { accept?: string } = {}): Promise<WatchStream> {
    const url = new URL(path, this.baseUrl);
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
    if (this.credentials.token) headers.authorization = `Bearer ${this.credentials.token}`;
    return new Promise((resolve, reject) => {
      const req = httpsRequest(url, { method: 'GET', headers, ca: this.credentials.ca, agent: false }, (res) => resolve(new WatchStream(res)));
      req.on('error', reject);
      req.end();
    });
  }
}

/** Lines of a watch response, readable one at a time with a timeout. */
export class WatchStream {
  private buffer = '';
  private readonly lines: any[] = [];
  private waiting?: () => void;
  ended = false;
  /** Resolves when the server ends the stream (or it breaks): no timeout to tune. */
  readonly closed: Promise<void>;
  private markClosed!: () => void;

  constructor(readonly response: IncomingMessage) {
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (line.trim()) this.lines.push(JSON.parse(line));
      }
      this.waiting?.();
    });
    const end = () => {
      this.ended = true;
      this.waiting?.();
      this.markClosed();
    };
    response.on('end', end);
    response.on('close', end);
    response.on('error', end);
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /**
   * The next event, or undefined if the stream ended or nothing came within `ms`. The default is
   * generous: it only bounds how long a failing test waits, on a loaded machine too.
   */
  async next(ms = 30_000): Promise<any> {
    const deadline = Date.now() + ms;
    while (this.lines.length === 0 && !this.ended) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.lines.shift();
  }

  async take(count: number, ms = 30_000): Promise<any[]> {
    const out: any[] = [];
    for (let i = 0; i < count; i++) {
      const event = await this.next(ms);
      if (event === undefined) break;
      out.push(event);
    }
    return out;
  }

  close(): void {
    this.response.destroy();
  }
}
