// Plays the cluster's aggregator (kube-aggregator) towards an extension API server, as it talks:
// TLS with the front-proxy client certificate (--proxy-client-cert-file), ServerName
// <service>.<namespace>.svc, the proxied user in X-Remote-* headers (client-go's
// SetAuthProxyHeaders: X-Remote-User, X-Remote-Uid when not empty, one X-Remote-Group line per
// group, one X-Remote-Extra-<escaped key> line per value), no Authorization; the availability
// check (five parallel GETs of /apis/<group>/<version> as system:kube-aggregator in
// system:masters, 5 s each) and the discovery fetch (/apis with the aggregated-discovery Accept
// and the last ETag; its legacy fallback as system:kube-aggregator without groups).
import { request } from 'node:https';

export interface ProxiedUser {
  name: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AggregatorAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
  ms: number;
}

export interface AggregatorOptions {
  /** The URL of the Service's endpoint (here: the test server's). */
  url: string;
  /** The name the aggregator verifies the serving certificate for. */
  serverName: string;
  /** caBundle; undefined: insecureSkipTLSVerify. */
  ca?: string;
  cert: string;
  key: string;
}

export const AGGREGATED_DISCOVERY_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const AGGREGATOR = { name: 'system:kube-aggregator', groups: ['system:masters'] };

/** Go's url.PathEscape as SetAuthProxyHeaders applies it to an extra key. */
function pathEscape(key: string): string {
  return encodeURIComponent(key).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export class AggregatorClient {
  constructor(private readonly options: AggregatorOptions) {}

  /** A user's request, proxied. */
  proxy(method: string, path: string, user: ProxiedUser, extraHeaders: Record<string, string> = {}, body?: string): Promise<AggregatorAnswer> {
    const lines: [string, string][] = [['X-Remote-User', user.name]];
    if (user.uid) lines.push(['X-Remote-Uid', user.uid]);
    for (const group of user.groups ?? []) lines.push(['X-Remote-Group', group]);
    for (const [key, values] of Object.entries(user.extra ?? {})) for (const value of values) lines.push([`X-Remote-Extra-${pathEscape(key)}`, value]);
    for (const [name, value] of Object.entries(extraHeaders)) lines.push([name, value]);
    return this.send(method, path, lines, body);
  }

  /** The availability check: five parallel GETs, each bounded by 5 s as the controller's client is. */
  async availabilityProbe(group: string, version: string): Promise<AggregatorAnswer[]> {
    return Promise.all(Array.from({ length: 5 }, () => this.proxy('GET', `/apis/${group}/${version}`, AGGREGATOR)));
  }

  /** The aggregated discovery fetch, with the ETag of the last answer when there was one. */
  discovery(etag?: string): Promise<AggregatorAnswer> {
    return this.proxy('GET', '/apis', AGGREGATOR, { Accept: AGGREGATED_DISCOVERY_ACCEPT, ...(etag ? { 'If-None-Match': etag } : {}) });
  }

  /** The legacy fallback: one group-version as system:kube-aggregator, no groups, JSON. */
  legacyDiscovery(group: string, version: string): Promise<AggregatorAnswer> {
    return this.proxy('GET', `/apis/${group}/${version}`, { name: 'system:kube-aggregator' }, { Accept: 'application/json' });
  }

  private send(method: string, path: string, lines: [string, string][], body?: string): Promise<AggregatorAnswer> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, this.options.url), {
        method,
        // Raw header lines: a repeated X-Remote-Group stays one line per group on the wire.
        // Node adds no Host to an array of header lines.
        headers: ['Host', this.options.serverName, ...lines.flat(), ...(body ? ['Content-Type', 'application/json'] : [])],
        servername: this.options.serverName,
        ca: this.options.ca,
        rejectUnauthorized: this.options.ca !== undefined,
        cert: this.options.cert,
        key: this.options.key,
        agent: false,
        timeout: 5_000,
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 5 s`)));
      req.on('error', reject);
      req.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json, ms: Date.now() - started });
        });
      });
      req.end(body);
    });
  }
}
