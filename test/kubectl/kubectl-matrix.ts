// client-protocol.md §13 against every kubectl in the image: the one on the PATH and each
// kubectl.1.NN beside it, each in its own namespace with a fresh cache. Prints which ran.
//
// In one file the matrix ran about 190 s of kubectl processes, one after another, longer than any
// other suite, so it decided when a two-worker run ended. It is split in files that jest's workers
// share out, each with a server of its own: kubectl-matrix-N.e2e-spec.ts runs the cases below for
// every fourth kubectl, from the Nth; kubectl-matrix-create-service.e2e-spec.ts runs `create
// service` for every kubectl and then compares their objects across versions.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, type KubectlResult, kubectlMatrix, kubectlVersion, watchStarted } from '../helpers/kubectl';
import { startTestServer, type TestServer } from '../helpers/test-server';

const manifest = (port: number, extra: Record<string, unknown> = {}, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'demo', labels: { app: 'demo' }, ...meta },
    spec: { selector: { app: 'demo' }, ports: [{ name: 'http', port, targetPort: 8080 }], ...spec },
    ...extra,
  });

/** A created Service without what differs between two creates (identity, time, allocations). */
function comparable(svc: any): any {
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, namespace: _ns, ...metadata } = svc.metadata;
  const { clusterIP: _ip, clusterIPs: _ips, ...spec } = svc.spec;
  spec.ports = spec.ports?.map(({ nodePort: _np, ...port }: any) => port);
  return { ...svc, metadata, spec };
}

const minor = (version: string) => Number(/^v1\.(\d+)\./.exec(version)?.[1] ?? 0);

/** Which part of the matrix a file runs. */
export type MatrixPart = { part: number; of: number } | 'create service';

