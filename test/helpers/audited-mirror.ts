// A mirror that learns who wrote: a svctrail source behind the fault proxy, a svctrail recording it
// (--mirror), a user holding only the audit-webhook policy, and audit events in kube-apiserver's
// audit.k8s.io/v1 format built from the source's real answers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueCredentials } from '../../src/auth/issue-credentials';
import { renderKubeconfig } from '../../src/kubeconfig/kubeconfig';
import { type FaultProxy, startFaultProxy } from './fault-proxy';
import { startTestServer, type TestServer } from './test-server';

export const AUDITED_USER = 'system:serviceaccount:metallb-system:controller';

/** kube-apiserver's audit EventList for one successful write that answered `answer`. */
export function auditEventList(auditID: string, answer: any, objectRef: Record<string, string>, verb = 'update'): string {
  return JSON.stringify({
    kind: 'EventList',
    apiVersion: 'audit.k8s.io/v1',
    items: [
      {
        level: 'RequestResponse',
        auditID,
        stage: 'ResponseComplete',
        verb,
        user: { username: AUDITED_USER, groups: ['system:serviceaccounts', 'system:authenticated'] },
        sourceIPs: ['10.244.0.12'],
        userAgent: 'controller/v0.14.8',
        objectRef: { namespace: answer.metadata.namespace, name: answer.metadata.name, apiVersion: 'v1', ...objectRef },
        responseStatus: { code: 200 },
        responseObject: answer,
        requestReceivedTimestamp: '2026-12-01T02:13:00.123456Z',
      },
    ],
  });
}

export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface AuditedMirror {
  source: TestServer;
  proxy: FaultProxy;
  mirror: TestServer;
  /** A kubeconfig naming the source through `through` with its admin token. */
  kubeconfigThrough(through: FaultProxy, name: string): string;
  /** A status PUT at the source by `fieldManager`, once the mirror recorded it; the source's answer. */
  setIngress(namespace: string, name: string, ip: string, fieldManager: string, conditions?: object[]): Promise<any>;
  /** Delivers audit events to the mirror as kube-apiserver does. */
  postAudit(body: string): Promise<number>;
  stop(): Promise<void>;
}

/** `start`: the engine's startTestServer (storage-backends.ts), given the mirror's data directory and config. */
export async function startAuditedMirror(
  prepareSource: (source: TestServer) => Promise<void>,
  start: (options: { dataDir: string; config: Record<string, unknown> }) => Promise<TestServer> = startTestServer,
): Promise<AuditedMirror> {
  const dir = mkdtempSync(join(tmpdir(), 'svctrail-audited-mirror-'));
  const dataDir = join(dir, 'mirror');
  const source = await startTestServer();
  await prepareSource(source);
  const proxy = await startFaultProxy({ upstream: source.server.url, upstreamCa: source.ca });
  // The webhook's user and policy exist before the mirror starts (the policy file is read at startup).
  const token = (await issueCredentials({ user: 'kube-apiserver-audit', dataDir, method: 'token', policy: 'audit-webhook', now: () => new Date() })).token!;
  const kubeconfigThrough = (through: FaultProxy, name: string) => {
    const path = join(dir, name);
    writeFileSync(path, renderKubeconfig({ server: through.url, caPem: through.caPem, user: { token: source.adminToken }, userName: 'admin' }));
    return path;
  };
  const mirror = await start({ dataDir, config: { mirror: kubeconfigThrough(proxy, 'source.kubeconfig'), mirrorWatchTimeoutSeconds: 20 } });
  await until(async () => (await mirror.client.get('/readyz')).text === 'ok', 'the mirror to be in sync');
  return {
    source,
    proxy,
    mirror,
    kubeconfigThrough,
    setIngress: async (namespace, name, ip, fieldManager, conditions) => {
      const path = `/api/v1/namespaces/${namespace}/services/${name}`;
      const current = (await source.client.get(path)).json;
      const res = await source.client.put(`${path}/status?fieldManager=${fieldManager}`, { ...current, status: { loadBalancer: { ingress: [{ ip }] }, ...(conditions ? { conditions } : {}) } });
      if (res.status !== 200) throw new Error(`source PUT ${path}/status: ${res.status} ${res.text}`);
      await until(async () => (await mirror.client.get(path)).json?.status?.loadBalancer?.ingress?.[0]?.ip === ip, `${ip} on ${namespace}/${name} to be recorded`);
      return res.json;
    },
    postAudit: async (body) => (await mirror.client.withToken(token).post('/audit/v1/events', body)).status,
    stop: async () => {
      await mirror.stop();
      await proxy.close();
      await source.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
