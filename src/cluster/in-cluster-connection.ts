// The cluster a Pod runs in, as client-go's rest.InClusterConfig reads it (rest/config.go): the
// API server from KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT (https, the host bracketed
// when it is an IPv6 address, as net.JoinHostPort does), the service account token the kubelet
// mounts (read now, so a Pod without one fails at start, then again about every minute:
// cluster-credentials.ts) and its CA. A CA that cannot be read is only a warning there (the
// system roots are used), and so it is here. The namespace is clientcmd's inClusterClientConfig
// Namespace(): POD_NAMESPACE, else the service account's namespace file, else "default".
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClusterConfigError } from './cluster-config-error';
import type { ClusterConnection } from './kubeconfig-connection';

/** Where the kubelet mounts the service account (a flag moves it, for tests and unusual mounts). */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** What the Pod's environment says: the variables the kubelet sets, and the mount. */
export interface InClusterEnvironment {
  host: string;
  port: string;
  /** POD_NAMESPACE, when the Pod sets it through the downward API. */
  podNamespace: string;
  serviceAccountDir: string;
}

export interface InClusterConnection {
  connection: ClusterConnection;
  /** What a log line should say: a CA that could not be used. */
  warnings: string[];
}

/** rest.ErrNotInCluster's words, and what asked for the in-cluster configuration. */
export function notInClusterMessage(flag: string): string {
  return `${flag} in-cluster: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined`;
}

/** Throws ClusterConfigError when the environment is not a Pod's (`flag` names what asked). */
export function inClusterConnection(environment: InClusterEnvironment, flag: string): InClusterConnection {
  const { host, port, serviceAccountDir } = environment;
  if (host === '' || port === '') throw new ClusterConfigError(notInClusterMessage(flag));
  const tokenFile = join(serviceAccountDir, 'token');
  let token: string;
  try {
    token = readFileSync(tokenFile, 'utf8');
  } catch (error) {
    throw new ClusterConfigError(`${flag} in-cluster: cannot read the service account token: ${(error as Error).message}`);
  }
  // client-go's token source refuses an empty token ("read empty token from file"), so a client
  // made with one fails to start.
  if (token.trim() === '') throw new ClusterConfigError(`${flag} in-cluster: read empty token from file "${tokenFile}"`);
  const warnings: string[] = [];
  const caFile = join(serviceAccountDir, 'ca.crt');
  const caProblem = unusableCertificateFile(caFile);
  if (caProblem) warnings.push(`${flag} in-cluster: expected to load root CA config from ${caFile}, but got err: ${caProblem}; trusting the system's roots`);
  return {
    connection: {
      kubeconfig: 'in-cluster',
      context: 'in-cluster',
      namespace: environment.podNamespace || namespaceFile(join(serviceAccountDir, 'namespace')) || 'default',
      server: `https://${joinHostPort(host, port)}`,
      ...(caProblem ? {} : { certificateAuthority: { file: caFile } }),
      insecureSkipTlsVerify: false,
      user: { tokenFile },
    },
    warnings,
  };
}

/** Go's net.JoinHostPort: a host with a colon (an IPv6 address) goes in brackets. */
function joinHostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** certutil.NewPool's complaint about the file, or undefined when it holds a certificate. */
function unusableCertificateFile(path: string): string | undefined {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    return (error as Error).message;
  }
  const first = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0];
  try {
    if (first) new X509Certificate(first);
    else return `data does not contain any valid RSA or ECDSA certificates`;
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

function namespaceFile(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}
