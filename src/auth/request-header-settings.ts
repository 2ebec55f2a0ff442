// Whom svctrail believes about the user in a request's headers, and which headers say it:
// k8s.io/apiserver's RequestHeaderConfig. From flags (--requestheader-client-ca-file and the
// header-name flags, with their defaults) or from the cluster's
// kube-system/extension-apiserver-authentication ConfigMap (extension-apiserver-authentication.ts).
import type { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { certificatesOfBundle } from '../tls/client-certificate-chain';

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

/** The request-header flags: the settings, but the CA still a file to read. */
export interface RequestHeaderFlags extends Omit<RequestHeaderSettings, 'clientCas' | 'clientCaPem'> {
  clientCaFile: string;
}

/** A comma-separated flag value as pflag's StringSlice reads it (empty: no item). */
export function listFlag(value: string): string[] {
  return value === '' ? [] : value.split(',').map((item) => item.trim());
}

export class RequestHeaderCaFileError extends Error {}

/** The settings the flags give; the CA file must hold a certificate (upstream refuses to start otherwise). */
export function requestHeaderSettingsFromFlags(flags: RequestHeaderFlags): RequestHeaderSettings {
  let pem: string;
  try {
    pem = readFileSync(flags.clientCaFile, 'utf8');
  } catch (error) {
    throw new RequestHeaderCaFileError(`--requestheader-client-ca-file: ${(error as Error).message}`);
  }
  let clientCas;
  try {
    clientCas = certificatesOfBundle(pem);
  } catch (error) {
    throw new RequestHeaderCaFileError(`--requestheader-client-ca-file ${flags.clientCaFile}: ${(error as Error).message}`);
  }
  if (clientCas.length === 0) throw new RequestHeaderCaFileError(`--requestheader-client-ca-file ${flags.clientCaFile}: data does not contain any valid RSA or ECDSA certificates`);
  const { clientCaFile: _file, ...headers } = flags;
  return { ...headers, clientCas, clientCaPem: pem };
}
