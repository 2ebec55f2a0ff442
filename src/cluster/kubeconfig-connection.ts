// A cluster as a kubeconfig names it (clientcmd v1 Config): the context's cluster
// (server, CA, TLS options) and user (token, token file, client certificate, basic auth or an
// exec credential plugin), with relative file paths resolved against the kubeconfig's folder as
// kubectl resolves them (clientcmd ResolvePaths). Files are only named here, and checked to be
// readable so a wrong path is refused at startup: the credentials read them when needed, so a
// rotated certificate or token file is picked up.
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { ClusterConfigError } from './cluster-config-error';

/** PEM text given inline (`*-data`, base64-decoded here) or as a file to read. */
export type PemSource = { data: string } | { file: string };

export type ExecInteractiveMode = 'Never' | 'IfAvailable' | 'Always';

export interface ExecPlugin {
  /** Absolute when the kubeconfig gave a path; a bare name is looked up on PATH. */
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  apiVersion: 'client.authentication.k8s.io/v1' | 'client.authentication.k8s.io/v1beta1';
  interactiveMode: ExecInteractiveMode;
  provideClusterInfo: boolean;
  installHint?: string;
}

export interface ClusterUser {
  token?: string;
  tokenFile?: string;
  clientCertificate?: PemSource;
  clientKey?: PemSource;
  username?: string;
  password?: string;
  exec?: ExecPlugin;
}

export interface ClusterConnection {
  /** The kubeconfig file and the context used (`in-cluster` for both without one), for messages. */
  kubeconfig: string;
  context: string;
  /** The context's namespace, or the Pod's in cluster; empty when neither says (clientcmd's Namespace()). */
  namespace: string;
  /** Without a trailing slash; may carry a path prefix (a cluster behind Rancher, say). */
  server: string;
  certificateAuthority?: PemSource;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  /** The cluster's `client.authentication.k8s.io/exec` extension, handed to a plugin with provideClusterInfo. */
  execClusterConfig?: unknown;
  user: ClusterUser;
}

type Named<T> = { name?: unknown } & T;
export interface KubeconfigFile {
  'current-context'?: unknown;
  contexts?: Named<{ context?: { cluster?: unknown; user?: unknown; namespace?: unknown } }>[] | null;
  clusters?: Named<{ cluster?: Record<string, unknown> }>[] | null;
  users?: Named<{ user?: Record<string, unknown> }>[] | null;
}

const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] as const;
const INTERACTIVE_MODES: readonly ExecInteractiveMode[] = ['Never', 'IfAvailable', 'Always'];

/** `contextHint` ends the "no current-context" refusal: how to name one (`: name one with --mirror-context`). */
export function loadKubeconfigConnection(path: string, contextName?: string, contextHint = ''): ClusterConnection {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ClusterConfigError(`cannot read the kubeconfig ${path}: ${(error as Error).message}`);
  }
  let config: unknown;
  try {
    // YAML 1.2 is a superset of JSON: one parser reads both forms kubectl writes.
    config = parse(text);
  } catch (error) {
    throw new ClusterConfigError(`the kubeconfig ${path} is not YAML or JSON: ${(error as Error).message}`);
  }
  if (config !== null && config !== undefined && (typeof config !== 'object' || Array.isArray(config))) {
    throw new ClusterConfigError(`the kubeconfig ${path} is not a kubeconfig (a mapping with contexts, clusters and users)`);
  }
  return connectionFrom(config ?? {}, path, contextName, contextHint);
}

