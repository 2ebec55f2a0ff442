// GET, POST and WATCH against an API server named by a kubeconfig or the Pod's in-cluster
// config, over HTTPS with its CA and the user's credentials (cluster-credentials.ts): the mirror's
// source, and the cluster svctrail delegates authentication and authorization to. A 401 re-reads
// the credentials and tries once more on a fresh connection (an expired exec token, a rotated
// token file). A watch yields each JSON line as it arrives and is given up when nothing arrives
// for `idleTimeoutMs`: a stalled cluster never hangs a reflector.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { JsonLines } from './json-lines';
import { RequestCutoff } from './request-cutoff';
import { ClusterCredentials } from './cluster-credentials';
import type { Credentials } from './cluster-credentials';
import { ClusterHttpError } from './cluster-http-error';
import type { ClusterConnection } from './kubeconfig-connection';

export interface GetOptions {
  signal?: AbortSignal;
  /** For the whole exchange: connecting, the answer's headers and its body. */
  timeoutMs?: number;
}

export interface ClusterWatchOptions {
  signal: AbortSignal;
  /** The answer's headers, and then each next byte, must arrive within this. */
  idleTimeoutMs: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** An error answer's body is read for its Status only; a proxy's endless page is cut here. */
const MAX_ERROR_BODY = 1024 * 1024;

export const USER_AGENT = `svctrail-mirror/${packageVersion()}`;
/** What the clients of the authentication and authorization cluster call themselves. */
export const SVCTRAIL_USER_AGENT = `svctrail/${packageVersion()}`;

export interface ClusterClientOptions {
  /** Names the cluster in messages ("the source answered 403 …"). */
  name?: string;
  userAgent?: string;
  credentials?: ClusterCredentials;
}

export class ClusterClient {
  private agent?: { credentials: Credentials; agent: HttpsAgent | HttpAgent };
  private readonly base: URL;
  readonly name: string;
  readonly credentials: ClusterCredentials;
  private readonly userAgent: string;

  constructor(
    readonly connection: ClusterConnection,
    options: ClusterClientOptions = {},
  ) {
    this.base = new URL(connection.server);
    this.name = options.name ?? 'the cluster';
    this.userAgent = options.userAgent ?? USER_AGENT;
    this.credentials = options.credentials ?? new ClusterCredentials(connection);
  }

  /** GET `path` as JSON; rejects with ClusterHttpError for a non-2xx answer. */
  async getJson(path: string, options: GetOptions = {}): Promise<unknown> {
    return this.exchange('GET', path, undefined, options);
  }

  /** POST `body` as JSON to `path` and answer the JSON the cluster sent back; rejects with ClusterHttpError for a non-2xx answer. */
  async postJson(path: string, body: unknown, options: GetOptions = {}): Promise<unknown> {
    return this.exchange('POST', path, Buffer.from(JSON.stringify(body), 'utf8'), options);
  }

  /**
   * A watch's events, one parsed JSON line each, until the cluster ends the answer. Throws
   * ClusterHttpError for a non-2xx answer, ClusterTimeoutError when nothing arrives for
   * `idleTimeoutMs`, and an AbortError when the signal aborts (the socket is destroyed at once).
   */
  async *watch(path: string, options: ClusterWatchOptions): AsyncGenerator<unknown, void, undefined> {
    const idle = options.idleTimeoutMs;
    const cutoff = new RequestCutoff(options.signal);
    let response: IncomingMessage | undefined;
    try {
      cutoff.arm(idle, `${this.name} did not answer the watch ${path} within ${idle} ms`);
      response = await this.open('GET', path, undefined, cutoff);
      const lines = new JsonLines(this.name);
      // Armed only while waiting for bytes: a consumer slow to take an event is not a stalled cluster.
      cutoff.arm(idle, `nothing arrived on ${possessive(this.name)} watch for ${idle} ms`);
      for await (const chunk of response as AsyncIterable<Buffer>) {
        cutoff.disarm();
        for (const event of lines.push(chunk)) yield event;
        if (cutoff.failure) throw cutoff.failure;
        cutoff.arm(idle, `nothing arrived on ${possessive(this.name)} watch for ${idle} ms`);
      }
      cutoff.disarm();
      if (cutoff.failure) throw cutoff.failure;
      if (!response.complete) throw new Error(`${this.name} cut the watch ${path} off mid-answer`);
      yield* lines.end();
    } finally {
      cutoff.dispose();
      response?.destroy();
    }
  }

  /** Idle connections end now, busy ones (a watch) when done; the next request connects afresh. */
  private retireAgent(): void {
    if (this.agent) retire(this.agent.agent);
    this.agent = undefined;
  }

  /** Ends every connection; the client stays usable (the next request connects again). */
  close(): void {
    this.agent?.agent.destroy();
    this.agent = undefined;
  }

