// kube-system/extension-apiserver-authentication, the ConfigMap kube-apiserver writes for
// extension API servers (clusterauthenticationtrust): the front proxy's CA and the header names
// it sets, each list a JSON array (`["X-Remote-User"]`). Read as k8s.io/apiserver's
// RequestHeaderAuthRequestController and its ConfigMap CA provider read it.
import { certificatesOfBundle } from '../tls/client-certificate-chain';
import type { RequestHeaderSettings } from './request-header-settings';

export const AUTHENTICATION_CONFIG_MAP = { namespace: 'kube-system', name: 'extension-apiserver-authentication' } as const;

const KEYS = {
  clientCa: 'requestheader-client-ca-file',
  allowedNames: 'requestheader-allowed-names',
  usernameHeaders: 'requestheader-username-headers',
  uidHeaders: 'requestheader-uid-headers',
  groupHeaders: 'requestheader-group-headers',
  extraHeaderPrefixes: 'requestheader-extra-headers-prefix',
} as const;

export class ConfigMapFormatError extends Error {}

/**
 * The request-header settings a ConfigMap's data says. A cluster without a front proxy writes no
 * `requestheader-client-ca-file`: then no certificate is believed (no CAs), as upstream.
 */
export function requestHeaderSettingsFromConfigMap(data: Readonly<Record<string, string>>): RequestHeaderSettings {
  const clientCaPem = data[KEYS.clientCa] ?? '';
  let clientCas;
  try {
    clientCas = certificatesOfBundle(clientCaPem);
  } catch (error) {
    throw new ConfigMapFormatError(`${KEYS.clientCa}: ${(error as Error).message}`);
  }
  if (clientCaPem.trim() !== '' && clientCas.length === 0) throw new ConfigMapFormatError(`${KEYS.clientCa}: data does not contain any valid RSA or ECDSA certificates`);
  return {
    clientCas,
    clientCaPem: clientCas.length > 0 ? clientCaPem : '',
    allowedNames: stringList(data, KEYS.allowedNames),
    usernameHeaders: stringList(data, KEYS.usernameHeaders),
    uidHeaders: stringList(data, KEYS.uidHeaders),
    groupHeaders: stringList(data, KEYS.groupHeaders),
    extraHeaderPrefixes: stringList(data, KEYS.extraHeaderPrefixes),
  };
}

/** deserializeStrings: empty or absent is no list; otherwise a JSON array of strings. */
function stringList(data: Readonly<Record<string, string>>, key: string): string[] {
  const text = data[key] ?? '';
  if (text === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigMapFormatError(`${key}: ${(error as Error).message}`);
  }
  if (value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new ConfigMapFormatError(`${key}: not a JSON array of strings`);
  return value;
}