/** The connection a parsed kubeconfig names; `path` is where it was read from (relative paths start at its folder). */
export function connectionFrom(config: KubeconfigFile, path: string, contextName?: string, contextHint = ''): ClusterConnection {
  const base = dirname(resolve(path));
  const refuse = (message: string) => new ClusterConfigError(`the kubeconfig ${path}: ${message}`);
  const wanted = contextName || str(config['current-context']);
  if (!wanted) throw new ClusterConfigError(`the kubeconfig ${path} has no current-context${contextHint}`);
  const context = list(config.contexts).find((c) => c.name === wanted)?.context;
  if (!context) throw new ClusterConfigError(`the kubeconfig ${path} has no context ${JSON.stringify(wanted)}`);
  const clusterName = str(context.cluster) ?? '';
  const cluster = list(config.clusters).find((c) => c.name === clusterName)?.cluster;
  if (!cluster) throw refuse(`context ${JSON.stringify(wanted)} names cluster ${JSON.stringify(clusterName)}, which it does not define`);
  const server = str(cluster.server);
  if (!server) throw refuse(`cluster ${JSON.stringify(clusterName)} has no server`);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw refuse(`cluster ${JSON.stringify(clusterName)} has a server that is not a URL: ${server}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(`cluster ${JSON.stringify(clusterName)} has a server that is not http(s): ${server}`);
  // Refused rather than ignored: without them the cluster would be dialled another way than kubectl dials it.
  if (str(cluster['proxy-url'])) throw refuse(`cluster ${JSON.stringify(clusterName)} has a proxy-url, which svctrail does not support`);

  // A context without a user is anonymous, as kubectl allows.
  const userName = str(context.user);
  const userEntry = userName ? list(config.users).find((u) => u.name === userName) : undefined;
  if (userName && !userEntry) throw refuse(`context ${JSON.stringify(wanted)} names user ${JSON.stringify(userName)}, which it does not define`);
  const u = userEntry?.user ?? {};
  const who = `user ${JSON.stringify(userName ?? '')}`;

  const file = (value: unknown, what: string): string | undefined => {
    const name = str(value);
    if (!name) return undefined;
    const absolute = isAbsolute(name) ? name : resolve(base, name);
    try {
      accessSync(absolute, constants.R_OK);
    } catch (error) {
      throw refuse(`the ${what} file ${absolute} cannot be read: ${(error as Error).message}`);
    }
    return absolute;
  };
  // `*-data` wins over the file when both are given (clientcmd warns and does the same).
  const pem = (data: unknown, path: unknown, what: string): PemSource | undefined => {
    const inline = str(data);
    if (inline) return { data: Buffer.from(inline, 'base64').toString('utf8') };
    const named = file(path, what);
    return named ? { file: named } : undefined;
  };

  for (const unsupported of ['auth-provider', 'as', 'as-uid', 'as-groups', 'as-user-extra']) {
    if (u[unsupported] !== undefined && u[unsupported] !== null && u[unsupported] !== '') throw refuse(`${who} uses ${unsupported}, which svctrail does not support`);
  }
  const token = str(u.token);
  const tokenFile = file(u.tokenFile, 'tokenFile');
  const username = str(u.username);
  const password = str(u.password);
  if ((token || tokenFile) && (username || password)) throw refuse(`${who} has both a token and a username/password; only one is allowed`);
  const clientCertificate = pem(u['client-certificate-data'], u['client-certificate'], 'client-certificate');
  const clientKey = pem(u['client-key-data'], u['client-key'], 'client-key');
  if (Boolean(clientCertificate) !== Boolean(clientKey)) throw refuse(`${who} has a client certificate without its key, or a key without its certificate`);
  const user: ClusterUser = {
    ...(token ? { token } : {}),
    ...(tokenFile ? { tokenFile } : {}),
    ...(clientCertificate ? { clientCertificate } : {}),
    ...(clientKey ? { clientKey } : {}),
    ...(username || password ? { username: username ?? '', password: password ?? '' } : {}),
    ...(u.exec ? { exec: execPlugin(u.exec, base, refuse, who) } : {}),
  };

  const certificateAuthority = pem(cluster['certificate-authority-data'], cluster['certificate-authority'], 'certificate-authority');
  const insecureSkipTlsVerify = cluster['insecure-skip-tls-verify'] === true;
  // client-go refuses the combination: which of the two was meant cannot be told.
  if (insecureSkipTlsVerify && certificateAuthority) throw refuse(`cluster ${JSON.stringify(clusterName)} has both a certificate authority and insecure-skip-tls-verify`);
  const tlsServerName = str(cluster['tls-server-name']);
  const execExtension = list(cluster.extensions as Named<{ extension?: unknown }>[] | undefined).find((e) => e.name === 'client.authentication.k8s.io/exec')?.extension;
  return {
    kubeconfig: path,
    context: wanted,
    namespace: str(context.namespace) ?? '',
    server: server.replace(/\/+$/, ''),
    ...(certificateAuthority ? { certificateAuthority } : {}),
    insecureSkipTlsVerify,
    ...(tlsServerName ? { tlsServerName } : {}),
    ...(execExtension !== undefined ? { execClusterConfig: execExtension } : {}),
    user,
  };
}

function execPlugin(value: unknown, base: string, refuse: (message: string) => ClusterConfigError, who: string): ExecPlugin {
  if (typeof value !== 'object' || value === null) throw refuse(`${who} has an exec entry that is not a mapping`);
  const exec = value as Record<string, unknown>;
  const command = str(exec.command);
  if (!command) throw refuse(`${who} has an exec credential plugin without a command`);
  const apiVersion = EXEC_API_VERSIONS.find((v) => v === exec.apiVersion);
  if (!apiVersion) throw refuse(`${who}: exec plugin apiVersion ${JSON.stringify(exec.apiVersion ?? '')} is not ${EXEC_API_VERSIONS.join(' or ')}`);
  // v1 makes interactiveMode required; v1beta1 defaults it to IfAvailable (clientcmd validation, v1beta1 defaults).
  const mode = str(exec.interactiveMode) ?? (apiVersion.endsWith('/v1beta1') ? 'IfAvailable' : undefined);
  if (!mode) throw refuse(`${who}: interactiveMode must be specified to use a client.authentication.k8s.io/v1 exec plugin`);
  const interactiveMode = INTERACTIVE_MODES.find((m) => m === mode);
  if (!interactiveMode) throw refuse(`${who}: invalid exec interactiveMode ${JSON.stringify(mode)}`);
  // A server has no terminal to lend a plugin: kubectl without one refuses Always the same way.
  if (interactiveMode === 'Always') throw refuse(`${who}: the exec plugin wants interactiveMode Always, and svctrail has no terminal to give it`);
  const env = list(exec.env as { name?: unknown; value?: unknown }[] | undefined).map((e) => ({ name: str(e.name) ?? '', value: typeof e.value === 'string' ? e.value : String(e.value ?? '') }));
  if (env.some((e) => !e.name)) throw refuse(`${who}: an exec plugin env entry has no name`);
  const installHint = str(exec.installHint);
  return {
    // kubectl: a command with a path separator is relative to the kubeconfig's folder; a bare name is looked up on PATH.
    command: command.includes('/') && !isAbsolute(command) ? resolve(base, command) : command,
    args: Array.isArray(exec.args) ? exec.args.filter((a) => a !== null && a !== undefined).map(String) : [],
    env,
    apiVersion,
    interactiveMode,
    provideClusterInfo: exec.provideClusterInfo === true,
    ...(installHint ? { installHint } : {}),
  };
}

function list<T>(value: T[] | null | undefined): T[] {
  return Array.isArray(value) ? value.filter((v) => v !== null && typeof v === 'object') : [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
