// The credentials to present to the source, as of now: an inline token or one read from its
// file, a client certificate inline or from files, or what an exec credential plugin prints
// (client.authentication.k8s.io ExecCredential, run as kubectl runs it: no shell, the
// kubeconfig's env added, KUBERNETES_EXEC_INFO set). What a plugin returns is kept until its
// expirationTimestamp; invalidate() (after a 401) makes the next call read files and run the
// plugin again, so a rotated token or an expired one is replaced without a restart.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { MirrorConfigError } from './mirror-config-error';
import type { PemSource, SourceConnection } from './source-kubeconfig';

export interface Credentials {
  token?: string;
  certPem?: string;
  keyPem?: string;
  basic?: { username: string; password: string };
  caPem?: string;
}

interface ExecCredentialStatus {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  expirationTimestamp?: string;
}

const PLUGIN_TIMEOUT_MS = 30_000;

export class SourceCredentials {
  private cached?: { credentials: Credentials; expiresAt: number };
  private generation = 0;

  constructor(
    private readonly connection: SourceConnection,
    private readonly now: () => number = Date.now,
  ) {}

  /** Increases with every change of credentials: a client rebuilds its TLS agent when it moves. */
  get version(): number {
    return this.generation;
  }

  async current(): Promise<Credentials> {
    if (this.cached && this.now() < this.cached.expiresAt) return this.cached.credentials;
    const { credentials, expiresAt } = await this.read();
    this.cached = { credentials, expiresAt };
    this.generation++;
    return credentials;
  }

  /** The source refused them (401): read files and run the plugin again next time. */
  invalidate(): void {
    this.cached = undefined;
  }

  private async read(): Promise<{ credentials: Credentials; expiresAt: number }> {
    const { user } = this.connection;
    const credentials: Credentials = {};
    let expiresAt = Number.POSITIVE_INFINITY;
    if (this.connection.certificateAuthority) credentials.caPem = await pemText(this.connection.certificateAuthority, 'certificate-authority');
    if (user.token) credentials.token = user.token;
    else if (user.tokenFile) credentials.token = (await readText(user.tokenFile, 'tokenFile')).trim();
    if (user.clientCertificate && user.clientKey) {
      credentials.certPem = await pemText(user.clientCertificate, 'client-certificate');
      credentials.keyPem = await pemText(user.clientKey, 'client-key');
    }
    if (user.username !== undefined) credentials.basic = { username: user.username, password: user.password ?? '' };
    if (user.exec) {
      const status = await this.runPlugin();
      if (status.token) credentials.token = status.token;
      if (status.clientCertificateData && status.clientKeyData) {
        credentials.certPem = status.clientCertificateData;
        credentials.keyPem = status.clientKeyData;
      }
      if (status.expirationTimestamp) {
        const at = Date.parse(status.expirationTimestamp);
        if (Number.isNaN(at)) throw new MirrorConfigError(`the exec plugin ${user.exec.command} printed an expirationTimestamp that is not a time: ${status.expirationTimestamp}`);
        expiresAt = at;
      }
    }
    return { credentials, expiresAt };
  }

  private runPlugin(): Promise<ExecCredentialStatus> {
    const exec = this.connection.user.exec!;
    const info: Record<string, unknown> = { apiVersion: exec.apiVersion, kind: 'ExecCredential', spec: { interactive: false } };
    if (exec.provideClusterInfo) {
      (info.spec as Record<string, unknown>).cluster = { server: this.connection.server, ...(this.connection.certificateAuthority && 'data' in this.connection.certificateAuthority ? { 'certificate-authority-data': Buffer.from(this.connection.certificateAuthority.data).toString('base64') } : {}) };
    }
    const env = { ...process.env, ...Object.fromEntries(exec.env.map((e) => [e.name, e.value])), KUBERNETES_EXEC_INFO: JSON.stringify(info) };
    return new Promise((resolve, reject) => {
      execFile(exec.command, exec.args, { env, timeout: PLUGIN_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error) {
          const code = (error as { code?: unknown }).code;
          const firstLine = String(stderr).split('\n').find((l) => l.trim()) ?? '';
          return reject(new MirrorConfigError(`the exec credential plugin ${exec.command} failed (${error.killed ? 'timed out' : `exit ${String(code)}`})${firstLine ? `: ${firstLine}` : ''}`));
        }
        try {
          const parsed = JSON.parse(stdout) as { kind?: string; status?: ExecCredentialStatus };
          if (parsed.kind !== 'ExecCredential' || !parsed.status) throw new Error('not an ExecCredential with a status');
          if (!parsed.status.token && !(parsed.status.clientCertificateData && parsed.status.clientKeyData)) throw new Error('its status has neither a token nor a client certificate and key');
          resolve(parsed.status);
        } catch (e) {
          reject(new MirrorConfigError(`the exec credential plugin ${exec.command} printed no usable ExecCredential: ${(e as Error).message}`));
        }
      });
    });
  }
}

async function pemText(source: PemSource, what: string): Promise<string> {
  return 'data' in source ? source.data : readText(source.file, what);
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new MirrorConfigError(`cannot read the ${what} file ${path}: ${(error as Error).message}`);
  }
}
