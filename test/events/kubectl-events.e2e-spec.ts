// kubectl shows a load-balancer controller's own Events beside the ones svctrail derives from its
// log, in time order: `get events --field-selector`, `events --for`, `describe svc`, on every
// kubectl of the matrix (their event printing changed across versions).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectlMatrix, kubectlVersion } from '../helpers/kubectl';
import { startTestServer, type TestServer } from '../helpers/test-server';

const NS = 'lb';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** metav1.Time: whole seconds. */
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

const binaries = kubectlMatrix();

if (!binaries.length) {
  process.stdout.write('SKIPPED kubectl Events: no kubectl on the PATH\n');
  it.skip('kubectl Events: no kubectl on the PATH', () => undefined);
} else {
  describe('kubectl and controller Events', () => {
    let t: TestServer;
    let cache: string;
    beforeAll(async () => {
      t = await startTestServer();
      cache = mkdtempSync(join(tmpdir(), 'svctrail-kubectl-events-'));
      const svc = await t.client.post(`/api/v1/namespaces/${NS}/services`, { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
      const involvedObject = { kind: 'Service', namespace: NS, name: 'web', uid: svc.json.metadata.uid, apiVersion: 'v1', resourceVersion: svc.json.metadata.resourceVersion };
      // The cloud service controller's Events, between svctrail's own (a second apart: Events keep whole seconds).
      const report = async (name: string, reason: string, message: string, type = 'Normal') => {
        await sleep(1100);
        const at = now();
        const res = await t.client.post(`/api/v1/namespaces/${NS}/events`, {
          metadata: { name, namespace: NS },
          involvedObject,
          reason,
          message,
          source: { component: 'service-controller' },
          firstTimestamp: at,
          lastTimestamp: at,
          count: 1,
          type,
          reportingComponent: 'service-controller',
          reportingInstance: '',
        });
        expect(res.status).toBe(201);
      };
      await report('web.18800000000000a1', 'EnsuringLoadBalancer', 'Ensuring load balancer');
      await report('web.18800000000000a2', 'SyncLoadBalancerFailed', 'Error syncing load balancer: quota exceeded', 'Warning');
      await sleep(1100);
      const live = await t.client.get(`/api/v1/namespaces/${NS}/services/web`);
      await t.client.put(`/api/v1/namespaces/${NS}/services/web/status`, { ...live.json, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } });
      await report('web.18800000000000a3', 'EnsuredLoadBalancer', 'Ensured load balancer');
      // An Event about another Service, which no command below may show.
      await t.client.post(`/api/v1/namespaces/${NS}/events`, {
        metadata: { name: 'other.18800000000000a4', namespace: NS },
        involvedObject: { kind: 'Service', namespace: NS, name: 'other', apiVersion: 'v1' },
        reason: 'EnsuringLoadBalancer',
        message: 'not about web',
        source: { component: 'service-controller' },
        type: 'Normal',
        reportingComponent: 'service-controller',
        reportingInstance: '',
      });
    }, 60_000);
    afterAll(async () => {
      await t.stop();
      rmSync(cache, { recursive: true, force: true });
    });

    /** The reasons in an output's lines, in order. */
    const reasonsIn = (text: string) => text.split('\n').flatMap((line) => /\b(Created|EnsuringLoadBalancer|SyncLoadBalancerFailed|IngressAssigned|EnsuredLoadBalancer)\b/.exec(line)?.[1] ?? []);
    const timeOrder = ['Created', 'EnsuringLoadBalancer', 'SyncLoadBalancerFailed', 'IngressAssigned', 'EnsuredLoadBalancer'];

    describe.each(binaries.map((b, i) => [b, i] as const))('%s', (binary, index) => {
      const k = (...args: string[]) => kubectl(binary, t.server.kubeconfigPath, [`--cache-dir=${join(cache, String(index))}`, '-n', NS, ...args]);

      it('get events --field-selector involvedObject.kind=Service,involvedObject.name=web: derived and written, nothing else', async () => {
        const res = await k('get', 'events', '--field-selector', 'involvedObject.kind=Service,involvedObject.name=web');
        expect(res.stderr).toBe('');
        expect(res.status).toBe(0);
        expect(reasonsIn(res.stdout)).toEqual(timeOrder);
        expect(res.stdout).toMatch(/Warning\s+SyncLoadBalancerFailed\s+service\/web\s+Error syncing load balancer: quota exceeded/);
        expect(res.stdout).not.toContain('not about web');
      });

      it('events --for service/web: in time order', async () => {
        const res = await k('events', '--for', 'service/web');
        expect(res.status).toBe(0);
        expect(reasonsIn(res.stdout)).toEqual(timeOrder);
        expect(res.stdout).not.toContain('not about web');
        process.stdout.write(`kubectl events ran on ${kubectlVersion(binary)}\n`);
      });

      it("describe svc web: the controller's Events among svctrail's, in time order", async () => {
        const res = await k('describe', 'svc', 'web');
        expect(res.status).toBe(0);
        const events = res.stdout.slice(res.stdout.indexOf('Events:'));
        expect(reasonsIn(events)).toEqual(timeOrder);
        expect(events).toMatch(/Warning\s+SyncLoadBalancerFailed\s+.*service-controller\s+Error syncing load balancer: quota exceeded/);
      });
    });
  });
}