export function describeKubectlMatrix(which: MatrixPart): void {
  const all = kubectlMatrix();
  const binaries = all.map((b, i) => [b, i] as const).filter(([, i]) => which === 'create service' || i % which.of === which.part - 1);
  if (!binaries.length) {
    const reason = all.length ? `no kubectl for part ${which === 'create service' ? which : `${which.part} of ${which.of}`} (${all.length} found)` : 'no kubectl on the PATH';
    process.stdout.write(`SKIPPED kubectl matrix: ${reason}\n`);
    it.skip(`kubectl matrix: ${reason}`, () => undefined);
    return;
  }

  /** kubectl version → the objects its `create service` commands produced. */
  const createdByVersion = new Map<string, Record<string, unknown>>();

  describe('kubectl matrix (client-protocol.md §13)', () => {
    let t: TestServer;
    let work: string;
    const ran: string[] = [];

    beforeAll(async () => {
      t = await startTestServer();
      work = mkdtempSync(join(tmpdir(), 'svctrail-matrix-'));
      writeFileSync(join(work, 'svc.yaml'), manifest(80));
      writeFileSync(join(work, 'svc2.yaml'), manifest(81));
      writeFileSync(join(work, 'bad.yaml'), manifest(80, {}, { foo: 'bar' }));
      writeFileSync(join(work, 'stale.yaml'), manifest(80, {}, {}, { resourceVersion: '1' }));
      writeFileSync(join(work, 'svc-status.yaml'), manifest(80, { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } }, { type: 'LoadBalancer' }));
      const editor = join(work, 'editor.sh');
      writeFileSync(editor, `#!/bin/sh\nsed -i 's/port: 80$/port: 8081/' "$1"\n`);
      chmodSync(editor, 0o755);
      await t.client.post('/api/v1/namespaces/default/services', {
        metadata: { name: 'web', labels: { app: 'x' } },
        spec: { selector: { app: 'x' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
      });
    });
    afterAll(async () => {
      process.stdout.write(`kubectl matrix ran: ${ran.join('; ')}\n`);
      await t.stop();
      rmSync(work, { recursive: true, force: true });
    });

    describe.each(binaries)('%s', (binary, index) => {
      const ns = `matrix-${index}`;
      const cache = () => join(work, `cache-${index}`);
      const k = (...args: string[]): Promise<KubectlResult> => kubectl(binary, t.server.kubeconfigPath, [`--cache-dir=${cache()}`, ...args]);
      const kn = (...args: string[]) => k('-n', ns, ...args);
      const file = (name: string) => join(work, name);
      const jsonpath = async (path: string) => (await kn('get', 'svc', 'demo', '-o', `jsonpath=${path}`)).stdout;
      const ok = (r: KubectlResult) => {
        if (r.status !== 0) throw new Error(`kubectl failed (${r.status}): ${r.stderr}`);
        return r.stdout;
      };

      beforeAll(() => {
        ran.push(`${binary.split('/').pop()} ${kubectlVersion(binary)}`);
      });

      if (which === 'create service') {
        // kubectl 1.32+ sends these bodies in protobuf (protobuf.md §1), earlier ones in JSON: the
        // objects must come out the same either way (compared across versions below).
        it('create service clusterip|nodeport|loadbalancer|externalname, with and without --dry-run=server', async () => {
          const specs: [string, string[]][] = [
            ['clusterip', ['cip', '--tcp=80:8080', '--tcp=443:8443']],
            ['nodeport', ['np', '--tcp=80:8080']],
            ['loadbalancer', ['lb', '--tcp=5678:8080']],
            ['externalname', ['ext', '--external-name=db.example.com', '--tcp=5432']],
          ];
          const objects: Record<string, unknown> = {};
          for (const [type, args] of specs) {
            const dry = JSON.parse(ok(await kn('create', 'service', type, ...args, '--dry-run=server', '-o', 'json')));
            expect(dry.metadata.uid).toBeTruthy();
            expect((await kn('get', 'svc', args[0])).status).toBe(1);
            expect(ok(await kn('create', 'service', type, ...args)).trim()).toBe(`service/${args[0]} created`);
            const created = JSON.parse(ok(await kn('get', 'svc', args[0], '-o', 'json')));
            expect(comparable(dry)).toEqual(comparable(created));
            objects[type] = comparable(created);
          }
          createdByVersion.set(kubectlVersion(binary), objects);
          // describe with a protobuf-first Accept (1.33) answered in protobuf.
          expect(ok(await kn('describe', 'svc', 'lb'))).toMatch(/^Port:\s+5678-8080\s+5678\/TCP$/m);
          ok(await kn('delete', 'svc', 'cip', 'np', 'lb', 'ext'));
        });
        return;
      }

      it('version, api-resources, get with every output', async () => {
        expect(ok(await k('version'))).toMatch(/Server Version: (v1\.32\.|version\.Info\{Major:"1", Minor:"32")/);
        const resources = ok(await k('api-resources'));
        expect(resources).toMatch(/^services\s+svc\s+v1\s+true\s+Service$/m);
        const table = ok(await k('get', 'svc', '-n', 'default'));
        expect(table.split('\n')[0]).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/);
        expect(table).toMatch(/^kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+\S+$/m);
        expect(ok(await k('get', 'svc', '-n', 'default', '-o', 'wide'))).toMatch(/^web\s+ClusterIP\s+\S+\s+<none>\s+80\/TCP\s+\S+\s+app=x$/m);
        expect(ok(await k('get', 'svc', '-A'))).toMatch(/^default\s+web\s+ClusterIP/m);
        expect(ok(await k('get', 'svc', '-n', 'default', '--show-labels'))).toMatch(/^web\s.*app=x$/m);
        expect(ok(await k('get', 'svc', '-n', 'default', '-l', 'app=x', '-o', 'name')).trim()).toBe('service/web');
        expect(ok(await k('get', 'svc', '-n', 'default', '--field-selector', 'metadata.name=web', '-o', 'name')).trim()).toBe('service/web');
        const badField = await k('get', 'svc', '--field-selector', 'spec.foo=x');
        expect(badField.status).toBe(1);
        expect(badField.stderr).toContain('Error from server (BadRequest)');
        const missing = await k('get', 'svc', 'nope', '-n', 'default');
        expect(missing.stderr.trim()).toBe('Error from server (NotFound): services "nope" not found');
        const empty = await k('get', 'svc', '-n', 'empty');
        expect(empty.status).toBe(0);
        expect(empty.stderr.trim()).toBe('No resources found in empty namespace.');
        const yaml = ok(await k('get', 'svc', 'web', '-n', 'default', '-o', 'yaml'));
        expect(yaml).toMatch(/^apiVersion: v1$/m);
        expect(yaml).toMatch(/creationTimestamp: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/);
        expect(JSON.parse(ok(await k('get', 'svc', 'web', '-n', 'default', '-o', 'json'))).status).toEqual({ loadBalancer: {} });
        expect(ok(await k('get', 'svc', 'web', '-n', 'default', '-o', 'custom-columns=N:.metadata.name,IP:.spec.clusterIP'))).toMatch(/^web\s+10\./m);
        expect(JSON.parse(ok(await k('get', '--raw', '/api/v1/namespaces/default/services/web/status'))).kind).toBe('Service');
      });

      it('create, apply twice, replace, status replace, conflicts', async () => {
        expect(ok(await kn('create', '-f', file('svc.yaml'))).trim()).toBe('service/demo created');
        expect(await jsonpath('{.spec.ports[0].targetPort}')).toBe('8080');
        const again = await kn('create', '-f', file('svc.yaml'));
        expect(again.stderr).toContain('Error from server (AlreadyExists)');
        const bad = await kn('create', '-f', file('bad.yaml'));
        expect(bad.status).toBe(1);
        expect(bad.stderr).toContain('strict decoding error: unknown field "spec.foo"');
        ok(await kn('delete', 'svc', 'demo'));
        expect(ok(await kn('apply', '-f', file('svc.yaml'))).trim()).toBe('service/demo created');
        expect(await jsonpath('{.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}')).toContain('"port":80');
        expect(ok(await kn('apply', '-f', file('svc2.yaml'))).trim()).toBe('service/demo configured');
        expect(ok(await kn('apply', '-f', file('svc2.yaml'))).trim()).toBe('service/demo unchanged');
        expect(await jsonpath('{.spec.ports[*].port}')).toBe('81');
        ok(await kn('delete', 'svc', 'demo'));
        ok(await kn('create', '-f', file('svc-status.yaml')));
        expect(await jsonpath('{.status.loadBalancer}')).toBe('{}');
        expect(ok(await kn('replace', '-f', file('svc-status.yaml'))).trim()).toBe('service/demo replaced');
        expect(ok(await kn('replace', '--subresource=status', '-f', file('svc-status.yaml'))).trim()).toBe('service/demo replaced');
        expect(ok(await kn('get', 'svc', 'demo'))).toMatch(/^demo\s+LoadBalancer\s+\S+\s+1\.2\.3\.4\s/m);
        const stale = await kn('replace', '-f', file('stale.yaml'));
        expect(stale.stderr).toContain('the object has been modified; please apply your changes to the latest version and try again');
      });

      it('patch every type, with and without --subresource=status; edit; diff', async () => {
        expect(ok(await kn('patch', 'svc', 'demo', '--subresource=status', '--type=merge', '-p', '{"status":{"loadBalancer":{"ingress":[{"ip":"5.6.7.8"}]}}}')).trim()).toBe('service/demo patched');
        expect(await jsonpath('{.status.loadBalancer.ingress[0].ip}')).toBe('5.6.7.8');
        ok(await kn('patch', 'svc', 'demo', '--subresource=status', '--type=json', '-p', '[{"op":"replace","path":"/status/loadBalancer/ingress/0/ip","value":"9.9.9.9"}]'));
        expect(await jsonpath('{.status.loadBalancer.ingress[0].ip}')).toBe('9.9.9.9');
        const failed = await kn('patch', 'svc', 'demo', '--subresource=status', '--type=json', '-p', '[{"op":"replace","path":"/status/nope/0","value":1}]');
        expect(failed.status).toBe(1);
        expect(await jsonpath('{.status.loadBalancer.ingress[0].ip}')).toBe('9.9.9.9');
        ok(
          await kn(
            'patch',
            'svc',
            'demo',
            '--subresource=status',
            '-p',
            '{"status":{"conditions":[{"type":"Ready","status":"True","reason":"Up","message":"","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}',
          ),
        );
        expect(await jsonpath('{.status.conditions[0].type}')).toBe('Ready');
        // ipMode is defaulted from the patched object's own spec.type (NodePort here), so it is given.
        ok(await kn('patch', 'svc', 'demo', '--subresource=status', '--type=merge', '-p', '{"spec":{"type":"NodePort"},"status":{"loadBalancer":{"ingress":[{"ip":"7.7.7.7","ipMode":"VIP"}]}}}'));
        expect(await jsonpath('{.spec.type} {.status.loadBalancer.ingress[0].ip}')).toBe('LoadBalancer 7.7.7.7');
        ok(await kn('patch', 'svc', 'demo', '--type=merge', '-p', '{"status":{"loadBalancer":{"ingress":[{"ip":"8.8.8.8"}]}}}'));
        expect(await jsonpath('{.status.loadBalancer.ingress[0].ip}')).toBe('7.7.7.7');
        expect(ok(await kn('patch', 'svc', 'demo', '-p', '{"metadata":{"labels":{"tier":"web"}}}')).trim()).toBe('service/demo patched');
        expect(ok(await kn('patch', 'svc', 'demo', '-p', '{"metadata":{"labels":{"tier":"web"}}}')).trim()).toBe('service/demo patched (no change)');
        ok(await kn('patch', 'svc', 'demo', '--type=json', '-p', '[{"op":"add","path":"/metadata/labels/json","value":"yes"}]'));
        expect(await jsonpath('{.metadata.labels.json}')).toBe('yes');

        const edited = await kubectl(binary, t.server.kubeconfigPath, [`--cache-dir=${cache()}`, '-n', ns, 'edit', 'svc', 'demo'], undefined, { KUBE_EDITOR: file('editor.sh') });
        expect(edited.stdout.trim()).toBe('service/demo edited');
        expect(await jsonpath('{.spec.ports[*].port}')).toBe('8081');
        const cancelled = await kubectl(binary, t.server.kubeconfigPath, [`--cache-dir=${cache()}`, '-n', ns, 'edit', 'svc', 'demo'], undefined, { KUBE_EDITOR: 'true' });
        expect(cancelled.stderr.trim()).toBe('Edit cancelled, no changes made.');

        // diff computes its patch from last-applied-configuration, so it runs on an applied object.
        const applied = file(`applied-${index}.json`);
        writeFileSync(applied, manifest(80, {}, {}, { name: 'diffme' }));
        ok(await kn('apply', '-f', applied));
        const rvBefore = (await kn('get', 'svc', 'diffme', '-o', 'jsonpath={.metadata.resourceVersion}')).stdout;
        writeFileSync(applied, manifest(81, {}, {}, { name: 'diffme' }));
        const diff = await kn('diff', '-f', applied);
        expect(diff.stderr).toBe('');
        expect(diff.status).toBe(1);
        expect(diff.stdout).toMatch(/^-\s+port: 80$/m);
        expect(diff.stdout).toMatch(/^\+\s+port: 81$/m);
        expect((await kn('get', 'svc', 'diffme', '-o', 'jsonpath={.metadata.resourceVersion}')).stdout).toBe(rvBefore);
      });

      it('apply --server-side: created, unchanged, pruned, conflicts, --force-conflicts, --dry-run=server, managed fields, client-side then server-side', async () => {
        const manifest = (name: string, labels: string, ports: string, extraSpec = '') =>
          `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  labels: {${labels}}\nspec:\n  selector: {app: ${name}}\n${extraSpec}  ports:\n${ports}`;
        const two = '  - {name: http, port: 80, targetPort: 8080}\n  - {name: https, port: 443, targetPort: 8443}\n';
        const one = '  - {name: http, port: 80, targetPort: 8080}\n';
        writeFileSync(file(`ssa-${index}.yaml`), manifest('ssa', 'app: ssa, tier: web', two));
        expect(ok(await kn('apply', '--server-side', '-f', file(`ssa-${index}.yaml`))).trim()).toBe('service/ssa serverside-applied');
        const rv = (await kn('get', 'svc', 'ssa', '-o', 'jsonpath={.metadata.resourceVersion}')).stdout;
        expect(ok(await kn('apply', '--server-side', '-f', file(`ssa-${index}.yaml`))).trim()).toBe('service/ssa serverside-applied');
        expect((await kn('get', 'svc', 'ssa', '-o', 'jsonpath={.metadata.resourceVersion}')).stdout).toBe(rv);
        const shown = JSON.parse(ok(await kn('get', 'svc', 'ssa', '-o', 'json', '--show-managed-fields')));
        expect(shown.metadata.managedFields).toEqual([
          expect.objectContaining({
            manager: 'kubectl',
            operation: 'Apply',
            fieldsV1: {
              'f:metadata': { 'f:labels': { 'f:app': {}, 'f:tier': {} } },
              'f:spec': {
                'f:ports': {
                  'k:{"port":443,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:targetPort': {} },
                  'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:targetPort': {} },
                },
                'f:selector': {},
              },
            },
          }),
        ]);
        writeFileSync(file(`ssa-${index}.yaml`), manifest('ssa', 'app: ssa', one));
        ok(await kn('apply', '--server-side', '-f', file(`ssa-${index}.yaml`)));
        expect(JSON.parse(ok(await kn('get', 'svc', 'ssa', '-o', 'json')))).toMatchObject({ metadata: { labels: { app: 'ssa' } }, spec: { ports: [{ port: 80 }] } });
        expect((await kn('get', 'svc', 'ssa', '-o', 'jsonpath={.metadata.labels.tier}{.spec.ports[1].port}')).stdout).toBe('');

        ok(await kn('create', 'service', 'clusterip', 'made', '--tcp=80:8080'));
        writeFileSync(file(`made-${index}.yaml`), manifest('made', 'app: made', '  - {name: 80-8080, port: 80, targetPort: 8080}\n', '  sessionAffinity: ClientIP\n'));
        const conflict = await kn('apply', '--server-side', '-f', file(`made-${index}.yaml`));
        expect(conflict.status).toBe(1);
        expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .spec.sessionAffinity');
        expect(ok(await kn('apply', '--server-side', '--dry-run=server', '--force-conflicts', '-f', file(`made-${index}.yaml`))).trim()).toBe('service/made serverside-applied (server dry run)');
        expect((await kn('get', 'svc', 'made', '-o', 'jsonpath={.spec.sessionAffinity}')).stdout).toBe('None');
        ok(await kn('apply', '--server-side', '--force-conflicts', '-f', file(`made-${index}.yaml`)));
        expect((await kn('get', 'svc', 'made', '-o', 'jsonpath={.spec.sessionAffinity}')).stdout).toBe('ClientIP');

        writeFileSync(file(`csa-${index}.yaml`), manifest('csa', 'app: csa', one));
        expect(ok(await kn('apply', '-f', file(`csa-${index}.yaml`))).trim()).toBe('service/csa created');
        expect(ok(await kn('apply', '--server-side', '-f', file(`csa-${index}.yaml`))).trim()).toBe('service/csa serverside-applied');

        if (minor(kubectlVersion(binary)) >= 32) {
          ok(await kn('create', 'service', 'loadbalancer', 'lbs', '--tcp=80:8080'));
          writeFileSync(file(`lbs-${index}.yaml`), 'apiVersion: v1\nkind: Service\nmetadata: {name: lbs}\nstatus:\n  loadBalancer:\n    ingress: [{ip: 203.0.113.50}]\n');
          ok(await kn('apply', '--server-side', '--subresource=status', '--field-manager=lb-controller', '-f', file(`lbs-${index}.yaml`)));
          expect((await kn('get', 'svc', 'lbs', '-o', 'jsonpath={.status.loadBalancer.ingress[0].ip}')).stdout).toBe('203.0.113.50');
          ok(await kn('delete', 'svc', 'lbs'));
        }
        ok(await kn('delete', 'svc', 'ssa', 'made', 'csa'));
      });

      it('get -w, wait --for=jsonpath, wait --for=delete, describe, explain, delete', async () => {
        const watcher = spawn(binary, [`--cache-dir=${cache()}`, '-n', ns, 'get', 'svc', '-w', '--output-watch-events'], {
          env: { ...process.env, KUBECONFIG: t.server.kubeconfigPath },
        });
        let watched = '';
        watcher.stdout.on('data', (c: Buffer) => (watched += c.toString()));
        const waitFor = async (pattern: RegExp) => {
          const started = Date.now();
          while (!pattern.test(watched)) {
            if (Date.now() - started > 30000) throw new Error(`get -w never printed ${pattern}: ${watched}`);
            await new Promise((r) => setTimeout(r, 50));
          }
        };
        await waitFor(/ADDED\s+demo\s+LoadBalancer/);
        // Met whether the patch lands before wait's first GET or while it watches: no ordering needed.
        const waiting = kn('wait', '--for=jsonpath={.status.loadBalancer.ingress[0].ip}=1.1.1.1', 'svc/demo', '--timeout=30s');
        ok(await kn('patch', 'svc', 'demo', '--subresource=status', '--type=merge', '-p', '{"status":{"loadBalancer":{"ingress":[{"ip":"1.1.1.1"}]}}}'));
        expect(ok(await waiting).trim()).toBe('service/demo condition met');
        await waitFor(/MODIFIED\s+demo\s+LoadBalancer\s+\S+\s+1\.1\.1\.1/);

        const describe = ok(await kn('describe', 'svc', 'demo'));
        expect(describe).toMatch(/^Name:\s+demo$/m);
        expect(describe).toMatch(/^Type:\s+LoadBalancer$/m);
        expect(describe).toMatch(/^LoadBalancer Ingress:\s+1\.1\.1\.1/m);
        expect(describe).toMatch(/IngressChanged\s+.*Load-balancer ingress changed from 7\.7\.7\.7 to 1\.1\.1\.1 by admin/);
        const explain = ok(await k('explain', 'svc.status.loadBalancer.ingress'));
        for (const field of ['hostname', 'ip', 'ipMode', 'ports']) expect(explain).toMatch(new RegExp(`^\\s+${field}\\s`, 'm'));

        // wait --for=delete prints "condition met" only if it saw the Service before it went: delete
        // once its watch is answered (-v=6 logs that), not after a guessed sleep.
        let watching!: () => void;
        const watchingNow = new Promise<void>((resolve) => (watching = resolve));
        const waitDelete = kubectl(binary, t.server.kubeconfigPath, [`--cache-dir=${cache()}`, '-n', ns, '-v=6', 'wait', '--for=delete', 'svc/demo', '--timeout=30s'], undefined, {}, (stderr) => {
          if (watchStarted(stderr)) watching();
        });
        await Promise.race([watchingNow, waitDelete]);
        expect(ok(await kn('delete', 'svc', 'demo')).trim()).toBe('service "demo" deleted');
        expect(ok(await waitDelete).trim()).toBe('service/demo condition met');
        await waitFor(/DELETED\s+demo/);
        watcher.kill();
        const gone = await kn('delete', 'svc', 'demo');
        expect(gone.stderr.trim()).toBe('Error from server (NotFound): services "demo" not found');
        expect(ok(await kn('get', 'events'))).toMatch(/Deleted\s+service\/demo/);
      });
    });

    if (which === 'create service') {
      it('create service: JSON bodies (kubectl ≤ 1.31) and protobuf bodies (≥ 1.32) give the same objects', () => {
        const versions = [...createdByVersion.keys()];
        const control = versions.find((v) => minor(v) === 31) ?? versions.find((v) => minor(v) < 32);
        const protobuf = versions.filter((v) => minor(v) >= 32);
        if (!control || !protobuf.length) {
          process.stdout.write(`SKIPPED JSON/protobuf comparison: need kubectl ≤ 1.31 and ≥ 1.32, ran ${versions.join(', ')}\n`);
          return;
        }
        for (const version of versions) expect({ version, objects: createdByVersion.get(version) }).toEqual({ version, objects: createdByVersion.get(control) });
      });
    }
  });
}
