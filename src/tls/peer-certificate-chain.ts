// The client certificate of a TLS connection and the certificates it came with, as X.509 objects
// an authenticator verifies itself (client-certificate-chain.ts). Node's detailed peer certificate
// links each certificate to its issuer (the sent ones, then what the server's CA list supplied);
// a self-signed certificate is its own issuer, which ends the walk. Read once per connection.
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';

export interface PeerChain {
  leaf: X509Certificate;
  intermediates: X509Certificate[];
}

const chains = new WeakMap<TLSSocket, PeerChain | null>();

/** The connection's client certificate chain, or undefined when the client sent none (or it is not TLS). */
export function peerChainOf(socket: TLSSocket): PeerChain | undefined {
  if (typeof socket.getPeerCertificate !== 'function') return undefined;
  let chain = chains.get(socket);
  if (chain === undefined) {
    chain = readChain(socket.getPeerCertificate(true));
    chains.set(socket, chain);
  }
  return chain ?? undefined;
}

/** Node answers `{}` when the client sent no certificate. */
function readChain(detailed: Partial<DetailedPeerCertificate>): PeerChain | null {
  if (!detailed.raw) return null;
  const certificates: X509Certificate[] = [];
  const seen = new Set<string>();
  for (let current: Partial<DetailedPeerCertificate> | undefined = detailed; current?.raw && !seen.has(current.fingerprint256 ?? ''); current = current.issuerCertificate) {
    seen.add(current.fingerprint256 ?? '');
    certificates.push(new X509Certificate(current.raw));
  }
  return { leaf: certificates[0], intermediates: certificates.slice(1) };
}
