// A stand-in for a cluster's kube-apiserver that serves one object, the
// kube-system/extension-apiserver-authentication ConfigMap, in kube-apiserver's format: LIST
// and WATCH with the name's field selector, resourceVersions, ADDED/MODIFIED/DELETED events as
// JSON lines, 410 Expired for a compacted resourceVersion, and Status answers (401 without the
// token, 403 when told to refuse, 404 elsewhere). Tests rotate its CA by writing it again.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, issueServingCertificate } from '../../src/tls/certificates';

const PATH = '/api/v1/namespaces/kube-system/configmaps';
const NAME = 'extension-apiserver-authentication';

interface Version {
  resourceVersion: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  data: Record<string, string>;
}

export interface FixtureRequest {
  method: string;
  url: string;
  authorization?: string;
}

export class AuthenticationConfigMapFixture {
  readonly requests: FixtureRequest[] = [];
  /** Answer 403 to every request, as a cluster without the extension-apiserver-authentication-reader binding. */
  refuse = false;
  private versions: Version[] = [];
  private compactedBelow = 0;
  private nextResourceVersion = 100;
  private readonly uid = randomUUID();
  private readonly created = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  private readonly watchers = new Set<{ response: ServerResponse; send(version: Version): void }>();

  private constructor(
    private readonly server: Server,
    readonly token: string,
    readonly caPem: string,
    readonly url: string,
  ) {}

  static async start(): Promise<AuthenticationConfigMapFixture> {
    const now = () => new Date();
    const ca = await createCertificateAuthority('cluster-ca', now);
    const serving = await issueServingCertificate(ca, {}, now);
    const server = createServer({ key: serving.keyPem, cert: serving.certPem });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const fixture = new AuthenticationConfigMapFixture(server, randomUUID(), ca.certPem, `https://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request, response) => fixture.answer(request.method ?? 'GET', request.url ?? '/', request.headers.authorization, response));
    return fixture;
  }

  /** A kubeconfig for the fixture (a service account's token), written to a temporary folder. */
  kubeconfigFile(): string {
    const path = join(mkdtempSync(join(tmpdir(), 'svctrail-cm-fixture-')), 'kubeconfig');
    const ca = Buffer.from(this.caPem).toString('base64');
    writeFileSync(
      path,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: fixture, cluster: {server: "${this.url}", certificate-authority-data: ${ca}}}]`,
        `users: [{name: svctrail, user: {token: "${this.token}"}}]`,
        'contexts: [{name: fixture, context: {cluster: fixture, user: svctrail}}]',
        'current-context: fixture',
        '',
      ].join('\n'),
    );
    return path;
  }

  /** Creates or replaces the ConfigMap's data; open watches see ADDED or MODIFIED. */
  write(data: Record<string, string>): void {
    const exists = this.versions.length > 0 && this.versions[this.versions.length - 1].type !== 'DELETED';
    this.record({ resourceVersion: this.nextResourceVersion++, type: exists ? 'MODIFIED' : 'ADDED', data });
  }

  delete(): void {
    const last = this.versions[this.versions.length - 1];
    this.record({ resourceVersion: this.nextResourceVersion++, type: 'DELETED', data: last.data });
  }

  /** Forgets every version so far, as etcd's compaction: a watch from one of them gets 410 Expired. */
  compact(): void {
    this.compactedBelow = this.nextResourceVersion - 1;
  }

  /** Ends every open watch, as kube-apiserver does at its timeoutSeconds or when it restarts. */
  endWatches(): void {
    for (const watcher of this.watchers) watcher.response.end();
    this.watchers.clear();
  }

  get openWatches(): number {
    return this.watchers.size;
  }

  async close(): Promise<void> {
    this.endWatches();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private record(version: Version): void {
    this.versions.push(version);
    for (const watcher of this.watchers) watcher.send(version);
  }

  private object(version: Version, withType: boolean): object {
    return {
      ...(withType ? { kind: 'ConfigMap', apiVersion: 'v1' } : {}),
      metadata: { name: NAME, namespace: 'kube-system', uid: this.uid, resourceVersion: String(version.resourceVersion), creationTimestamp: this.created },
      data: version.data,
    };
  }

  private answer(method: string, url: string, authorization: string | undefined, response: ServerResponse): void {
    this.requests.push({ method, url, authorization });
    const target = new URL(url, this.url);
    if (authorization !== `Bearer ${this.token}`) return status(response, 401, 'Unauthorized', 'Unauthorized');
    if (target.pathname !== PATH || method !== 'GET') return status(response, 404, 'NotFound', 'the server could not find the requested resource');
    const watch = target.searchParams.get('watch') === 'true';
    if (this.refuse) {
      return status(
        response,
        403,
        'Forbidden',
        `configmaps is forbidden: User "system:serviceaccount:svctrail:svctrail" cannot ${watch ? 'watch' : 'list'} resource "configmaps" in API group "" in the namespace "kube-system"`,
      );
    }
    const selector = target.searchParams.get('fieldSelector');
    if (selector !== `metadata.name=${NAME}`) return status(response, 400, 'BadRequest', `this test cluster serves only the field selector metadata.name=${NAME}, not ${selector}`);
    const current = this.versions[this.versions.length - 1];
    const head = String(this.nextResourceVersion - 1);
    if (!watch) {
      const items = current && current.type !== 'DELETED' ? [this.object(current, false)] : [];
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: head }, items }));
      return;
    }
    const from = Number(target.searchParams.get('resourceVersion') ?? '0');
    response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    if (from < this.compactedBelow) {
      const expired = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${from} (${this.compactedBelow})`, reason: 'Expired', code: 410 };
      response.end(JSON.stringify({ type: 'ERROR', object: expired }) + '\n');
      return;
    }
    const watcher = {
      response,
      send: (version: Version) => response.write(JSON.stringify({ type: version.type, object: this.object(version, true) }) + '\n'),
    };
    for (const version of this.versions) if (version.resourceVersion > from) watcher.send(version);
    this.watchers.add(watcher);
    response.on('close', () => this.watchers.delete(watcher));
  }
}

function status(response: ServerResponse, code: number, reason: string, message: string): void {
  response.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }));
}