  /** One request and its whole JSON answer, within `timeoutMs` in all. */
  private async exchange(method: 'GET' | 'POST', path: string, body: Buffer | undefined, options: GetOptions): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const cutoff = new RequestCutoff(options.signal);
    cutoff.arm(timeoutMs, `${this.name} did not answer ${method} ${path} within ${timeoutMs} ms`);
    try {
      const response = await this.open(method, path, body, cutoff);
      const answer = await readBody(response, cutoff, Number.POSITIVE_INFINITY, this.name);
      try {
        return JSON.parse(answer.toString('utf8')) as unknown;
      } catch {
        throw new Error(`${this.name} answered ${method} ${path} with a body that is not JSON (${String(response.headers['content-type'] ?? 'no content type')})`);
      }
    } finally {
      cutoff.dispose();
    }
  }

  /** Sends the request and answers a 2xx response; rejects others (after one retry with fresh credentials on 401). */
  private async open(method: 'GET' | 'POST', path: string, body: Buffer | undefined, cutoff: RequestCutoff): Promise<IncomingMessage> {
    for (let attempt = 1; ; attempt++) {
      const credentials = await this.credentials.current();
      if (cutoff.failure) throw cutoff.failure;
      const response = await this.send(method, path, body, credentials, cutoff);
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        cutoff.attach(response);
        return response;
      }
      const answer = await readBody(response, cutoff, MAX_ERROR_BODY, this.name);
      if (status === 401 && attempt === 1) {
        // client-go's exec authenticator does the same: a refused credential is read again, once.
        this.credentials.invalidate();
        this.retireAgent();
        continue;
      }
      throw ClusterHttpError.from(status, path, answer.toString('utf8'), { method, who: this.name, retryAfter: response.headers['retry-after'] });
    }
  }

  private send(method: 'GET' | 'POST', path: string, body: Buffer | undefined, credentials: Credentials, cutoff: RequestCutoff): Promise<IncomingMessage> {
    const secure = this.base.protocol === 'https:';
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(body.length);
    }
    // As kubectl: no credentials over plain http.
    if (secure && credentials.token) headers.authorization = `Bearer ${credentials.token}`;
    else if (secure && credentials.basic) headers.authorization = `Basic ${Buffer.from(`${credentials.basic.username}:${credentials.basic.password}`).toString('base64')}`;
    // The server URL may carry a path prefix (a cluster behind a proxy): requests go below it.
    const target = new URL(this.base.pathname.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`), this.base);
    return new Promise((resolve, reject) => {
      const request = (secure ? httpsRequest : httpRequest)(target, { method, headers, agent: this.agentFor(credentials, secure) }, resolve);
      request.on('error', reject);
      cutoff.attach(request);
      request.end(body);
    });
  }

  /**
   * One keep-alive agent per TLS identity (CA, client certificate and key): a new client
   * certificate needs a new TLS session. A token read again with the same TLS files (every
   * minute from a token file) keeps the connections; after a 401 they are given up (open()), so the
   * retry may reach another, healthier API server replica.
   */
  private agentFor(credentials: Credentials, secure: boolean): HttpsAgent | HttpAgent {
    if (this.agent && sameTls(this.agent.credentials, credentials)) return this.agent.agent;
    this.retireAgent();
    const agent = secure
      ? new HttpsAgent({
          keepAlive: true,
          ...(credentials.caPem ? { ca: credentials.caPem } : {}),
          ...(credentials.certPem && credentials.keyPem ? { cert: credentials.certPem, key: credentials.keyPem } : {}),
          rejectUnauthorized: !this.connection.insecureSkipTlsVerify,
          ...(this.connection.tlsServerName ? { servername: this.connection.tlsServerName } : {}),
        })
      : new HttpAgent({ keepAlive: true });
    this.agent = { credentials, agent };
    return agent;
  }
}

function sameTls(a: Credentials, b: Credentials): boolean {
  return a.caPem === b.caPem && a.certPem === b.certPem && a.keyPem === b.keyPem;
}

/** An agent replaced by a newer one: its idle connections end now, busy ones (a watch) when done. */
function retire(agent: HttpsAgent | HttpAgent): void {
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  agent.on('free', (socket: Socket) => socket.destroy());
}

/** The answer's body; past `limit` bytes the answer is given up and what came is enough. */
async function readBody(response: IncomingMessage, cutoff: RequestCutoff, limit: number, who: string): Promise<Buffer> {
  cutoff.attach(response);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) return Buffer.concat(chunks).subarray(0, limit);
  }
  if (cutoff.failure) throw cutoff.failure;
  if (!response.complete) throw new Error(`${who} cut its answer off`);
  return Buffer.concat(chunks);
}

function possessive(name: string): string {
  return `${name}'s`;
}

function packageVersion(): string {
  try {
    // src/cluster and dist/cluster are both two folders below package.json.
    const version = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' && version ? version : '0.1.0';
  } catch {
    return '0.1.0';
  }
}
