// The source cluster as a kubeconfig names it (clientcmd v1 Config): the context's cluster
// (server, CA, TLS options) and user (token, token file, client certificate, basic auth or an
// exec credential plugin), with relative file paths resolved against the kubeconfig's folder as
// kubectl resolves them. Files are only named here: the credentials read them when needed, so a
// rotated certificate or token file is picked up.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { MirrorConfigError } from './mirror-config-error';

/** PEM text given inline (`*-data`, base64) or as a file to read. */
export type PemSource = { data: string } | { file: string };

export interface ExecPlugin {
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  apiVersion: string;
  provideClusterInfo: boolean;
}

export interface SourceUser {
  token?: string;
  tokenFile?: string;
  clientCertificate?: PemSource;
  clientKey?: PemSource;
  username?: string;
  password?: string;
  exec?: ExecPlugin;
}

export interface SourceConnection {
  /** The kubeconfig file and the context used, for messages. */
  kubeconfig: string;
  context: string;
  server: string;
  certificateAuthority?: PemSource;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  user: SourceUser;
}

type Named<T> = { name?: string } & T;
interface KubeconfigFile {
  'current-context'?: string;
  contexts?: Named<{ context?: { cluster?: string; user?: string } }>[];
  clusters?: Named<{ cluster?: Record<string, unknown> }>[];
  users?: Named<{ user?: Record<string, unknown> }>[];
}

export function loadSourceKubeconfig(path: string, contextName?: string): SourceConnection {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new MirrorConfigError(`cannot read the kubeconfig ${path}: ${(error as Error).message}`);
  }
  let config: KubeconfigFile;
  try {
    config = (parse(text) ?? {}) as KubeconfigFile;
  } catch (error) {
    throw new MirrorConfigError(`the kubeconfig ${path} is not YAML or JSON: ${(error as Error).message}`);
  }
  return connectionFrom(config, path, contextName);
}

export function connectionFrom(config: KubeconfigFile, path: string, contextName?: string): SourceConnection {
  const base = dirname(resolve(path));
  const wanted = contextName || config['current-context'];
  if (!wanted) throw new MirrorConfigError(`the kubeconfig ${path} has no current-context: name one with --mirror-context`);
  const context = (config.contexts ?? []).find((c) => c.name === wanted)?.context;
  if (!context) throw new MirrorConfigError(`the kubeconfig ${path} has no context ${JSON.stringify(wanted)}`);
  const cluster = (config.clusters ?? []).find((c) => c.name === context.cluster)?.cluster;
  if (!cluster) throw new MirrorConfigError(`the kubeconfig ${path}: context ${JSON.stringify(wanted)} names cluster ${JSON.stringify(context.cluster ?? '')}, which it does not define`);
  const server = str(cluster.server);
  if (!server) throw new MirrorConfigError(`the kubeconfig ${path}: cluster ${JSON.stringify(context.cluster)} has no server`);
  try {
    new URL(server);
  } catch {
    throw new MirrorConfigError(`the kubeconfig ${path}: cluster ${JSON.stringify(context.cluster)} has a server that is not a URL: ${server}`);
  }
  // A context without a user is anonymous, as kubectl allows.
  const userEntry = context.user ? (config.users ?? []).find((u) => u.name === context.user) : undefined;
  if (context.user && !userEntry) throw new MirrorConfigError(`the kubeconfig ${path}: context ${JSON.stringify(wanted)} names user ${JSON.stringify(context.user)}, which it does not define`);
  const u = userEntry?.user ?? {};
  const file = (value: unknown) => (str(value) ? (isAbsolute(str(value)!) ? str(value)! : resolve(base, str(value)!)) : undefined);
  const pem = (data: unknown, path: unknown): PemSource | undefined => (str(data) ? { data: Buffer.from(str(data)!, 'base64').toString('utf8') } : file(path) ? { file: file(path)! } : undefined);
  const user: SourceUser = {
    ...(str(u.token) ? { token: str(u.token) } : {}),
    ...(file(u.tokenFile) ? { tokenFile: file(u.tokenFile) } : {}),
    ...(pem(u['client-certificate-data'], u['client-certificate']) ? { clientCertificate: pem(u['client-certificate-data'], u['client-certificate']) } : {}),
    ...(pem(u['client-key-data'], u['client-key']) ? { clientKey: pem(u['client-key-data'], u['client-key']) } : {}),
    ...(str(u.username) ? { username: str(u.username), password: str(u.password) ?? '' } : {}),
    ...(u.exec ? { exec: execPlugin(u.exec as Record<string, unknown>, base, path) } : {}),
  };
  if (Boolean(user.clientCertificate) !== Boolean(user.clientKey)) {
    throw new MirrorConfigError(`the kubeconfig ${path}: user ${JSON.stringify(context.user)} has a client certificate without its key, or a key without its certificate`);
  }
  return {
    kubeconfig: path,
    context: wanted,
    server: server.replace(/\/+$/, ''),
    ...(pem(cluster['certificate-authority-data'], cluster['certificate-authority']) ? { certificateAuthority: pem(cluster['certificate-authority-data'], cluster['certificate-authority']) } : {}),
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
    ...(str(cluster['tls-server-name']) ? { tlsServerName: str(cluster['tls-server-name']) } : {}),
    user,
  };
}

function execPlugin(exec: Record<string, unknown>, base: string, path: string): ExecPlugin {
  const command = str(exec.command);
  if (!command) throw new MirrorConfigError(`the kubeconfig ${path}: an exec credential plugin without a command`);
  const apiVersion = str(exec.apiVersion) ?? '';
  if (!/^client\.authentication\.k8s\.io\/(v1|v1beta1)$/.test(apiVersion)) {
    throw new MirrorConfigError(`the kubeconfig ${path}: exec plugin apiVersion ${JSON.stringify(apiVersion)} is not client.authentication.k8s.io/v1 or v1beta1`);
  }
  return {
    // kubectl: a command with a path separator is relative to the kubeconfig's folder; a bare name is looked up on PATH.
    command: command.includes('/') && !isAbsolute(command) ? resolve(base, command) : command,
    args: Array.isArray(exec.args) ? exec.args.map(String) : [],
    env: Array.isArray(exec.env) ? (exec.env as { name?: unknown; value?: unknown }[]).map((e) => ({ name: String(e.name ?? ''), value: String(e.value ?? '') })) : [],
    apiVersion,
    provideClusterInfo: exec.provideClusterInfo === true,
  };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
