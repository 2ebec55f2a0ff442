// A @kubernetes/client-node KubeConfig pointed at a test server.
import * as k8s from '@kubernetes/client-node';
import type { TestServer } from './test-server';

export function kubeConfigFor(t: TestServer): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'svctrail', server: t.server.url, caData: Buffer.from(t.ca).toString('base64'), skipTLSVerify: false }],
    users: [{ name: 'admin', token: t.adminToken }],
    contexts: [{ name: 'svctrail', cluster: 'svctrail', user: 'admin' }],
    currentContext: 'svctrail',
  });
  return kc;
}
