// deploy/ as `kubectl apply -k` sends it: rendered by kubectl's own kustomize, and the svctrail
// container of its StatefulSet (what the image test starts the image with).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { findKubectl } from './kubectl';

export const DEPLOY_FOLDER = join(__dirname, '..', '..', 'deploy');

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath: string }; secretKeyRef?: { name: string; key: string } };
}

export interface Container {
  name: string;
  image: string;
  args: string[];
  env: EnvVar[];
  ports: { name: string; containerPort: number }[];
  [field: string]: unknown;
}

/** `kubectl kustomize FOLDER` (a folder of deploy/, '' for deploy/ itself), parsed. */
export function kustomize(folder: string): KubeObject[] {
  const kubectl = findKubectl();
  if (!kubectl) throw new Error('kubectl is not installed');
  const run = spawnSync(kubectl, ['kustomize', join(DEPLOY_FOLDER, folder)], { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`kubectl kustomize ${folder || '.'} failed: ${run.stderr}`);
  return parseAllDocuments(run.stdout).map((document) => document.toJS() as KubeObject);
}

export function findObject(objects: readonly KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendered manifests`);
  return found;
}

/** The StatefulSet's svctrail container. */
export function svctrailContainer(objects: readonly KubeObject[]): Container {
  const statefulSet = findObject(objects, 'StatefulSet', 'svctrail') as unknown as { spec: { template: { spec: { containers: Container[] } } } };
  const container = statefulSet.spec.template.spec.containers.find((c) => c.name === 'svctrail');
  if (!container) throw new Error('the StatefulSet has no svctrail container');
  return container;
}

/**
 * The container's args with `$(NAME)` replaced as the kubelet does, from the given values of its
 * env's downward-API and secret variables (a reference to an unknown variable stays as written).
 */
export function expandedArgs(container: Container, values: Record<string, string>): string[] {
  const env: Record<string, string> = {};
  for (const variable of container.env) {
    const value = variable.value ?? values[variable.name];
    if (value !== undefined) env[variable.name] = value;
  }
  return container.args.map((arg) => arg.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => env[name] ?? whole));
}
