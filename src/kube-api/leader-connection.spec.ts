import { X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueServingCertificate } from '../tls/certificates';
import { LeaderConnection } from './leader-connection';

/** A leader's /livez on a real HTTPS server: cut off mid-answer (the leader killed while answering), or whole. */
async function startLeader(): Promise<{ server: Server; url: string; caPem: string; fingerprint: string; cut: { on: boolean }; asked: () => number }> {
  const now = () => new Date();
  const ca = await createCertificateAuthority('leader-ca', now);
  const serving = await issueServingCertificate(ca, {}, now);
  const cut = { on: true };
  let asked = 0;
  const server = createServer({ cert: serving.certPem, key: serving.keyPem }, (_req, res) => {
    asked++;
    if (cut.on) {
      // Headers and part of the body, then the connection ends: the answer errors on the follower.
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('o', () => res.socket?.destroy());
      return;
    }
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `https://127.0.0.1:${port}`, caPem: ca.certPem, fingerprint: new X509Certificate(serving.certPem).fingerprint256, cut, asked: () => asked };
}

const until = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('a follower’s connection to the write leader', () => {
  it('given answers to /livez cut off mid-body, then each ends its ask: it keeps asking, and the process does not end on the cut-off answer', async () => {
    const leader = await startLeader();
    const connection = new LeaderConnection({ url: leader.url, token: 't', caCertificate: leader.caPem, certificateSha256: leader.fingerprint });
    try {
      // An ask waits for the one before it to end: four asks mean three cut-off answers ended theirs.
      await until(() => leader.asked() >= 4, 'four asks');
      leader.cut.on = false;
      const before = leader.asked();
      await until(() => leader.asked() > before + 2, 'asks answered whole');
      expect(connection.healthy()).toBe(true);
    } finally {
      connection.close();
      leader.server.closeAllConnections();
      await new Promise((resolve) => leader.server.close(resolve));
    }
  });
});
