// GET and WATCH against the source API server named by a kubeconfig, over HTTPS with its CA and
// the user's credentials (see source-credentials.ts). A 401 re-reads the credentials and tries
// once more (an expired exec token, a rotated token file). A watch yields each JSON line as it
// arrives and is given up when nothing arrives for `idleTimeoutMs`: a stalled source never hangs
// the reflector.
import type { IncomingMessage } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { SourceCredentials } from './source-credentials';
import type { Credentials } from './source-credentials';
import { SourceHttpError } from './source-http-error';
import type { SourceConnection } from './source-kubeconfig';

const USER_AGENT = 'svctrail-mirror/0.1.0';
const DEFAULT_TIMEOUT_MS = 60_000;

export class SourceClient {
  private agent?: { version: number; agent: HttpsAgent | HttpAgent };
  private readonly url: URL;

  constructor(
    readonly connection: SourceConnection,
    readonly credentials: SourceCredentials = new SourceCredentials(connection),
  ) {
    this.url = new URL(connection.server);
  }

  /** GET `path` as JSON; rejects with SourceHttpError for a non-2xx answer. */
  async getJson(path: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<unknown> {
    const response = await this.open(path, options.signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const text = await readBody(response);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`the source answered GET ${path} with a body that is not JSON`);
    }
  }

  /** A watch's events, one parsed JSON line each, until the source ends the response. */
  async *watch(path: string, options: { signal: AbortSignal; idleTimeoutMs: number }): AsyncGenerator<unknown> {
    // The idle timer covers the answer's headers too: its own timeout is the request's.
    const response = await this.open(path, options.signal, options.idleTimeoutMs);
    const decoder = new StringDecoder('utf8');
    let buffer = '';
    let idle: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => response.destroy(new Error(`nothing arrived on the source's watch for ${options.idleTimeoutMs} ms`)), options.idleTimeoutMs);
    };
    arm();
    try {
      for await (const chunk of response) {
        arm();
        buffer += decoder.write(chunk as Buffer);
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (line) yield JSON.parse(line) as unknown;
        }
      }
      if (!response.complete) throw new Error('the source cut the watch off mid-response');
      const rest = (buffer + decoder.end()).trim();
      if (rest) yield JSON.parse(rest) as unknown;
    } finally {
      clearTimeout(idle);
      response.destroy();
    }
  }

  /** Sends the GET; answers 2xx responses, rejects others (after one retry with fresh credentials on 401). */
  private async open(path: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<IncomingMessage> {
    for (let attempt = 1; ; attempt++) {
      const response = await this.send(path, await this.credentials.current(), signal, timeoutMs);
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) return response;
      const body = await readBody(response).catch(() => '');
      if (status === 401 && attempt === 1) {
        this.credentials.invalidate();
        continue;
      }
      throw SourceHttpError.from(status, path, body);
    }
  }

  private send(path: string, credentials: Credentials, signal: AbortSignal | undefined, timeoutMs: number): Promise<IncomingMessage> {
    const secure = this.url.protocol === 'https:';
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
    // As kubectl: no credentials over plain http.
    if (secure && credentials.token) headers.authorization = `Bearer ${credentials.token}`;
    else if (secure && credentials.basic) headers.authorization = `Basic ${Buffer.from(`${credentials.basic.username}:${credentials.basic.password}`).toString('base64')}`;
    const target = new URL(this.url.pathname.replace(/\/$/, '') + path, this.url);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('aborted'));
      const request = (secure ? httpsRequest : httpRequest)(target, { method: 'GET', headers, agent: this.agentFor(credentials, secure) }, (response) => {
        request.setTimeout(0);
        resolve(response);
      });
      request.setTimeout(timeoutMs, () => request.destroy(new Error(`the source did not answer GET ${path} within ${timeoutMs} ms`)));
      const onAbort = () => request.destroy(new Error('aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      request.on('close', () => signal?.removeEventListener('abort', onAbort));
      request.on('error', reject);
      request.end();
    });
  }

  /** One keep-alive agent per set of credentials: a new client certificate needs a new TLS session. */
  private agentFor(credentials: Credentials, secure: boolean): HttpsAgent | HttpAgent {
    const version = this.credentials.version;
    if (this.agent?.version === version) return this.agent.agent;
    this.agent?.agent.destroy();
    const agent = secure
      ? new HttpsAgent({
          keepAlive: true,
          ca: credentials.caPem,
          cert: credentials.certPem,
          key: credentials.keyPem,
          rejectUnauthorized: !this.connection.insecureSkipTlsVerify,
          ...(this.connection.tlsServerName ? { servername: this.connection.tlsServerName } : {}),
        })
      : new HttpAgent({ keepAlive: true });
    this.agent = { version, agent };
    return agent;
  }

  close(): void {
    this.agent?.agent.destroy();
    this.agent = undefined;
  }
}

function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (c: Buffer) => chunks.push(c));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
    response.on('aborted', () => reject(new Error('the source cut the answer off')));
  });
}
