// The credentials to present to a cluster, as of now: an inline token or one read from its
// file, a client certificate inline or from files, basic auth, or what an exec credential plugin
// prints (client.authentication.k8s.io ExecCredential, run as client-go runs it: no shell, no
// stdin, the kubeconfig's env added, KUBERNETES_EXEC_INFO set). What a plugin returns is kept
// until its expirationTimestamp; invalidate() (after a 401) makes the next call read the files and
// run the plugin again, so a rotated token or an expired one is replaced without a restart.
// A token file (a kubeconfig's tokenFile, the Pod's service account token) is read again about
// every minute, as client-go's cachingTokenSource does (transport/token_source.go: a 1 min cache
// with 10 s leeway): the kubelet rotates bound tokens in place. A failed or empty read keeps the
// last token.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { ExecPluginError } from './exec-plugin-error';
import { ClusterConfigError } from './cluster-config-error';
import type { ExecPlugin, PemSource, ClusterConnection } from './kubeconfig-connection';

/** One reading of the credentials: a new object each time they are read again. */
export interface Credentials {
  token?: string;
  certPem?: string;
  keyPem?: string;
  basic?: { username: string; password: string };
  caPem?: string;
}

export interface ClusterCredentialsOptions {
  /** Milliseconds since the epoch; compared with a plugin's expirationTimestamp. */
  now?: () => number;
  /** How long a token read from its file is used before the file is read again (tests shorten it). */
  tokenFileMaxAgeMs?: number;
  /** A plugin still running after this long is killed (client-go has none; a hung login must not hang the mirror). */
  pluginTimeoutMs?: number;
}

/** What an ExecCredential's status may carry (client.authentication.k8s.io ExecCredentialStatus). */
export interface ExecCredentialStatus {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  expirationTimestamp?: string;
}

