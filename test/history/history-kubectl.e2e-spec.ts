// kubectl sees the history group: api-resources lists it (aggregated discovery) and
// `kubectl get --raw` reads its lists.
import { findKubectl, kubectl } from '../helpers/kubectl';
import { startTestServer, type TestServer } from '../helpers/test-server';

const binary = findKubectl();
const maybe = binary ? describe : describe.skip;
if (!binary) process.stdout.write('SKIPPED history kubectl e2e: kubectl is not on the PATH\n');

maybe('kubectl and the history API', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    await t.client.post('/api/v1/namespaces/k/services', { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
  });
  afterAll(async () => t.stop());

  it('api-resources lists the history resources', async () => {
    const res = await kubectl(binary!, t.server.kubeconfigPath, ['api-resources', '--api-group=history.svctrail.io', '-o', 'wide']);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    for (const name of ['changes', 'conditiontransitions', 'conditionsummaries', 'ingressintervals', 'ingressconflicts', 'ingressowners', 'fieldownerships', 'feed']) {
      expect(res.stdout).toMatch(new RegExp(`^${name}\\s+history.svctrail.io/v1alpha1`, 'm'));
    }
  });

  it('get --raw reads a history list', async () => {
    const res = await kubectl(binary!, t.server.kubeconfigPath, ['get', '--raw', '/apis/history.svctrail.io/v1alpha1/namespaces/k/services/web/changes']);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    const list = JSON.parse(res.stdout);
    expect(list.kind).toBe('ServiceChangeList');
    expect(list.items[0]).toMatchObject({ service: { name: 'web' }, verb: 'create' });
  });
});
