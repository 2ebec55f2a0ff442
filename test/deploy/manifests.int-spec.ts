// deploy/ as `kubectl apply -k` takes it (issue 44 point 5): rendered by kubectl's kustomize, every
// object valid against the Kubernetes OpenAPI schemas (kubernetes-models, generated from them:
// types, required fields, enums, formats) and without a field the schemas do not know (what a
// cluster's strict field validation refuses; @kubernetes/client-node's models, also generated
// from them, list each type's fields). Then what each object must say for svctrail to work.
import * as k8s from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import * as apiregistrationV1 from 'kubernetes-models/apiregistration.k8s.io/v1';
import * as appsV1 from 'kubernetes-models/apps/v1';
import * as rbacV1 from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import * as coreV1 from 'kubernetes-models/v1';
import { loadConfig } from '../../src/config/app-config';
import { HISTORY_GROUP, HISTORY_RESOURCES, HISTORY_VERSION } from '../../src/history/history-api';
import { findKubectl } from '../helpers/kubectl';
import { DEPLOY_FOLDER, expandedArgs, findObject, kustomize, type KubeObject, svctrailContainer } from '../helpers/rendered-deploy';

interface Model {
  validate(): void;
}
type ModelClass = new (data: object) => Model;
interface AttributeType {
  baseName: string;
  type: string;
}
type GeneratedType = { getAttributeTypeMap?: () => AttributeType[] } | undefined;

// The model modules of the API groups deploy/ uses; an object of another group fails below.
const MODELS: Record<string, Record<string, unknown>> = {
  v1: coreV1,
  'apps/v1': appsV1,
  'rbac.authorization.k8s.io/v1': rbacV1,
  'apiregistration.k8s.io/v1': apiregistrationV1,
};

/** kubernetes-models' class for the object's apiVersion and kind. */
function modelClass(object: KubeObject): ModelClass {
  const found = MODELS[object.apiVersion]?.[object.kind] as ModelClass | undefined;
  if (!found) throw new Error(`no kubernetes-models class for ${object.apiVersion} ${object.kind}`);
  return found;
}

/** The JSON paths of fields the schema of `type` (a client-node model name) does not have. */
function unknownFields(value: unknown, type: string, path: string): string[] {
  if (value === null || value === undefined) return [];
  const array = /^Array<(.+)>$/.exec(type);
  if (array) return (value as unknown[]).flatMap((item, i) => unknownFields(item, array[1], `${path}[${i}]`));
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) return Object.entries(value).flatMap(([key, item]) => unknownFields(item, map[1], `${path}.${key}`));
  const attributes = ((k8s as Record<string, unknown>)[type] as GeneratedType)?.getAttributeTypeMap?.();
  if (!attributes) return [];
  const known = new Map(attributes.map((a) => [a.baseName, a.type]));
  return Object.entries(value).flatMap(([key, item]) => {
    const fieldType = known.get(key);
    return fieldType === undefined ? [`${path}.${key}`] : unknownFields(item, fieldType, `${path}.${key}`);
  });
}

function schemaProblems(object: KubeObject): string[] {
  const problems: string[] = [];
  try {
    new (modelClass(object))(object).validate();
  } catch (error) {
    problems.push((error as Error).message);
  }
  const version = object.apiVersion.split('/').pop()!;
  const type = `${version[0].toUpperCase()}${version.slice(1)}${object.kind}`;
  if (!((k8s as Record<string, unknown>)[type] as GeneratedType)?.getAttributeTypeMap) problems.push(`@kubernetes/client-node has no model ${type}`);
  else problems.push(...unknownFields(object, type, '').map((field) => `unknown field ${field}`));
  return problems;
}

const kubectl = findKubectl();
if (!kubectl) {
  if (process.env.CI) throw new Error('kubectl is not installed: deploy/ cannot be rendered');
  console.warn('skipping the deploy/ manifest tests: kubectl is not installed');
}
const describeWithKubectl = kubectl ? describe : describe.skip;

