// The server as an operator runs it: `node dist/main.js` with flags and environment twins,
// clean shutdown on SIGTERM, refusal to serve a damaged database, and the svctrail CLI.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { HttpsClient } from '../helpers/https-client';
import { foldLogAndCompare } from '../helpers/log-fold';
import { buildDist, built, removeBuild, ROOT, type ServerProcess, startServerProcess } from '../helpers/server-process';

const run = promisify(execFile);
const modeOf = (path: string) => statSync(path).mode & 0o777;
const adminClient = (dataDir: string, url: string) =>
  new HttpsClient(url, { ca: readFileSync(join(dataDir, 'ca.crt'), 'utf8'), token: readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0] });

describe('server process', () => {
  let dataDir: string;
  beforeAll(() => buildDist(), 120000);
  afterAll(() => removeBuild());
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svctrail-proc-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the data directory and a kubeconfig for the bound port, and says how to use it', async () => {
    const server = await startServerProcess(['--data-dir', dataDir]);
    try {
      for (const file of ['svctrail.db', 'ca.crt', 'ca.key', 'serving.crt', 'serving.key', 'tokens.csv', 'kubeconfig']) {
        expect(existsSync(join(dataDir, file))).toBe(true);
      }
      expect(server.stdout()).toContain(`KUBECONFIG=${join(dataDir, 'kubeconfig')} kubectl get svc`);
      const kubeconfig = parseYaml(readFileSync(join(dataDir, 'kubeconfig'), 'utf8'));
      expect(kubeconfig.clusters[0].cluster.server).toBe(server.url);
      expect(readFileSync(join(dataDir, 'tokens.csv'), 'utf8')).toMatch(/^[A-Za-z0-9_-]+,admin,admin,"system:masters"\n$/);
      // At info, no module-initialised or route-mapped lines: the start-up log is the line above.
      expect(server.stdout()).not.toMatch(/Mapped \{|dependencies initialized|Nest application/);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('loads neither the PostgreSQL driver nor the certificate library when it serves SQLite with its certificates', async () => {
    // The preload writes the list on SIGUSR2; the server then stops as usual.
    const loadedModules = async (server: ServerProcess, list: string) => {
      rmSync(list, { force: true });
      server.child.kill('SIGUSR2');
      while (!existsSync(list)) await new Promise((resolve) => setTimeout(resolve, 20));
      server.child.kill('SIGTERM');
      await server.exited;
      return readFileSync(list, 'utf8').trim().split('\n');
    };
    const list = join(dataDir, 'loaded-modules.txt');
    const options = { nodeArgs: ['-r', join(ROOT, 'test/fixtures/loaded-modules-preload.js')], env: { SVCTRAIL_TEST_LOADED_MODULES: list } };
    // The first start issues the CA and the serving certificate: the library is loaded then.
    const first = await loadedModules(await startServerProcess(['--data-dir', dataDir], options), list);
    expect(first.some((path) => path.includes('/node_modules/@peculiar/x509/'))).toBe(true);
    // Later starts only check them, with Node's own X.509 parser; a request changes nothing.
    const server = await startServerProcess(['--data-dir', dataDir], options);
    expect((await adminClient(dataDir, server.url).get('/api/v1/namespaces/default/services')).status).toBe(200);
    const later = await loadedModules(server, list);
    expect(later.some((path) => path.includes('/node_modules/better-sqlite3/'))).toBe(true);
    const unneeded = ['/node_modules/pg/', '/node_modules/drizzle-orm/node-postgres/', '/store/postgres/', '/node_modules/@peculiar/x509/', '/node_modules/libphonenumber-js/'];
    expect(later.filter((path) => unneeded.some((part) => path.includes(part)))).toEqual([]);
  });

  it('logs JSON lines on stdout: each committed write at info, each request at debug, both with the Audit-Id as requestId', async () => {
    const server = await startServerProcess(['--data-dir', dataDir, '--log-level', 'debug']);
    try {
      const admin = adminClient(dataDir, server.url);
      const service = { metadata: { name: 'logged' }, spec: { ports: [{ port: 80 }] } };
      const created = await admin.post('/api/v1/namespaces/default/services', service);
      expect(created.status).toBe(201);
      const anonymous = await admin.withToken(undefined).get('/api/v1/services');
      expect(anonymous.status).toBe(401);
      const auditId = created.headers['audit-id'];
      const lines = () =>
        server
          .stdout()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      // The request line is written when the response has gone out: wait for it.
      for (let i = 0; i < 50 && !lines().some((l) => l.statusCode === 401); i++) await new Promise((r) => setTimeout(r, 100));
      const logged = lines();
      expect(logged.find((l) => l.msg === 'write committed' && l.requestId === auditId)).toEqual({
        level: 30,
        time: expect.any(Number),
        pid: server.child.pid,
        hostname: expect.any(String),
        context: 'ServiceWriteRunner',
        requestId: auditId,
        user: 'admin',
        verb: 'create',
        namespace: 'default',
        name: 'logged',
        uid: created.json.metadata.uid,
        resourceVersion: Number(created.json.metadata.resourceVersion),
        events: ['ServiceCreated'],
        msg: 'write committed',
      });
      expect(logged.find((l) => l.msg === 'request completed' && l.requestId === auditId)).toEqual({
        level: 20,
        time: expect.any(Number),
        pid: server.child.pid,
        hostname: expect.any(String),
        context: 'http',
        requestId: auditId,
        user: 'admin',
        method: 'POST',
        url: '/api/v1/namespaces/default/services',
        statusCode: 201,
        ms: expect.any(Number),
        msg: 'request completed',
      });
      // A request refused before routing is logged too, with no user.
      const refused = logged.find((l) => l.statusCode === 401);
      expect(refused).toMatchObject({ context: 'http', requestId: anonymous.headers['audit-id'], url: '/api/v1/services' });
      expect(refused).not.toHaveProperty('user');
      // Nest's own start-up messages come through the same logger, at debug.
      expect(logged).toContainEqual(expect.objectContaining({ level: 20, context: 'NestApplication', msg: 'Nest application successfully started' }));
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('owns its data directory: a second server refuses; after kill -9 the next starts at once; files are private', async () => {
    const first = await startServerProcess(['--data-dir', dataDir]);
    const second = await run(process.execPath, [built('main.js'), '--port', '0', '--data-dir', dataDir]).catch((e) => e);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `svctrail: data directory ${dataDir} is in use by another svctrail process (a server, replay or import holds ${join(dataDir, 'svctrail.lock')}); stop it first or use another --data-dir\n`,
    );
    // The query commands do not take it.
    const get = await run(process.execPath, [built('cli.js'), 'get', 'default/kubernetes', '--data-dir', dataDir, '-o', 'json']);
    expect(JSON.parse(get.stdout).metadata.name).toBe('kubernetes');

    expect(modeOf(dataDir)).toBe(0o700);
    for (const file of ['svctrail.db', 'svctrail.db-wal', 'svctrail.db-shm', 'svctrail.lock', 'ca.key', 'serving.key', 'tokens.csv', 'policy.jsonl', 'kubeconfig']) {
      expect({ file, mode: modeOf(join(dataDir, file)) }).toEqual({ file, mode: 0o600 });
    }
    first.child.kill('SIGKILL');
    await first.exited;

    // A directory loosened by hand (or made by an older version) is tightened, with a warning.
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'tokens.csv'), 0o644);
    chmodSync(join(dataDir, 'svctrail.db'), 0o644);
    const next = await startServerProcess(['--data-dir', dataDir]);
    try {
      expect((await adminClient(dataDir, next.url).get('/api/v1/namespaces/default/services/kubernetes')).status).toBe(200);
      expect(next.stderr()).toContain(`warning: ${dataDir} was mode 0755; changed to 0700 (the data directory is private)`);
      expect(next.stderr()).toContain(`warning: ${join(dataDir, 'tokens.csv')} was mode 0644; changed to 0600 (it holds secrets)`);
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(join(dataDir, 'svctrail.db'))).toBe(0o600);
    } finally {
      next.child.kill('SIGTERM');
      await next.exited;
    }
  });

  it('finishes in-flight requests and closes the database on SIGTERM', async () => {
    const server = await startServerProcess(['--data-dir', dataDir]);
    const client = adminClient(dataDir, server.url);
    const writes = Array.from({ length: 40 }, (_, i) =>
      client.post('/api/v1/namespaces/term/services', { metadata: { name: `s${i}` }, spec: { ports: [{ port: 80 }] } }).then(
        (res) => ({ res }),
        (error: unknown) => ({ error }),
      ),
    );
    // Signalled once the first write is answered: the server is surely serving the others then.
    await writes[0];
    server.child.kill('SIGTERM');
    const results = await Promise.all(writes);
    const exit = await server.exited;
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    // Requests the closing server no longer took fail before any response (refused or reset).
    for (const r of results) if ('error' in r) expect(String(r.error)).toMatch(/ECONNREFUSED|ECONNRESET|socket hang up/);
    const answered = results.flatMap((r) => ('res' in r ? [r.res] : []));
    expect(answered.length).toBeGreaterThan(0);
    for (const res of answered) expect(res.status).toBe(201);
    // Closing the last connection checkpoints the WAL into the database and removes it.
    expect(existsSync(join(dataDir, 'svctrail.db-wal'))).toBe(false);
    const report = foldLogAndCompare(join(dataDir, 'svctrail.db'));
    expect(report.differences).toEqual([]);
    for (const res of answered) expect(report.revisions.get(Number(res.json.metadata.resourceVersion))).toBe(JSON.stringify(res.json));
  });

  it('reads flags from SVCTRAIL_* environment twins', async () => {
    const child = execFile(process.execPath, [built('main.js')], {
      cwd: ROOT,
      env: { ...process.env, SVCTRAIL_PORT: '0', SVCTRAIL_DATA_DIR: dataDir, SVCTRAIL_SERVICE_CLUSTER_IP_RANGE: '10.100.0.0/16' },
    });
    const url = await new Promise<string>((resolve) => child.stdout!.on('data', (c: Buffer) => /serving (\S+)/.test(c.toString()) && resolve(/serving (\S+)/.exec(c.toString())![1])));
    const res = await adminClient(dataDir, url).get('/api/v1/namespaces/default/services/kubernetes');
    expect(res.json.spec.clusterIP).toBe('10.100.0.1');
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  });

  it('rejects bad flags with a clear message', async () => {
    const failure = await run(process.execPath, [built('main.js'), '--port', 'abc', '--data-dir', dataDir]).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(/^svctrail: port must/);
  });

  it('refuses to serve a damaged database', async () => {
    writeFileSync(join(dataDir, 'svctrail.db'), Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(8192, 0x5a)]));
    const failure = await run(process.execPath, [built('main.js'), '--port', '0', '--data-dir', dataDir]).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(/damaged and will not be served|failed its integrity check/);
  });

  it('svctrail issue-credentials writes a kubeconfig whose certificate the server accepts', async () => {
    const server = await startServerProcess(['--data-dir', dataDir]);
    try {
      const { stdout } = await run(process.execPath, [built('cli.js'), 'issue-credentials', '--user', 'carol', '--group', 'system:masters', '--group', 'ops', '--data-dir', dataDir]);
      const path = join(dataDir, 'users', 'carol.kubeconfig');
      // system:masters, because policy.jsonl is read at startup and this server is already running.
      expect(stdout).toContain(`wrote ${path} for user "carol" in groups system:masters, ops (certificate)`);
      const kubeconfig = parseYaml(readFileSync(path, 'utf8'));
      expect(kubeconfig.clusters[0].cluster.server).toBe(server.url);
      const user = kubeconfig.users[0].user;
      const client = new HttpsClient(server.url, {
        ca: readFileSync(join(dataDir, 'ca.crt'), 'utf8'),
        cert: Buffer.from(user['client-certificate-data'], 'base64').toString(),
        key: Buffer.from(user['client-key-data'], 'base64').toString(),
      });
      expect((await client.get('/api/v1/services')).status).toBe(200);
      const usage = await run(process.execPath, [built('cli.js'), 'nonsense']).catch((e) => e);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('usage: svctrail <command>');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
