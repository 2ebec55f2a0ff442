import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { appendTokenRecord, parseTokenFile } from '../../src/auth/token-file';
import { writeFileAtomically } from '../../src/tls/atomic-file-writer';
import { ensureDataDir, writeAdminKubeconfig } from '../../src/tls/data-dir';

const NOW = new Date('2025-03-01T12:00:00Z');
const now = () => NOW;
const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('ensureDataDir', () => {
  let root: string;
  let dataDir: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'svctrail-data-'));
    dataDir = join(root, 'nested', 'data');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates the layout on first run with private modes', async () => {
    const data = await ensureDataDir({ dataDir, now });
    expect(data.created).toEqual(['ca.key', 'ca.crt', 'serving.key', 'serving.crt', 'tokens.csv', 'policy.jsonl']);
    expect((await readdir(dataDir)).sort()).toEqual(['ca.crt', 'ca.key', 'policy.jsonl', 'serving.crt', 'serving.key', 'tokens.csv']);
    expect(await mode(dataDir)).toBe(0o700);
    for (const secret of ['ca.key', 'serving.key', 'tokens.csv']) expect(await mode(join(dataDir, secret))).toBe(0o600);
    expect(await mode(join(dataDir, 'ca.crt'))).toBe(0o644);

    const serving = new X509Certificate(await readFile(join(dataDir, 'serving.crt'), 'utf8'));
    expect(serving.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(serving.checkIssued(new X509Certificate(data.caCertPem))).toBe(true);
    expect(new Date(serving.validFrom)).toEqual(new Date('2025-03-01T11:55:00Z'));

    const tokensCsv = await readFile(join(dataDir, 'tokens.csv'), 'utf8');
    expect(tokensCsv).toMatch(/^[A-Za-z0-9_-]{43},admin,admin,"system:masters"\n$/);
    expect(data.tokens).toEqual(parseTokenFile(tokensCsv, 'tokens.csv').records);
    expect(data.servingKeyPem).toBe(await readFile(join(dataDir, 'serving.key'), 'utf8'));
    expect(data.warnings).toEqual([]);
  });

  it('tightens looser modes of an existing directory, with a warning per change; certificates stay public', async () => {
    await ensureDataDir({ dataDir, now });
    await chmod(dataDir, 0o755);
    await chmod(join(dataDir, 'ca.key'), 0o644);
    await writeFile(join(dataDir, 'svctrail.db'), '', { mode: 0o666 });
    await chmod(join(dataDir, 'svctrail.db'), 0o666);
    const again = await ensureDataDir({ dataDir, now });
    expect(again.warnings.sort()).toEqual(
      [
        `${dataDir} was mode 0755; changed to 0700 (the data directory is private)`,
        `${join(dataDir, 'ca.key')} was mode 0644; changed to 0600 (it holds secrets)`,
        `${join(dataDir, 'svctrail.db')} was mode 0666; changed to 0600 (it holds secrets)`,
      ].sort(),
    );
    expect(await mode(dataDir)).toBe(0o700);
    expect(await mode(join(dataDir, 'ca.key'))).toBe(0o600);
    expect(await mode(join(dataDir, 'svctrail.db'))).toBe(0o600);
    expect(await mode(join(dataDir, 'ca.crt'))).toBe(0o644);
    expect((await ensureDataDir({ dataDir, now })).warnings).toEqual([]);
  });

  it('reuses everything on later runs and regenerates nothing', async () => {
    const first = await ensureDataDir({ dataDir, now });
    const files = ['ca.crt', 'ca.key', 'serving.crt', 'serving.key', 'tokens.csv'];
    const before = await Promise.all(files.map((file) => readFile(join(dataDir, file), 'utf8')));
    const second = await ensureDataDir({ dataDir, now: () => new Date('2025-06-01T00:00:00Z') });
    const after = await Promise.all(files.map((file) => readFile(join(dataDir, file), 'utf8')));
    expect(second.created).toEqual([]);
    expect(after).toEqual(before);
    expect(second.caCertPem).toBe(first.caCertPem);
    expect(second.tokens).toEqual(first.tokens);
  });

  it('adds the server URL host to the SANs on first run, and warns later when a URL is not covered', async () => {
    const data = await ensureDataDir({ dataDir, now, serverUrl: 'https://svctrail.internal:6443', ipAddresses: ['10.0.0.7'] });
    expect(new X509Certificate(data.servingCertPem).subjectAltName).toBe('DNS:localhost, DNS:svctrail.internal, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:10.0.0.7');
    const later = await ensureDataDir({ dataDir, now, serverUrl: 'https://192.168.1.9:6443' });
    expect(later.warnings).toEqual([expect.stringContaining('has no subjectAltName for https://192.168.1.9:6443')]);
  });

  it('warns when the serving certificate has expired', async () => {
    await ensureDataDir({ dataDir, now });
    const later = await ensureDataDir({ dataDir, now: () => new Date('2026-06-01T00:00:00Z') });
    expect(later.warnings).toEqual([expect.stringContaining('serving.crt expired')]);
  });

  it('issues a new serving certificate from the existing CA when only the serving pair is gone', async () => {
    const first = await ensureDataDir({ dataDir, now });
    await unlink(join(dataDir, 'serving.crt'));
    await unlink(join(dataDir, 'serving.key'));
    const second = await ensureDataDir({ dataDir, now });
    expect(second.created).toEqual(['serving.key', 'serving.crt']);
    expect(second.caCertPem).toBe(first.caCertPem);
    expect(second.servingCertPem).not.toBe(first.servingCertPem);
    expect(new X509Certificate(second.servingCertPem).checkIssued(new X509Certificate(first.caCertPem))).toBe(true);
  });

  it.each([
    ['ca.key without ca.crt', ['ca.crt'], /ca\.key exists but .*ca\.crt does not/],
    ['serving.crt without serving.key', ['serving.key'], /serving\.crt exists but .*serving\.key does not/],
    ['a serving pair without any CA', ['ca.crt', 'ca.key'], /serving\.crt exists but .*ca\.crt and .*ca\.key do not/],
  ])('refuses %s rather than minting new credentials', async (_name, remove, message) => {
    await ensureDataDir({ dataDir, now });
    for (const file of remove) await unlink(join(dataDir, file));
    await expect(ensureDataDir({ dataDir, now })).rejects.toThrow(message);
  });

  it('refuses a serving certificate from another CA', async () => {
    const other = join(root, 'other');
    await ensureDataDir({ dataDir, now });
    await ensureDataDir({ dataDir: other, now });
    await writeFile(join(dataDir, 'serving.crt'), await readFile(join(other, 'serving.crt')));
    await expect(ensureDataDir({ dataDir, now })).rejects.toThrow('was not issued by');
  });

  it("refuses a CA key that is not the CA certificate's, whether or not a serving certificate is to be issued", async () => {
    const other = join(root, 'other');
    await ensureDataDir({ dataDir, now });
    await ensureDataDir({ dataDir: other, now });
    await writeFile(join(dataDir, 'ca.key'), await readFile(join(other, 'ca.key')));
    await expect(ensureDataDir({ dataDir, now })).rejects.toThrow('the CA key does not match the CA certificate "CN=svctrail-ca"');
    await unlink(join(dataDir, 'serving.crt'));
    await unlink(join(dataDir, 'serving.key'));
    await expect(ensureDataDir({ dataDir, now })).rejects.toThrow('the CA key does not match');
  });

  it('refuses a ca.crt that may not sign certificates', async () => {
    await ensureDataDir({ dataDir, now });
    await writeFile(join(dataDir, 'ca.crt'), await readFile(join(dataDir, 'serving.crt')));
    await writeFile(join(dataDir, 'ca.key'), await readFile(join(dataDir, 'serving.key')));
    await expect(ensureDataDir({ dataDir, now })).rejects.toThrow('certificate "CN=svctrail" is not a CA (basicConstraints CA:FALSE or missing)');
  });

  it('fails on a malformed tokens.csv, with kube-apiserver wording', async () => {
    await ensureDataDir({ dataDir, now });
    await writeFile(join(dataDir, 'tokens.csv'), 'only,two\n');
    await expect(ensureDataDir({ dataDir, now })).rejects.toThrow('must have at least 3 columns');
  });
});

