// The request-header settings follow the cluster's kube-system/extension-apiserver-authentication
// ConfigMap: read at start with the name's field selector, then watched, so a rotated front-proxy
// CA is believed without a restart; a refused read stops the start with the fix.
import 'reflect-metadata';
import { AuthenticationConfigMapError, AuthenticationConfigMapWatch } from '../../src/auth/authentication-config-map-watch';
import type { RequestHeaderSettings } from '../../src/auth/request-header-settings';
import { ClusterClient } from '../../src/cluster/cluster-client';
import { loadKubeconfigConnection } from '../../src/cluster/kubeconfig-connection';
import { createCertificateAuthority } from '../../src/tls/certificates';
import { AuthenticationConfigMapFixture } from '../helpers/authentication-config-map-fixture';

const now = () => new Date();

function kubeadmData(caPem: string, allowedNames = ['front-proxy-client']): Record<string, string> {
  return {
    'client-ca-file': caPem,
    'requestheader-client-ca-file': caPem,
    'requestheader-allowed-names': JSON.stringify(allowedNames),
    'requestheader-username-headers': '["X-Remote-User"]',
    'requestheader-group-headers': '["X-Remote-Group"]',
    'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
  };
}

async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the extension-apiserver-authentication ConfigMap, watched', () => {
  let fixture: AuthenticationConfigMapFixture;
  let watch: AuthenticationConfigMapWatch | undefined;
  const messages: string[] = [];
  const log = { info: (m: string) => messages.push(m), warn: (m: string) => messages.push(`warn: ${m}`) };

  beforeEach(async () => {
    fixture = await AuthenticationConfigMapFixture.start();
    messages.length = 0;
  });
  afterEach(async () => {
    await watch?.stop();
    watch = undefined;
    await fixture.close();
  });

  const startWatch = async (options = {}) => {
    watch = new AuthenticationConfigMapWatch(new ClusterClient(loadKubeconfigConnection(fixture.kubeconfigFile())), log, { random: () => 0, ...options });
    await watch.start();
    return watch;
  };

  it('reads the front-proxy CA and header names at start, asking by name with its service account token', async () => {
    const ca = await createCertificateAuthority('front-proxy-ca', now);
    fixture.write(kubeadmData(ca.certPem));
    const current = (await startWatch()).current();
    expect(current.clientCas.map((c) => c.subject)).toEqual(['CN=front-proxy-ca']);
    expect(current).toMatchObject({
      allowedNames: ['front-proxy-client'],
      usernameHeaders: ['X-Remote-User'],
      groupHeaders: ['X-Remote-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-'],
      uidHeaders: [],
    });
    expect(fixture.requests[0]).toEqual({
      method: 'GET',
      url: '/api/v1/namespaces/kube-system/configmaps?fieldSelector=metadata.name%3Dextension-apiserver-authentication',
      authorization: `Bearer ${fixture.token}`,
    });
    await until(() => fixture.openWatches === 1, 'the watch');
    expect(fixture.requests[1].url).toMatch(/fieldSelector=metadata.name%3Dextension-apiserver-authentication&watch=true&allowWatchBookmarks=true&timeoutSeconds=\d+&resourceVersion=100$/);
  });

  it('applies a rotated CA and a changed allowed name without a restart', async () => {
    const [first, second] = await Promise.all([createCertificateAuthority('front-proxy-ca', now), createCertificateAuthority('front-proxy-ca-2', now)]);
    fixture.write(kubeadmData(first.certPem));
    const changes: RequestHeaderSettings[] = [];
    (await startWatch()).onChange((settings) => changes.push(settings));
    await until(() => fixture.openWatches === 1, 'the watch');
    // A rotation first trusts both CAs, then only the new one.
    fixture.write(kubeadmData(first.certPem + second.certPem, ['front-proxy-client', 'aggregator']));
    fixture.write(kubeadmData(second.certPem, ['aggregator']));
    await until(() => changes.length === 2, 'two changes');
    expect(changes[0].clientCas.map((c) => c.subject)).toEqual(['CN=front-proxy-ca', 'CN=front-proxy-ca-2']);
    expect(changes[1].clientCas.map((c) => c.subject)).toEqual(['CN=front-proxy-ca-2']);
    expect(watch!.current().allowedNames).toEqual(['aggregator']);
  });

  it('believes no proxy while the ConfigMap is missing, and the one it names once kube-apiserver writes it', async () => {
    expect((await startWatch()).current().clientCas).toEqual([]);
    expect(messages).toContain('kube-system/extension-apiserver-authentication does not exist (yet): no front proxy is believed');
    await until(() => fixture.openWatches === 1, 'the watch');
    fixture.write(kubeadmData((await createCertificateAuthority('front-proxy-ca', now)).certPem));
    await until(() => watch!.current().clientCas.length === 1, 'the new ConfigMap');
  });

  it('keeps the last settings when the ConfigMap is deleted or unusable', async () => {
    const ca = await createCertificateAuthority('front-proxy-ca', now);
    fixture.write(kubeadmData(ca.certPem));
    await startWatch();
    await until(() => fixture.openWatches === 1, 'the watch');
    fixture.write({ ...kubeadmData(ca.certPem), 'requestheader-allowed-names': 'front-proxy-client' });
    fixture.delete();
    await until(() => messages.some((m) => m.includes('is not usable, keeping the last settings')), 'the warning');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(watch!.current().clientCas.map((c) => c.subject)).toEqual(['CN=front-proxy-ca']);
    expect(watch!.current().allowedNames).toEqual(['front-proxy-client']);
  });

  it('lists again after 410 Expired and picks up what changed meanwhile', async () => {
    const [first, second] = await Promise.all([createCertificateAuthority('front-proxy-ca', now), createCertificateAuthority('front-proxy-ca-2', now)]);
    fixture.write(kubeadmData(first.certPem));
    await startWatch();
    await until(() => fixture.openWatches === 1, 'the watch');
    const listsBefore = fixture.requests.filter((r) => !r.url.includes('watch=true')).length;
    fixture.endWatches();
    fixture.write(kubeadmData(second.certPem));
    fixture.compact();
    await until(() => watch!.current().clientCas[0]?.subject === 'CN=front-proxy-ca-2', 'the relisted CA');
    expect(fixture.requests.filter((r) => !r.url.includes('watch=true')).length).toBe(listsBefore + 1);
  });

  it('refuses to start when the cluster forbids the read, naming the RoleBinding that fixes it', async () => {
    fixture.refuse = true;
    const starting = startWatch();
    await expect(starting).rejects.toThrow(AuthenticationConfigMapError);
    await expect(starting).rejects.toThrow(
      /answered 403 Forbidden .*cannot list resource "configmaps" .*Usually fixed by 'kubectl create rolebinding -n kube-system ROLEBINDING_NAME --role=extension-apiserver-authentication-reader/,
    );
    watch = undefined;
  });
});
