// Every installed kubectl (1.27 ... 1.33 and the default) against the real server with OpenAPI:
// create/apply/replace work without --validate=false, an unknown field fails strict decoding
// on the server, and explain finds the Service schemas in both the v3 and the v2 documents.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { kubectl, kubectlMatrix, kubectlVersion } from '../helpers/kubectl';
import { startTestServer, type TestServer } from '../helpers/test-server';

const binaries = kubectlMatrix();
const describeIfKubectl = binaries.length ? describe : describe.skip;
if (!binaries.length) process.stdout.write('SKIPPED kubectl OpenAPI e2e: kubectl is not on the PATH\n');

function manifest(name: string, extraSpec = ''): string {
  return [
    'apiVersion: v1',
    'kind: Service',
    `metadata: {name: ${name}, labels: {app: ${name}}}`,
    `spec: {selector: {app: ${name}}, ports: [{name: http, port: 80, targetPort: 8080}]${extraSpec}}`,
    '',
  ].join('\n');
}

describeIfKubectl('kubectl with the served OpenAPI documents', () => {
  let t: TestServer;
  let work: string;

  beforeAll(async () => {
    t = await startTestServer();
    work = mkdtempSync(join(tmpdir(), 'svctrail-kubectl-openapi-'));
  });
  afterAll(async () => {
    await t.stop();
    rmSync(work, { recursive: true, force: true });
  });

  binaries.forEach((binary, index) => {
    const label = `${basename(binary)} (${kubectlVersion(binary)})`;

    it(`${label}: create, strict validation, apply, replace and explain`, async () => {
      // A namespace and cache of its own per binary, so versions neither collide nor share caches.
      const namespace = `openapi-${index}`;
      const dir = mkdtempSync(join(work, `${index}-`));
      const run = (...args: string[]) => kubectl(binary, t.server.kubeconfigPath, [`--cache-dir=${join(dir, 'cache')}`, '-n', namespace, ...args]);
      const file = (name: string, text: string) => {
        const path = join(dir, name);
        writeFileSync(path, text);
        return path;
      };

      const svc = file('svc.yaml', manifest('demo'));
      const created = await run('create', '-f', svc);
      expect({ label, ...created }).toMatchObject({ label, status: 0, stdout: 'service/demo created\n' });

      const bad = await run('create', '-f', file('bad.yaml', manifest('bad', ', foo: bar')));
      expect({ label, status: bad.status }).toEqual({ label, status: 1 });
      expect(bad.stderr).toContain('strict decoding error: unknown field "spec.foo"');

      const applied = file('applied.yaml', manifest('applied'));
      const first = await run('apply', '-f', applied);
      expect({ label, ...first }).toMatchObject({ label, status: 0, stdout: 'service/applied created\n' });
      const second = await run('apply', '-f', applied);
      expect({ label, ...second }).toMatchObject({ label, status: 0, stdout: 'service/applied unchanged\n' });

      const replaced = await run('replace', '-f', svc);
      expect({ label, ...replaced }).toMatchObject({ label, status: 0, stdout: 'service/demo replaced\n' });

      const explained = await run('explain', 'svc.status.loadBalancer.ingress');
      expect({ label, status: explained.status, stderr: explained.stderr }).toEqual({ label, status: 0, stderr: '' });
      expect(explained.stdout).toMatch(/KIND:\s+Service/);
      expect(explained.stdout).toMatch(/FIELD:\s+ingress/);
      expect(explained.stdout).toMatch(/\bip\b/);
      expect(explained.stdout).toMatch(/\bhostname\b/);
      expect(explained.stdout).toContain('load-balancer');

      // The v2 renderer reads the protobuf definitions through kube-openapi's parser.
      const explainedV2 = await run('explain', '--output=plaintext-openapiv2', 'svc.spec.ports.targetPort');
      expect({ label, status: explainedV2.status, stderr: explainedV2.stderr }).toEqual({ label, status: 0, stderr: '' });
      expect(explainedV2.stdout).toMatch(/FIELD:\s+targetPort <string>/);
    });
  });
});