const DEFAULT_PLUGIN_TIMEOUT_MS = 30_000;
/** client-go: re-read after one minute less its 10 s leeway. */
export const TOKEN_FILE_MAX_AGE_MS = 50_000;
const MAX_PLUGIN_OUTPUT = 4 * 1024 * 1024;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export class ClusterCredentials {
  private cached?: { credentials: Credentials; expiresAt: number };
  private reading?: { epoch: number; promise: Promise<Credentials> };
  /** Moves on every invalidate(): a read begun before it must not be cached after it. */
  private epoch = 0;
  private readonly now: () => number;
  private readonly pluginTimeoutMs: number;
  private readonly tokenFileMaxAgeMs: number;
  /** The last token the token file gave: kept while the file cannot be read or is empty. */
  private fileToken?: string;

  constructor(
    private readonly connection: ClusterConnection,
    options: ClusterCredentialsOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.pluginTimeoutMs = options.pluginTimeoutMs ?? DEFAULT_PLUGIN_TIMEOUT_MS;
    this.tokenFileMaxAgeMs = options.tokenFileMaxAgeMs ?? TOKEN_FILE_MAX_AGE_MS;
  }

  /** The credentials to use now; concurrent callers share one read (one plugin run). */
  current(): Promise<Credentials> {
    // client-go: a plugin's credentials are used until the clock is past their expiry.
    if (this.cached && this.now() <= this.cached.expiresAt) return Promise.resolve(this.cached.credentials);
    if (this.reading?.epoch !== this.epoch) {
      const epoch = this.epoch;
      const promise = this.read().then(({ credentials, expiresAt }) => {
        if (epoch === this.epoch) this.cached = { credentials, expiresAt };
        return credentials;
      });
      const done = () => {
        if (this.reading?.promise === promise) this.reading = undefined;
      };
      promise.then(done, done);
      this.reading = { epoch, promise };
    }
    return this.reading.promise;
  }

  /** The source refused them (401): read the files and run the plugin again next time. */
  invalidate(): void {
    this.cached = undefined;
    this.epoch++;
  }

  private async read(): Promise<{ credentials: Credentials; expiresAt: number }> {
    const { user } = this.connection;
    const credentials: Credentials = {};
    if (this.connection.certificateAuthority) credentials.caPem = await pemText(this.connection.certificateAuthority, 'certificate-authority');
    if (user.tokenFile) credentials.token = await this.readTokenFile(user.tokenFile, user.token);
    else if (user.token) credentials.token = user.token;
    if (user.clientCertificate && user.clientKey) {
      credentials.certPem = await pemText(user.clientCertificate, 'client-certificate');
      credentials.keyPem = await pemText(user.clientKey, 'client-key');
    }
    if (user.username !== undefined) credentials.basic = { username: user.username, password: user.password ?? '' };
    // client-go runs no plugin when the kubeconfig itself gives a token, basic auth or a certificate.
    if (!user.exec || credentials.token || credentials.basic || credentials.certPem) {
      return { credentials, expiresAt: user.tokenFile ? this.now() + this.tokenFileMaxAgeMs : Number.POSITIVE_INFINITY };
    }
    const status = await runExecPlugin(user.exec, await this.clusterInfo(user.exec, credentials.caPem), this.pluginTimeoutMs);
    if (status.token) credentials.token = status.token;
    if (status.clientCertificateData && status.clientKeyData) {
      credentials.certPem = status.clientCertificateData;
      credentials.keyPem = status.clientKeyData;
    }
    let expiresAt = Number.POSITIVE_INFINITY;
    if (status.expirationTimestamp) {
      expiresAt = RFC3339.test(status.expirationTimestamp) ? Date.parse(status.expirationTimestamp) : Number.NaN;
      if (Number.isNaN(expiresAt))
        throw new ExecPluginError(user.exec.command, `the exec credential plugin ${user.exec.command} printed an expirationTimestamp that is not an RFC 3339 time: ${status.expirationTimestamp}`);
    }
    return { credentials, expiresAt };
  }

  /**
   * client-go's order (NewBearerAuthWithRefreshRoundTripper over cachingTokenSource): the file's
   * token, trimmed; when the file cannot be read or is empty, the last token it gave, else the
   * inline token; with neither, the read fails.
   */
  private async readTokenFile(path: string, inline: string | undefined): Promise<string> {
    let failure: string;
    try {
      const token = (await readFile(path, 'utf8')).trim();
      if (token !== '') {
        this.fileToken = token;
        return token;
      }
      failure = 'it is empty';
    } catch (error) {
      failure = (error as Error).message;
    }
    const kept = this.fileToken ?? inline;
    if (kept === undefined) throw new ClusterConfigError(`cannot read the tokenFile ${path}: ${failure}`);
    return kept;
  }

  /** spec.cluster of KUBERNETES_EXEC_INFO (client.authentication.k8s.io Cluster), only when the kubeconfig asks for it. */
  private async clusterInfo(exec: ExecPlugin, caPem: string | undefined): Promise<Record<string, unknown> | undefined> {
    if (!exec.provideClusterInfo) return undefined;
    const c = this.connection;
    return {
      server: c.server,
      ...(c.tlsServerName ? { 'tls-server-name': c.tlsServerName } : {}),
      ...(c.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
      ...(caPem ? { 'certificate-authority-data': Buffer.from(caPem).toString('base64') } : {}),
      ...(c.execClusterConfig !== undefined ? { config: c.execClusterConfig } : {}),
    };
  }
}

/** Runs the plugin once and answers the status of the ExecCredential it printed. */
export function runExecPlugin(exec: ExecPlugin, cluster: Record<string, unknown> | undefined, timeoutMs: number): Promise<ExecCredentialStatus> {
  const info = { apiVersion: exec.apiVersion, kind: 'ExecCredential', spec: { interactive: false, ...(cluster ? { cluster } : {}) } };
  const env = { ...process.env, ...Object.fromEntries(exec.env.map((e) => [e.name, e.value])), KUBERNETES_EXEC_INFO: JSON.stringify(info) };
  const fail = (message: string, exitCode?: number) => new ExecPluginError(exec.command, `the exec credential plugin ${exec.command} ${message}`, exitCode);
  return new Promise((resolve, reject) => {
    // No shell, no stdin: a non-interactive plugin (client-go leaves cmd.Stdin nil).
    const child = spawn(exec.command, exec.args, { env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let size = 0;
    let failure: ExecPluginError | undefined;
    const stop = (error: ExecPluginError) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PLUGIN_OUTPUT) stop(fail(`printed more than ${MAX_PLUGIN_OUTPUT} bytes`));
      else into.push(chunk);
    };
    child.stdout.on('data', collect(stdout));
    child.stderr.on('data', collect(stderr));
    const timer = setTimeout(() => stop(fail(`did not finish within ${timeoutMs} ms`)), timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const hint = exec.installHint ? `\n${exec.installHint}` : '';
      reject(failure ?? fail(`cannot be run: ${error.code === 'ENOENT' ? 'no such file, or not found on PATH' : error.message}${hint}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      if (code !== 0) {
        const firstLine = Buffer.concat(stderr)
          .toString('utf8')
          .split('\n')
          .find((l) => l.trim())
          ?.trim();
        return reject(fail(`failed (${code === null ? `killed by ${signal}` : `exit ${code}`})${firstLine ? `: ${firstLine}` : ''}`, code ?? undefined));
      }
      try {
        resolve(parseExecCredential(Buffer.concat(stdout).toString('utf8'), exec.apiVersion));
      } catch (error) {
        reject(fail(`printed no usable ExecCredential: ${(error as Error).message}`, 0));
      }
    });
  });
}

/** The status of an ExecCredential as client-go accepts it (plugin/pkg/client/auth/exec refreshCredsLocked). */
export function parseExecCredential(stdout: string, apiVersion: string): ExecCredentialStatus {
  let parsed: { apiVersion?: unknown; kind?: unknown; status?: unknown };
  try {
    parsed = JSON.parse(stdout) as typeof parsed;
  } catch {
    throw new Error(`its output is not JSON: ${JSON.stringify(stdout.slice(0, 80))}`);
  }
  if (parsed === null || typeof parsed !== 'object' || parsed.kind !== 'ExecCredential') throw new Error('its output is not an ExecCredential');
  if (parsed.apiVersion !== apiVersion) throw new Error(`the kubeconfig asks for ${apiVersion} and the plugin answered ${JSON.stringify(parsed.apiVersion ?? '')}`);
  const status = parsed.status as Record<string, unknown> | undefined;
  if (!status || typeof status !== 'object') throw new Error('it has no status');
  const field = (name: string) => (typeof status[name] === 'string' && status[name] !== '' ? status[name] : undefined);
  const result: ExecCredentialStatus = {
    ...(field('token') ? { token: field('token') } : {}),
    ...(field('clientCertificateData') ? { clientCertificateData: field('clientCertificateData') } : {}),
    ...(field('clientKeyData') ? { clientKeyData: field('clientKeyData') } : {}),
    ...(field('expirationTimestamp') ? { expirationTimestamp: field('expirationTimestamp') } : {}),
  };
  if (!result.token && !result.clientCertificateData && !result.clientKeyData) throw new Error('its status has neither a token nor a client certificate and key');
  if (Boolean(result.clientCertificateData) !== Boolean(result.clientKeyData)) throw new Error('its status has only a client certificate or only a key, not both');
  return result;
}

async function pemText(source: PemSource, what: string): Promise<string> {
  if ('data' in source) return source.data;
  try {
    return await readFile(source.file, 'utf8');
  } catch (error) {
    throw new ClusterConfigError(`cannot read the ${what} file ${source.file}: ${(error as Error).message}`);
  }
}
