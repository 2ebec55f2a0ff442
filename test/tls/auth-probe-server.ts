// A tiny https server for the TLS tests: it authenticates every request with the real
// authenticator against the data dir's CA and tokens, and records what it saw.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { authenticateRequest } from '../../src/auth/authenticator';
import type { TokenIndex } from '../../src/auth/token-index';
import type { UserInfo } from '../../src/auth/user-info';
import { httpsServerOptions } from '../../src/tls/https-options';

export interface SeenRequest {
  path: string;
  authorization?: string;
  peerAuthorized: boolean;
  user: UserInfo | null;
}

export interface AuthProbeServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-01-01T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

/** Answers /version openly (the kubectl dispatcher probes it), /healthz `ok` and /whoami JSON to authenticated users, 401 otherwise. */
export async function startAuthProbeServer(material: { servingCertPem: string; servingKeyPem: string; caCertPem: string }, tokens: TokenIndex, host = '127.0.0.1'): Promise<AuthProbeServer> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer(httpsServerOptions(material), (req, res) => {
    const socket = req.socket as TLSSocket;
    const path = (req.url ?? '/').split('?')[0];
    const user = authenticateRequest({ authorizationHeader: req.headers.authorization, peerCertificate: socket.getPeerCertificate(), peerAuthorized: socket.authorized }, tokens);
    seen.push({ path, authorization: req.headers.authorization, peerAuthorized: socket.authorized, user });
    if (path === '/version') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(VERSION));
      return;
    }
    if (!user) {
      const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized' };
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ ...status, reason: 'Unauthorized', code: 401 }));
      return;
    }
    if (path === '/whoami') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(user));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
