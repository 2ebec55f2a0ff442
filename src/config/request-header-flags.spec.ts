import { ConfigError, loadConfig } from './app-config';

describe('the request-header and serving-name flags', () => {
  it("defaults to k8s.io/apiserver's header names, no uid header, and no front proxy without a CA file", () => {
    const config = loadConfig([], {});
    expect(config.requestHeaderFlags).toBeUndefined();
    expect(config.tlsSans).toEqual([]);
    const flagged = loadConfig(['--requestheader-client-ca-file', 'front-proxy-ca.crt'], {});
    expect(flagged.requestHeaderFlags).toEqual({
      clientCaFile: expect.stringMatching(/\/front-proxy-ca\.crt$/),
      allowedNames: [],
      usernameHeaders: ['x-remote-user'],
      uidHeaders: [],
      groupHeaders: ['x-remote-group'],
      extraHeaderPrefixes: ['x-remote-extra-'],
    });
  });

  it('reads each list comma-separated, from flags or their SVCTRAIL_ twins', () => {
    const config = loadConfig(
      [
        '--requestheader-client-ca-file=/ca.crt',
        '--requestheader-allowed-names=front-proxy-client,aggregator',
        '--requestheader-uid-headers=X-Remote-Uid',
        '--tls-san=svctrail.svctrail.svc,10.96.0.10',
      ],
      { SVCTRAIL_REQUESTHEADER_GROUP_HEADERS: 'X-Remote-Group,X-Groups' },
    );
    expect(config.requestHeaderFlags).toMatchObject({
      clientCaFile: '/ca.crt',
      allowedNames: ['front-proxy-client', 'aggregator'],
      uidHeaders: ['X-Remote-Uid'],
      groupHeaders: ['X-Remote-Group', 'X-Groups'],
    });
    expect(config.tlsSans).toEqual(['svctrail.svctrail.svc', '10.96.0.10']);
  });

  it('refuses an empty name and a uid header list without X-Remote-Uid, as kube-apiserver does', () => {
    expect(() => loadConfig(['--requestheader-allowed-names=a,,b'], {})).toThrow(new ConfigError('empty value in "requestheader-allowed-names"'));
    expect(() => loadConfig(['--requestheader-uid-headers=X-Uid'], {})).toThrow(
      '--requestheader-uid-headers is set without specifying the standard X-Remote-Uid header - API aggregation will not work',
    );
  });
});
