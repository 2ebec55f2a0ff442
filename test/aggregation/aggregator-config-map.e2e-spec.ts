// svctrail started with --authentication-kubeconfig and no request-header flags reads the front
// proxy from that cluster's kube-system/extension-apiserver-authentication ConfigMap (a test
// cluster serving that one ConfigMap in kube-apiserver's format), and follows its rotation.
import 'reflect-metadata';
import { createCertificateAuthority, issueClientCertificate } from '../../src/tls/certificates';
import { HISTORY_GROUP, HISTORY_VERSION } from '../../src/history/history-api';
import { AggregatorClient } from '../helpers/aggregator-client';
import { AuthenticationConfigMapFixture } from '../helpers/authentication-config-map-fixture';
import { startTestServer, type TestServer } from '../helpers/test-server';

const now = () => new Date();

function kubeadmData(caPem: string): Record<string, string> {
  return {
    'requestheader-client-ca-file': caPem,
    'requestheader-allowed-names': '["front-proxy-client"]',
    'requestheader-username-headers': '["X-Remote-User"]',
    'requestheader-group-headers': '["X-Remote-Group"]',
    'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
  };
}

describe('svctrail behind the aggregator, its front proxy read from the cluster', () => {
  let fixture: AuthenticationConfigMapFixture;
  let t: TestServer | undefined;

  beforeEach(async () => {
    fixture = await AuthenticationConfigMapFixture.start();
  });
  afterEach(async () => {
    await t?.stop();
    t = undefined;
    await fixture.close();
  });

  async function proxyFrom(ca: Awaited<ReturnType<typeof createCertificateAuthority>>, server: TestServer): Promise<AggregatorClient> {
    const proxy = await issueClientCertificate(ca, { user: 'front-proxy-client', groups: [] }, now);
    return new AggregatorClient({ url: server.server.url, serverName: 'localhost', ca: server.ca, cert: proxy.certPem, key: proxy.keyPem });
  }

  it('believes the proxy the ConfigMap names, and after a rotation the new one only, without a restart', async () => {
    const [first, second] = await Promise.all([createCertificateAuthority('front-proxy-ca', now), createCertificateAuthority('front-proxy-ca-2', now)]);
    fixture.write(kubeadmData(first.certPem));
    t = await startTestServer({ config: { authenticationKubeconfig: fixture.kubeconfigFile() } });
    const before = await proxyFrom(first, t);
    const after = await proxyFrom(second, t);
    const probe = (client: AggregatorClient) => client.availabilityProbe(HISTORY_GROUP, HISTORY_VERSION).then((answers) => answers.map((a) => a.status));
    expect(await probe(before)).toEqual([200, 200, 200, 200, 200]);
    expect(await probe(after)).toEqual([401, 401, 401, 401, 401]);

    fixture.write(kubeadmData(second.certPem));
    const deadline = Date.now() + 10_000;
    while ((await probe(after))[0] !== 200) {
      if (Date.now() > deadline) throw new Error('the rotated CA was never believed');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await probe(before)).toEqual([401, 401, 401, 401, 401]);
    expect(fixture.requests.some((r) => r.url.includes('watch=true'))).toBe(true);
  });

  it('refuses to start when the cluster forbids reading the ConfigMap, saying which RoleBinding fixes it', async () => {
    fixture.refuse = true;
    await expect(startTestServer({ config: { authenticationKubeconfig: fixture.kubeconfigFile() } })).rejects.toThrow(/extension-apiserver-authentication-reader/);
  });
});
