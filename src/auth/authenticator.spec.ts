import type { PeerCertificate } from 'node:tls';
import { authenticateRequest } from './authenticator';
import { TokenIndex } from './token-index';

// Only the fields the authenticator reads; the rest of node:tls PeerCertificate is irrelevant here.
function peer(subject: Record<string, string | string[]>, extKeyUsage?: string[]): PeerCertificate {
  return { raw: Buffer.from('der'), subject, ...(extKeyUsage ? { ext_key_usage: extKeyUsage } : {}) } as unknown as PeerCertificate;
}

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';

describe('authenticateRequest', () => {
  const tokens = TokenIndex.fromRecords([
    { token: 'admin-token', user: 'admin', uid: 'admin', groups: ['system:masters'] },
    { token: 'bob-token', user: 'bob', uid: 'b', groups: [] },
  ]);

  describe('bearer tokens', () => {
    it.each([
      ['Bearer admin-token', { name: 'admin', uid: 'admin', groups: ['system:masters', 'system:authenticated'] }],
      ['bearer bob-token', { name: 'bob', uid: 'b', groups: ['system:authenticated'] }],
      ['  Bearer bob-token  ', { name: 'bob', uid: 'b', groups: ['system:authenticated'] }],
      ['Bearer bob-token trailing words', { name: 'bob', uid: 'b', groups: ['system:authenticated'] }],
    ])('%j authenticates', (header, expected) => {
      expect(authenticateRequest({ authorizationHeader: header, peerAuthorized: false }, tokens)).toEqual(expected);
    });

    it.each([
      ['unknown token', 'Bearer nope'],
      ['empty token', 'Bearer '],
      ['double space', 'Bearer  admin-token'],
      ['other scheme', 'Basic YWRtaW46eA=='],
      ['no scheme', 'admin-token'],
      ['empty header', ''],
    ])('%s -> null', (_name, header) => {
      expect(authenticateRequest({ authorizationHeader: header, peerAuthorized: false }, tokens)).toBeNull();
    });

    it('no credentials at all -> null', () => {
      expect(authenticateRequest({ peerAuthorized: false, peerCertificate: null }, tokens)).toBeNull();
    });
  });

  describe('client certificates', () => {
    it('maps CN to the user and each O to a group, in order', () => {
      const request = { peerCertificate: peer({ CN: 'alice', O: ['devs', 'ops'] }, [CLIENT_AUTH]), peerAuthorized: true };
      expect(authenticateRequest(request, tokens)).toEqual({ name: 'alice', groups: ['devs', 'ops', 'system:authenticated'] });
    });

    it('accepts a single O given as a string, and no O at all', () => {
      expect(authenticateRequest({ peerCertificate: peer({ CN: 'a', O: 'devs' }), peerAuthorized: true }, tokens)).toEqual({
        name: 'a',
        groups: ['devs', 'system:authenticated'],
      });
      expect(authenticateRequest({ peerCertificate: peer({ CN: 'a' }), peerAuthorized: true }, tokens)).toEqual({
        name: 'a',
        groups: ['system:authenticated'],
      });
    });

    it('does not add system:authenticated twice', () => {
      const request = { peerCertificate: peer({ CN: 'a', O: ['system:authenticated'] }), peerAuthorized: true };
      expect(authenticateRequest(request, tokens)!.groups).toEqual(['system:authenticated']);
    });

    it('wins over a bad bearer token, as the x509 authenticator runs first', () => {
      const request = { peerCertificate: peer({ CN: 'alice' }), peerAuthorized: true, authorizationHeader: 'Bearer nope' };
      expect(authenticateRequest(request, tokens)?.name).toBe('alice');
    });

    it('an unverified certificate falls through to the token', () => {
      const request = { peerCertificate: peer({ CN: 'mallory' }), peerAuthorized: false, authorizationHeader: 'Bearer bob-token' };
      expect(authenticateRequest(request, tokens)?.name).toBe('bob');
      expect(authenticateRequest({ ...request, authorizationHeader: undefined }, tokens)).toBeNull();
    });

    it.each([
      ['an empty CN', peer({ CN: '', O: 'devs' })],
      ['no CN', peer({ O: 'devs' })],
      ['a serverAuth-only certificate', peer({ CN: 'alice' }, [SERVER_AUTH])],
      ['the empty object Node gives when no certificate was sent', {} as PeerCertificate],
    ])('rejects %s', (_name, certificate) => {
      expect(authenticateRequest({ peerCertificate: certificate, peerAuthorized: true }, tokens)).toBeNull();
    });

    it('uses the last CN when there are several, like Go', () => {
      expect(authenticateRequest({ peerCertificate: peer({ CN: ['a', 'b'] }), peerAuthorized: true }, tokens)?.name).toBe('b');
    });
  });
});
