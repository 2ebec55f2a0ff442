import { ConfigError, loadConfig } from './app-config';

describe('storage selection (--storage / SVCTRAIL_STORAGE)', () => {
  it('is SQLite in the data directory when absent or empty', () => {
    expect(loadConfig([], {}).storage).toEqual({ engine: 'sqlite' });
    expect(loadConfig(['--storage', ''], {}).storage).toEqual({ engine: 'sqlite' });
  });

  it('is PostgreSQL for a postgres:// or postgresql:// URL, from the flag or the environment', () => {
    expect(loadConfig(['--storage', 'postgres://u:p@127.0.0.1:5432/db'], {}).storage).toEqual({ engine: 'postgres', url: 'postgres://u:p@127.0.0.1:5432/db' });
    expect(loadConfig([], { SVCTRAIL_STORAGE: 'postgresql://db.example/svctrail' }).storage).toEqual({ engine: 'postgres', url: 'postgresql://db.example/svctrail' });
    // The flag wins over the environment, as for every other setting.
    expect(loadConfig(['--storage', 'postgres://a/b'], { SVCTRAIL_STORAGE: 'postgres://c/d' }).storage).toEqual({ engine: 'postgres', url: 'postgres://a/b' });
  });

  it.each(['mysql://u@h/db', 'sqlite', '/var/lib/svctrail.db', 'postgres://', 'postgres://has space/db'])('refuses %j with a message naming the accepted forms', (value) => {
    expect(() => loadConfig(['--storage', value], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--storage', value], {})).toThrow(/storage must be/);
  });
});

describe('mirror mode (--mirror / SVCTRAIL_MIRROR)', () => {
  it('is off by default, and takes the kubeconfig path (made absolute) from the flag or the environment', () => {
    expect(loadConfig([], {}).mirror).toBe('');
    expect(loadConfig(['--mirror', '/etc/kube/config', '--mirror-context', 'prod'], {})).toMatchObject({ mirror: '/etc/kube/config', mirrorContext: 'prod' });
    expect(loadConfig([], { SVCTRAIL_MIRROR: 'relative/config' }).mirror).toMatch(/^\/.*relative\/config$/);
  });

  it('refuses a context without a kubeconfig to take it from', () => {
    expect(() => loadConfig(['--mirror-context', 'prod'], {})).toThrow(/mirror-context needs mirror/);
  });
});

describe('in-cluster (--mirror in-cluster, the Pod environment)', () => {
  it("keeps `in-cluster` as it is, reads the kubelet's variables by their own names, and the service account mount from its flag", () => {
    const config = loadConfig(['--mirror', 'in-cluster', '--service-account-dir', '/tmp/sa'], { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443', POD_NAMESPACE: 'svctrail' });
    expect(config.mirror).toBe('in-cluster');
    expect(config.inClusterEnvironment).toEqual({ host: 'fd00::1', port: '443', podNamespace: 'svctrail', serviceAccountDir: '/tmp/sa' });
    expect(loadConfig([], {}).inClusterEnvironment.serviceAccountDir).toBe('/var/run/secrets/kubernetes.io/serviceaccount');
  });

  it('refuses a kubeconfig context for the in-cluster configuration, which has none', () => {
    expect(() => loadConfig(['--mirror', 'in-cluster', '--mirror-context', 'prod'], {})).toThrow(/--mirror in-cluster has none/);
  });
});

describe('delegated authentication and authorization', () => {
  it("takes k8s.io/apiserver's flags: kubeconfig paths made absolute, `in-cluster` kept, cache TTLs as Go durations (10s by default)", () => {
    const config = loadConfig(['--authentication-kubeconfig', 'in-cluster', '--authorization-kubeconfig', 'relative/authz', '--authorization-webhook-cache-unauthorized-ttl', '1m30s'], {});
    expect(config.authenticationKubeconfig).toBe('in-cluster');
    expect(config.authorizationKubeconfig).toMatch(/^\/.*relative\/authz$/);
    expect([config.tokenReviewCacheTtlMs, config.authorizedCacheTtlMs, config.unauthorizedCacheTtlMs]).toEqual([10_000, 10_000, 90_000]);
  });

  it('refuses a cache TTL that is not a duration', () => {
    expect(() => loadConfig(['--authentication-token-webhook-cache-ttl', 'soon'], {})).toThrow(/authentication-token-webhook-cache-ttl must be a duration/);
  });
});

describe('--replica-url', () => {
  it('is empty by default (each replica appends its own writes), and takes an https URL or auto from the flag or the environment', () => {
    expect(loadConfig([], {}).replicaUrl).toBe('');
    expect(loadConfig(['--replica-url', 'https://10.0.0.5:6443'], {}).replicaUrl).toBe('https://10.0.0.5:6443');
    expect(loadConfig([], { SVCTRAIL_REPLICA_URL: 'auto' }).replicaUrl).toBe('auto');
  });

  it.each(['http://10.0.0.5:6443', '10.0.0.5:6443', 'automatic'])('refuses %s', (value) => {
    expect(() => loadConfig(['--replica-url', value], {})).toThrow(/replica-url must be an https:\/\/ URL or auto/);
  });
});