describe('writeAdminKubeconfig', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svctrail-kc-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes data/kubeconfig (0600) with the admin token and the CA', async () => {
    const data = await ensureDataDir({ dataDir, now });
    const path = await writeAdminKubeconfig(dataDir, 'https://127.0.0.1:43210');
    expect(path).toBe(join(dataDir, 'kubeconfig'));
    expect(await mode(path)).toBe(0o600);
    const config = parse(await readFile(path, 'utf8'));
    expect(config['current-context']).toBe('admin@svctrail');
    expect(config.clusters[0].cluster).toEqual({
      server: 'https://127.0.0.1:43210',
      'certificate-authority-data': Buffer.from(data.caCertPem).toString('base64'),
    });
    expect(config.users[0]).toEqual({ name: 'admin', user: { token: data.tokens[0].token } });
  });

  it('rewrites the file for a new URL', async () => {
    await ensureDataDir({ dataDir, now });
    await writeAdminKubeconfig(dataDir, 'https://127.0.0.1:1');
    await writeAdminKubeconfig(dataDir, 'https://127.0.0.1:2');
    expect(parse(await readFile(join(dataDir, 'kubeconfig'), 'utf8')).clusters[0].cluster.server).toBe('https://127.0.0.1:2');
  });
});

describe('appendTokenRecord', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svctrail-tokens-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the file with mode 0600', async () => {
    const path = join(dir, 'tokens.csv');
    await appendTokenRecord(path, { token: 't', user: 'u', uid: 'i', groups: [] });
    expect(await readFile(path, 'utf8')).toBe('t,u,i\n');
    expect(await mode(path)).toBe(0o600);
  });

  it('starts a new line when the file lacks a final newline', async () => {
    const path = join(dir, 'tokens.csv');
    await writeFile(path, 'a,b,c');
    await appendTokenRecord(path, { token: 't', user: 'u', uid: 'i', groups: ['g'] });
    expect(await readFile(path, 'utf8')).toBe('a,b,c\nt,u,i,"g"\n');
  });
});

describe('writeFileAtomically', () => {
  it('fsyncs the file before the rename and the directory after it, so the new name survives power loss', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svctrail-atomic-'));
    const target = join(dir, 'kubeconfig');
    const steps: string[] = [];
    // The module object itself (a namespace import is frozen): the writer reads open() from it per call.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fsPromises = require('node:fs/promises') as typeof import('node:fs/promises');
    const realOpen = fsPromises.open;
    const open = jest.spyOn(fsPromises, 'open').mockImplementation(async (...args: Parameters<typeof fsPromises.open>) => {
      const handle = await realOpen(...args);
      const path = String(args[0]);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        steps.push(`fsync ${path === dir ? 'directory' : 'file'} (target ${existsSync(target) ? 'present' : 'absent'})`);
        return sync();
      };
      return handle;
    });
    try {
      await writeFileAtomically(target, 'secret', 0o600);
    } finally {
      open.mockRestore();
    }
    expect(steps).toEqual(['fsync file (target absent)', 'fsync directory (target present)']);
    expect(await readFile(target, 'utf8')).toBe('secret');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    await rm(dir, { recursive: true, force: true });
  });
});
