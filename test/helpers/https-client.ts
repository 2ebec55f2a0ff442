// A minimal HTTPS client for end-to-end tests: real TLS against the server's CA, bearer token
// or client certificate, raw bodies in and out (so byte-exact assertions are possible).
import { request as httpsRequest } from 'node:https';

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
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

export interface RequestOptions {
  body?: string | object;
  contentType?: string;
  accept?: string;
  headers?: Record<string, string>;
  /** Overrides the client's credentials for this call (null = send none). */
  token?: string | null;
}

export class HttpsClient {
  constructor(
    readonly baseUrl: string,
    private readonly credentials: ClientCredentials,
  ) {}

  withToken(token: string | undefined): HttpsClient {
    return new HttpsClient(this.baseUrl, { ...this.credentials, token });
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
    const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json', ...(options.headers ?? {}) };
    if (body !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const token = options.token === undefined ? this.credentials.token : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        url,
        { method, headers, ca: this.credentials.ca, cert: this.credentials.cert, key: this.credentials.key, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }
}
