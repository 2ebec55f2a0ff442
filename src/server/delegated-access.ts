// --authentication-kubeconfig and --authorization-kubeconfig (k8s.io/apiserver's delegating
// options): each a kubeconfig path or `in-cluster`, each its own client of that cluster, as
// upstream builds one clientset per option. A flag that names an unusable cluster refuses the
// start (ClusterConfigError), as a missing in-cluster environment does upstream.
import { DelegatedTokenAuthenticator } from '../auth/delegated-token-authenticator';
import { SubjectAccessReviewAuthorizer } from '../authz/delegated-authorizer';
import { ClusterClient, SVCTRAIL_USER_AGENT } from '../cluster/cluster-client';
import { ClusterCredentials } from '../cluster/cluster-credentials';
import { loadClusterConnection } from '../cluster/load-cluster-connection';
import type { AppConfig } from '../config/app-config';

export interface DelegatedAccess {
  tokenReview?: DelegatedTokenAuthenticator;
  subjectAccessReview?: SubjectAccessReviewAuthorizer;
  /** The --authentication-kubeconfig cluster: its extension-apiserver-authentication ConfigMap names the front proxy. */
  authenticationCluster?: ClusterClient;
  warnings: string[];
}

export function delegatedAccess(config: AppConfig): DelegatedAccess {
  const warnings: string[] = [];
  const client = (source: string, flag: string, name: string): ClusterClient => {
    const { connection, warnings: found } = loadClusterConnection({ source, flag, environment: config.inClusterEnvironment });
    warnings.push(...found);
    return new ClusterClient(connection, { name, userAgent: SVCTRAIL_USER_AGENT, credentials: new ClusterCredentials(connection, { tokenFileMaxAgeMs: config.tokenFileMaxAgeMs }) });
  };
  const authenticationCluster = config.authenticationKubeconfig ? client(config.authenticationKubeconfig, '--authentication-kubeconfig', 'the authentication cluster') : undefined;
  return {
    ...(authenticationCluster ? { tokenReview: new DelegatedTokenAuthenticator(authenticationCluster, config.tokenReviewCacheTtlMs), authenticationCluster } : {}),
    ...(config.authorizationKubeconfig
      ? {
          subjectAccessReview: new SubjectAccessReviewAuthorizer(client(config.authorizationKubeconfig, '--authorization-kubeconfig', 'the authorization cluster'), {
            allowedMs: config.authorizedCacheTtlMs,
            deniedMs: config.unauthorizedCacheTtlMs,
          }),
        }
      : {}),
    warnings,
  };
}
