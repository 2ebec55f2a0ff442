// GET and WATCH against the source API server named by a kubeconfig, over HTTPS with its CA and
// the user's credentials (see source-credentials.ts). A 401 re-reads the credentials and tries
// once more on a fresh connection (an expired exec token, a rotated token file). A watch yields
// each JSON line as it arrives and is given up when nothing arrives for `idleTimeoutMs`: a
// stalled source never hangs the reflector.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { JsonLines } from './json-lines';
import { RequestCutoff } from './request-cutoff';
import { SourceCredentials } from './source-credentials';
import type { Credentials } from './source-credentials';
import { SourceHttpError } from './source-http-error';
import type { SourceConnection } from './source-kubeconfig';

export interface GetOptions {
  signal?: AbortSignal;
  /** For the whole exchange: connecting, the answer's headers and its body. */
  timeoutMs?: number;
}

export interface SourceWatchOptions {
  signal: AbortSignal;
  /** The answer's headers, and then each next byte, must arrive within this. */
  idleTimeoutMs: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** An error answer's body is read for its Status only; a proxy's endless page is cut here. */
const MAX_ERROR_BODY = 1024 * 1024;

export const USER_AGENT = `svctrail-mirror/${packageVersion()}`;

export class SourceClient {
  private agent?: { credentials: Credentials; agent: HttpsAgent | HttpAgent };
  private readonly base: URL;

  constructor(
    readonly connection: SourceConnection,
    readonly credentials: SourceCredentials = new SourceCredentials(connection),
  ) {
    this.base = new URL(connection.server);
  }

  /** GET `path` as JSON; rejects with SourceHttpError for a non-2xx answer. */
  async getJson(path: string, options: GetOptions = {}): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const cutoff = new RequestCutoff(options.signal);
    cutoff.arm(timeoutMs, `the source did not answer GET ${path} within ${timeoutMs} ms`);
    try {
      const response = await this.open(path, cutoff);
      const body = await readBody(response, cutoff, Number.POSITIVE_INFINITY);
      try {
        return JSON.parse(body.toString('utf8')) as unknown;
      } catch {
        throw new Error(`the source answered GET ${path} with a body that is not JSON (${String(response.headers['content-type'] ?? 'no content type')})`);
      }
    } finally {
      cutoff.dispose();
    }
  }

  /**
   * A watch's events, one parsed JSON line each, until the source ends the answer. Throws
   * SourceHttpError for a non-2xx answer, SourceTimeoutError when nothing arrives for
   * `idleTimeoutMs`, and an AbortError when the signal aborts (the socket is destroyed at once).
   */
  async *watch(path: string, options: SourceWatchOptions): AsyncGenerator<unknown, void, undefined> {
    const idle = options.idleTimeoutMs;
    const cutoff = new RequestCutoff(options.signal);
    let response: IncomingMessage | undefined;
    try {
      cutoff.arm(idle, `the source did not answer the watch ${path} within ${idle} ms`);
      response = await this.open(path, cutoff);
      const lines = new JsonLines();
      // Armed only while waiting for bytes: a consumer slow to take an event is not a stalled source.
      cutoff.arm(idle, `nothing arrived on the source's watch for ${idle} ms`);
      for await (const chunk of response as AsyncIterable<Buffer>) {
        cutoff.disarm();
        for (const event of lines.push(chunk)) yield event;
        if (cutoff.failure) throw cutoff.failure;
        cutoff.arm(idle, `nothing arrived on the source's watch for ${idle} ms`);
      }
      cutoff.disarm();
      if (cutoff.failure) throw cutoff.failure;
      if (!response.complete) throw new Error(`the source cut the watch ${path} off mid-answer`);
      yield* lines.end();
    } finally {
      cutoff.dispose();
      response?.destroy();
    }
  }

  /** Ends every connection; the client stays usable (the next request connects again). */
  close(): void {
    this.agent?.agent.destroy();
    this.agent = undefined;
  }

  /** Sends the GET and answers a 2xx response; rejects others (after one retry with fresh credentials on 401). */
  private async open(path: string, cutoff: RequestCutoff): Promise<IncomingMessage> {
    for (let attempt = 1; ; attempt++) {
      const credentials = await this.credentials.current();
      if (cutoff.failure) throw cutoff.failure;
      const response = await this.send(path, credentials, cutoff);
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        cutoff.attach(response);
        return response;
      }
      const body = await readBody(response, cutoff, MAX_ERROR_BODY);
      if (status === 401 && attempt === 1) {
        // client-go's exec authenticator does the same: a refused credential is read again, once.
        this.credentials.invalidate();
        continue;
      }
      throw SourceHttpError.from(status, path, body.toString('utf8'));
    }
  }

  private send(path: string, credentials: Credentials, cutoff: RequestCutoff): Promise<IncomingMessage> {
    const secure = this.base.protocol === 'https:';
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
    // As kubectl: no credentials over plain http.
    if (secure && credentials.token) headers.authorization = `Bearer ${credentials.token}`;
    else if (secure && credentials.basic) headers.authorization = `Basic ${Buffer.from(`${credentials.basic.username}:${credentials.basic.password}`).toString('base64')}`;
    // The server URL may carry a path prefix (a cluster behind a proxy): requests go below it.
    const target = new URL(this.base.pathname.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`), this.base);
    return new Promise((resolve, reject) => {
      const request = (secure ? httpsRequest : httpRequest)(target, { method: 'GET', headers, agent: this.agentFor(credentials, secure) }, resolve);
      request.on('error', reject);
      cutoff.attach(request);
      request.end();
    });
  }

  /**
   * One keep-alive agent per reading of the credentials: a new client certificate needs a new TLS
   * session, and after a 401 a new connection may reach another, healthier API server replica.
   */
  private agentFor(credentials: Credentials, secure: boolean): HttpsAgent | HttpAgent {
    if (this.agent?.credentials === credentials) return this.agent.agent;
    if (this.agent) retire(this.agent.agent);
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

/** An agent replaced by a newer one: its idle connections end now, busy ones (a watch) when done. */
function retire(agent: HttpsAgent | HttpAgent): void {
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  agent.on('free', (socket: Socket) => socket.destroy());
}

/** The answer's body; past `limit` bytes the answer is given up and what came is enough. */
async function readBody(response: IncomingMessage, cutoff: RequestCutoff, limit: number): Promise<Buffer> {
  cutoff.attach(response);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) return Buffer.concat(chunks).subarray(0, limit);
  }
  if (cutoff.failure) throw cutoff.failure;
  if (!response.complete) throw new Error('the source cut its answer off');
  return Buffer.concat(chunks);
}

function packageVersion(): string {
  try {
    // src/mirror/source and dist/mirror/source are both three folders below package.json.
    const version = (JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' && version ? version : '0.1.0';
  } catch {
    return '0.1.0';
  }
}
