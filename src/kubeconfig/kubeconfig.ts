// A kubeconfig (clientcmd v1 Config) with one cluster, one user and one context, in the layout
// `kubectl config view --raw` prints. Credentials are embedded (`*-data`, base64 PEM) so the
// file works from any directory.
import { stringify } from 'yaml';

export type KubeconfigCredentials = { token: string } | { certPem: string; keyPem: string };

export interface KubeconfigOptions {
  /** e.g. https://127.0.0.1:6443; kubectl sends no credentials over plain http (client-protocol.md §2.1). */
  server: string;
  /** The CA that signed the serving certificate. */
  caPem: string;
  user: KubeconfigCredentials;
  userName: string;
  clusterName?: string;
  /** Defaults to `<userName>@<clusterName>`. */
  contextName?: string;
}

export const DEFAULT_CLUSTER_NAME = 'svctrail';

export function renderKubeconfig(options: KubeconfigOptions): string {
  const clusterName = options.clusterName ?? DEFAULT_CLUSTER_NAME;
  const contextName = options.contextName ?? `${options.userName}@${clusterName}`;
  const user =
    'token' in options.user
      ? { token: options.user.token }
      : {
          'client-certificate-data': base64(options.user.certPem),
          'client-key-data': base64(options.user.keyPem),
        };
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: clusterName,
        cluster: { server: options.server, 'certificate-authority-data': base64(options.caPem) },
      },
    ],
    users: [{ name: options.userName, user }],
    contexts: [{ name: contextName, context: { cluster: clusterName, user: options.userName } }],
    'current-context': contextName,
    preferences: {},
  };
  // lineWidth 0: never fold long scalars such as the base64 blobs.
  return stringify(config, { lineWidth: 0 });
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