describeWithKubectl('deploy/ (kubectl apply -k)', () => {
  const variants = { 'deploy/': '', 'deploy/postgresql/': 'postgresql' } as const;
  const rendered = Object.fromEntries(Object.entries(variants).map(([name, folder]) => [name, kustomize(folder)])) as Record<keyof typeof variants, KubeObject[]>;
  const base = rendered['deploy/'];

  it.each(Object.keys(variants))('%s: every object is valid against the Kubernetes OpenAPI schemas and has no unknown field', (variant) => {
    const objects = rendered[variant as keyof typeof variants];
    expect(objects.length).toBeGreaterThanOrEqual(10);
    expect(objects.map((o) => ({ object: `${o.kind} ${o.metadata.name}`, problems: schemaProblems(o) })).filter((o) => o.problems.length > 0)).toEqual([]);
  });

  it('the schema check finds a wrong type, a missing required field and a misspelt field', () => {
    const statefulSet = structuredClone(findObject(base, 'StatefulSet', 'svctrail')) as KubeObject & { spec: Record<string, unknown> };
    statefulSet.spec.replicas = 'one';
    delete statefulSet.spec.selector;
    (statefulSet.spec as { template: { spec: Record<string, unknown> } }).template.spec.securityContex = {};
    const problems = schemaProblems(statefulSet).join('\n');
    expect(problems).toContain('replicas');
    expect(problems).toContain('selector');
    expect(problems).toContain('unknown field .spec.template.spec.securityContex');
  });

  it('reads what the mirror needs: list and watch of services and events, nothing else', () => {
    const role = findObject(base, 'ClusterRole', 'svctrail-mirror') as KubeObject & { rules: object[] };
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['services', 'events'], verbs: ['list', 'watch'] }]);
    expect(findObject(base, 'ClusterRoleBinding', 'svctrail-mirror')).toMatchObject({
      roleRef: { kind: 'ClusterRole', name: 'svctrail-mirror' },
      subjects: [{ kind: 'ServiceAccount', name: 'svctrail', namespace: 'svctrail' }],
    });
  });

  it('binds the extension API server roles: system:auth-delegator, and the ConfigMap reader in kube-system', () => {
    expect(findObject(base, 'ClusterRoleBinding', 'svctrail:system:auth-delegator')).toMatchObject({
      roleRef: { kind: 'ClusterRole', name: 'system:auth-delegator' },
      subjects: [{ kind: 'ServiceAccount', name: 'svctrail', namespace: 'svctrail' }],
    });
    expect(findObject(base, 'RoleBinding', 'svctrail-auth-reader')).toMatchObject({
      metadata: { namespace: 'kube-system' },
      roleRef: { kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'svctrail', namespace: 'svctrail' }],
    });
  });

  it('lets view, edit and admin read every history resource, and write none', () => {
    const role = findObject(base, 'ClusterRole', 'svctrail-history-reader') as KubeObject & { rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[] };
    for (const aggregate of ['view', 'edit', 'admin']) expect(role.metadata.labels?.[`rbac.authorization.k8s.io/aggregate-to-${aggregate}`]).toBe('true');
    expect(role.rules).toHaveLength(1);
    expect(role.rules[0].apiGroups).toEqual([HISTORY_GROUP]);
    expect([...role.rules[0].resources].sort()).toEqual(HISTORY_RESOURCES.map((r) => r.name).sort());
    expect(role.rules[0].verbs).toEqual(['get', 'list', 'watch']);
  });

  it('registers the history group at the Service port the aggregator dials, whose target the container serves', () => {
    const apiService = findObject(base, 'APIService', `${HISTORY_VERSION}.${HISTORY_GROUP}`) as KubeObject & { spec: Record<string, unknown> };
    expect(apiService.spec).toMatchObject({ group: HISTORY_GROUP, version: HISTORY_VERSION, insecureSkipTLSVerify: true, service: { name: 'svctrail', namespace: 'svctrail', port: 443 } });
    expect(apiService.spec.caBundle).toBeUndefined();
    const service = findObject(base, 'Service', 'svctrail') as KubeObject & {
      spec: { type?: string; clusterIP?: string; selector: object; ports: { name: string; port: number; targetPort: string }[] };
    };
    // ClusterIP: the aggregator rejects a headless Service.
    expect(service.spec.type ?? 'ClusterIP').toBe('ClusterIP');
    expect(service.spec.clusterIP).not.toBe('None');
    expect(service.spec.ports).toEqual([{ name: 'https', port: 443, targetPort: 'https', protocol: 'TCP' }]);
    const statefulSet = findObject(base, 'StatefulSet', 'svctrail') as KubeObject & { spec: { template: { metadata: { labels: object } } } };
    expect(statefulSet.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    const container = svctrailContainer(base);
    const port = container.ports.find((p) => p.name === 'https')!;
    expect(loadConfig(expandedArgs(container, { POD_NAMESPACE: 'svctrail' }), {}).port).toBe(port.containerPort);
  });

  it('starts svctrail with flags it knows: mirroring and delegating to the cluster it runs in, its serving name for the aggregator', () => {
    const config = loadConfig(expandedArgs(svctrailContainer(base), { POD_NAMESPACE: 'svctrail' }), {});
    expect(config).toMatchObject({ host: '0.0.0.0', mirror: 'in-cluster', authenticationKubeconfig: 'in-cluster', authorizationKubeconfig: 'in-cluster', dataDir: '/var/lib/svctrail/data' });
    expect(config.tlsSans).toEqual(['svctrail.svctrail.svc']);
    expect(svctrailContainer(base).env).toContainEqual({ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
  });

  it('runs one SQLite replica on a volume; the PostgreSQL overlay runs three on the database, each with an emptyDir', () => {
    type Pod = { spec: { replicas: number; volumeClaimTemplates?: { metadata: { name: string } }[]; template: { spec: { volumes: { name: string; emptyDir?: object }[] } } } };
    const sqlite = findObject(base, 'StatefulSet', 'svctrail') as unknown as Pod;
    expect(sqlite.spec.replicas).toBe(1);
    expect(sqlite.spec.volumeClaimTemplates?.map((t) => t.metadata.name)).toEqual(['data']);
    const postgres = rendered['deploy/postgresql/'];
    const replicated = findObject(postgres, 'StatefulSet', 'svctrail') as unknown as Pod;
    expect(replicated.spec.replicas).toBe(3);
    expect(replicated.spec.volumeClaimTemplates).toBeUndefined();
    expect(replicated.spec.template.spec.volumes).toContainEqual({ name: 'data', emptyDir: {} });
    const container = svctrailContainer(postgres);
    expect(container.env).toContainEqual({ name: 'SVCTRAIL_STORAGE', valueFrom: { secretKeyRef: { name: 'svctrail-postgresql', key: 'url' } } });
    expect(loadConfig(expandedArgs(container, { POD_NAMESPACE: 'svctrail' }), { SVCTRAIL_STORAGE: 'postgres://svctrail@db:5432/svctrail' }).storage).toEqual({
      engine: 'postgres',
      url: 'postgres://svctrail@db:5432/svctrail',
    });
  });

  it('probes /livez and /readyz over HTTPS, runs as non-root on a read-only root filesystem, with requests and limits', () => {
    const container = svctrailContainer(base);
    for (const probe of ['startupProbe', 'livenessProbe']) expect(container[probe]).toMatchObject({ httpGet: { path: '/livez', port: 'https', scheme: 'HTTPS' } });
    expect(container.readinessProbe).toMatchObject({ httpGet: { path: '/readyz', port: 'https', scheme: 'HTTPS' } });
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    const pod = (findObject(base, 'StatefulSet', 'svctrail') as unknown as { spec: { template: { spec: { securityContext: { runAsNonRoot: boolean; runAsUser: number } } } } }).spec.template.spec;
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(container.resources).toMatchObject({ requests: { cpu: expect.any(String), memory: expect.any(String) }, limits: { cpu: expect.any(String), memory: expect.any(String) } });
  });

  it('ships the audit policy and webhook kubeconfig a self-managed control plane needs, outside what apply -k sends', () => {
    expect(base.map((o) => o.kind)).not.toContain('Policy');
    const policy = parse(readFileSync(join(DEPLOY_FOLDER, 'audit', 'audit-policy.yaml'), 'utf8')) as {
      apiVersion: string;
      kind: string;
      rules: { level: string; resources?: { group: string; resources: string[] }[] }[];
    };
    expect(policy).toMatchObject({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', omitStages: ['RequestReceived'] });
    expect(policy.rules[0]).toMatchObject({ level: 'RequestResponse', resources: [{ group: '', resources: ['services', 'services/status'] }] });
    expect(policy.rules.at(-1)).toEqual({ level: 'None' });
    const webhook = parse(readFileSync(join(DEPLOY_FOLDER, 'audit', 'webhook-kubeconfig.yaml'), 'utf8')) as { clusters: { cluster: { server: string; 'tls-server-name': string } }[] };
    expect(webhook.clusters[0].cluster.server).toMatch(/\/audit\/v1\/events$/);
    expect(webhook.clusters[0].cluster['tls-server-name']).toBe(config().tlsSans[0]);
  });
});

function config() {
  return loadConfig(expandedArgs(svctrailContainer(kustomize('')), { POD_NAMESPACE: 'svctrail' }), {});
}
