// svctrail as an extension API server behind the cluster's aggregator (issue 44 point 4): a test
// client plays kube-aggregator as it talks (aggregator-client.ts) to svctrail started with the
// request-header flags (--requestheader-client-ca-file, --requestheader-allowed-names): the
// availability check, the discovery fetch with its ETag and its legacy fallback, users' requests
// with their X-Remote-* headers, and what must not be believed.
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificateAuthority, issueClientCertificate, issueServingCertificate, loadCertificateAuthority, type CertificateAuthority } from '../../src/tls/certificates';
import { HISTORY_GROUP, HISTORY_RESOURCES, HISTORY_VERSION } from '../../src/history/history-api';
import { AGGREGATED_DISCOVERY_ACCEPT, AggregatorClient } from '../helpers/aggregator-client';
import { HttpsClient } from '../helpers/https-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

const now = () => new Date();
const SERVICE_NAME = 'svctrail.svctrail.svc';

describe('svctrail behind the cluster aggregator (request-header flags)', () => {
  let t: TestServer;
  let frontProxyCa: CertificateAuthority;
  let aggregator: AggregatorClient;
  let proxy: { certPem: string; keyPem: string };

  beforeAll(async () => {
    frontProxyCa = await createCertificateAuthority('front-proxy-ca', now);
    proxy = await issueClientCertificate(frontProxyCa, { user: 'front-proxy-client', groups: [] }, now);
    const caFile = join(tmpdir(), `front-proxy-ca-${process.pid}.crt`);
    writeFileSync(caFile, frontProxyCa.certPem);
    t = await startTestServer({ config: { requestheaderClientCaFile: caFile, requestheaderAllowedNames: 'front-proxy-client', tlsSan: SERVICE_NAME } });
    // caBundle = svctrail's CA: the aggregator verifies the serving certificate for <service>.<namespace>.svc.
    aggregator = new AggregatorClient({ url: t.server.url, serverName: SERVICE_NAME, ca: t.ca, cert: proxy.certPem, key: proxy.keyPem });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('passes the availability check: five parallel GETs of the group-version as system:kube-aggregator, each 2xx and fast', async () => {
    const answers = await aggregator.availabilityProbe(HISTORY_GROUP, HISTORY_VERSION);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    for (const answer of answers) expect(answer.ms).toBeLessThan(1_000);
    expect(answers[0].json).toMatchObject({ kind: 'APIResourceList', groupVersion: `${HISTORY_GROUP}/${HISTORY_VERSION}` });
  });

  it('answers the discovery fetch in aggregated discovery, with an ETag that a 304 keeps', async () => {
    const first = await aggregator.discovery();
    expect(first.status).toBe(200);
    // The aggregator uses a 200 only when its Content-Type carries the same g, v and as.
    expect(first.headers['content-type']).toBe(AGGREGATED_DISCOVERY_ACCEPT);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    const history = (first.json as { items: { metadata: { name: string }; versions: { version: string; resources: { resource: string }[] }[] }[] }).items.find(
      (g) => g.metadata.name === HISTORY_GROUP,
    )!;
    expect(history.versions.map((v) => v.version)).toEqual([HISTORY_VERSION]);
    expect(history.versions[0].resources.map((r) => r.resource)).toEqual(HISTORY_RESOURCES.map((r) => r.name));
    const again = await aggregator.discovery(etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(first.ms).toBeLessThan(1_000);
    expect((await aggregator.discovery('"stale"')).status).toBe(200);
  });

  it('answers the legacy fallback (system:kube-aggregator with no group: system:authenticated is added, and system:discovery allows it)', async () => {
    const legacy = await aggregator.legacyDiscovery(HISTORY_GROUP, HISTORY_VERSION);
    expect(legacy.status).toBe(200);
    expect(legacy.json).toMatchObject({ kind: 'APIResourceList', groupVersion: `${HISTORY_GROUP}/${HISTORY_VERSION}` });
  });

  it('takes the user from X-Remote-User, each X-Remote-Group line as one group, and adds system:authenticated', async () => {
    const whoami = await aggregator.proxy(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { name: 'alice', uid: 'u-1', groups: ['devs, inc', 'system:masters'], extra: { 'acme.com/team': ['a'] } },
      {},
      JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    );
    expect(whoami.status).toBe(201);
    const userInfo = (whoami.json as { status: { userInfo: Record<string, unknown> } }).status.userInfo;
    expect(userInfo.username).toBe('alice');
    expect(userInfo.groups).toEqual(['devs, inc', 'system:masters', 'system:authenticated']);
    // No --requestheader-uid-headers: a uid header is not believed.
    expect(userInfo.uid).toBeUndefined();
  });

  it("serves the history to a user the cluster allows, and answers kube-apiserver's 403 to one it does not", async () => {
    const allowed = await aggregator.proxy('GET', `/apis/${HISTORY_GROUP}/${HISTORY_VERSION}/namespaces/default/changes`, { name: 'alice', groups: ['system:masters'] });
    expect(allowed.status).toBe(200);
    expect(allowed.json).toMatchObject({ kind: 'ServiceChangeList', apiVersion: `${HISTORY_GROUP}/${HISTORY_VERSION}` });
    const denied = await aggregator.proxy('GET', `/apis/${HISTORY_GROUP}/${HISTORY_VERSION}/namespaces/default/changes`, { name: 'bob', groups: ['devs'] });
    expect(denied.status).toBe(403);
    expect(denied.json).toMatchObject({ kind: 'Status', reason: 'Forbidden' });
    expect((denied.json as { message: string }).message).toContain('User "bob" cannot list resource "changes" in API group "history.svctrail.io" in the namespace "default"');
  });

  it("tells the aggregator there is no OpenAPI document, so svctrail's api/v1 never enters the cluster's", async () => {
    for (const path of ['/openapi/v2', '/openapi/v3']) {
      const answer = await aggregator.proxy('GET', path, { name: 'system:aggregator' }, { Accept: 'application/json' });
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ kind: 'Status', code: 404 });
    }
    // Everyone else still gets them (kubectl explain against svctrail itself).
    expect((await t.client.request('GET', '/openapi/v3')).status).toBe(200);
  });

  it('believes no header without the front-proxy certificate, from a name not allowed, or from a certificate without clientAuth', async () => {
    const noCertificate = new AggregatorClient({ url: t.server.url, serverName: SERVICE_NAME, ca: t.ca, cert: '', key: '' });
    expect((await noCertificate.proxy('GET', '/apis', { name: 'alice', groups: ['system:masters'] })).status).toBe(401);
    const mallory = await issueClientCertificate(frontProxyCa, { user: 'mallory', groups: [] }, now);
    const notAllowed = new AggregatorClient({ url: t.server.url, serverName: SERVICE_NAME, ca: t.ca, cert: mallory.certPem, key: mallory.keyPem });
    const refused = await notAllowed.proxy('GET', '/healthz', { name: 'alice', groups: ['system:masters'] });
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized' });
    const serving = await issueServingCertificate(frontProxyCa, {}, now);
    const wrongUsage = new AggregatorClient({ url: t.server.url, serverName: SERVICE_NAME, ca: t.ca, cert: serving.certPem, key: serving.keyPem });
    expect((await wrongUsage.proxy('GET', '/apis', { name: 'alice', groups: ['system:masters'] })).status).toBe(401);
  });

  it("never takes the front-proxy certificate for a user of svctrail's own, and svctrail's own certificates never speak for others", async () => {
    // The proxy's certificate without a username header: nothing authenticates it.
    const bare = await aggregator.proxy('GET', '/apis', { name: '' });
    expect(bare.status).toBe(401);
    // A certificate from svctrail's CA is its own user, whatever the headers say.
    const svctrailCa = await loadCertificateAuthority({ certPem: t.ca, keyPem: readFileSync(join(t.dataDir, 'ca.key'), 'utf8') });
    const carol = await issueClientCertificate(svctrailCa, { user: 'carol', groups: ['system:masters'] }, now);
    const own = new AggregatorClient({ url: t.server.url, serverName: SERVICE_NAME, ca: t.ca, cert: carol.certPem, key: carol.keyPem });
    const whoami = await own.proxy(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { name: 'admin', groups: ['x'] },
      {},
      JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    );
    expect((whoami.json as { status: { userInfo: { username: string; groups: string[] } } }).status.userInfo).toMatchObject({ username: 'carol', groups: ['system:masters', 'system:authenticated'] });
    // And bearer tokens work as before.
    expect((await new HttpsClient(t.server.url, { ca: t.ca, token: t.adminToken }).request('GET', '/apis')).status).toBe(200);
  });
});
