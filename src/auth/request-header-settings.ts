// Whom svctrail believes about the user in a request's headers, and which headers say it:
// k8s.io/apiserver's RequestHeaderConfig. From flags (--requestheader-client-ca-file and the
// header-name flags, with their defaults) or from the cluster's
// kube-system/extension-apiserver-authentication ConfigMap (extension-apiserver-authentication.ts).
import type { X509Certificate } from 'node:crypto';

export interface RequestHeaderSettings {
  /** The front proxy's CAs (--requestheader-client-ca-file): only a client certificate they sign is believed. */
  clientCas: X509Certificate[];
  /** The PEM text of clientCas, offered to clients in the TLS handshake as acceptable issuers. */
  clientCaPem: string;
  /** Common names the proxy's certificate may have; empty: any certificate from clientCas. */
  allowedNames: string[];
  usernameHeaders: string[];
  /** Empty unless configured: a proxy that does not strip X-Remote-Uid could otherwise be told a uid. */
  uidHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
}

/** k8s.io/apiserver NewDelegatingAuthenticationOptions' header names (no uid header by default). */
export const DEFAULT_REQUEST_HEADERS = {
  usernameHeaders: ['x-remote-user'],
  uidHeaders: [] as string[],
  groupHeaders: ['x-remote-group'],
  extraHeaderPrefixes: ['x-remote-extra-'],
};
