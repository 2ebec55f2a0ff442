// The name a client dials, taken from the kubeconfig `server` URL, must be a SAN of the serving
// certificate: Go checks SANs only (client-protocol.md §2.2).
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

export interface ServerHost {
  dnsNames: string[];
  ipAddresses: string[];
}

export function serverUrlHost(serverUrl: string): ServerHost {
  // WHATWG URL keeps IPv6 literals in brackets.
  const host = new URL(serverUrl).hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return { dnsNames: [], ipAddresses: [] };
  return isIP(host) === 0 ? { dnsNames: [host], ipAddresses: [] } : { dnsNames: [], ipAddresses: [host] };
}

export function certificateCoversServerUrl(certPem: string, serverUrl: string): boolean {
  const certificate = new X509Certificate(certPem);
  const { dnsNames, ipAddresses } = serverUrlHost(serverUrl);
  if (ipAddresses[0] !== undefined) return certificate.checkIP(ipAddresses[0]) !== undefined;
  if (dnsNames[0] !== undefined) return certificate.checkHost(dnsNames[0], { subject: 'never' }) !== undefined;
  return false;
}
