// The maintenance commands as an operator runs them: `node cli.js replay|verify|export|import`
// against the data directory of a real server process that keeps running, then servers started
// on the imported and point-in-time directories answering exactly as the original does.
// Commands whose answers are compared run in the jest process (runCliInProcess: the same code,
// about 1 s of CPU less each); what is about the process stays a child process: the progress
// written to a non-TTY stderr, the refusals' exit codes and messages, a replay refused while
// another process holds the lock and the swap beside the server, an export to stdout, and the
// queries that answer while the server takes writes.
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { lockDataDirectory, REPLAY_LOCK_FILE } from '../../src/store/data-directory-lock';
import { HttpsClient } from '../helpers/https-client';
import { runBuiltCli } from '../helpers/built-cli';
import { runCliInProcess } from '../helpers/cli-in-process';
import { buildDist, removeBuild, type ServerProcess, startServerProcess } from '../helpers/server-process';

const cli = (...args: string[]) => runBuiltCli(args);
const inProcess = (...args: string[]) => runCliInProcess(args);

const adminClient = (dataDir: string, url: string) =>
  new HttpsClient(url, { ca: readFileSync(join(dataDir, 'ca.crt'), 'utf8'), token: readFileSync(join(dataDir, 'tokens.csv'), 'utf8').split(',')[0] });

async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

/** The answers compared across servers: LISTs, GETs, /status, a selector, YAML. */
const PATHS = [
  '/api/v1/services',
  '/api/v1/namespaces/default/services',
  '/api/v1/namespaces/default/services/web',
  '/api/v1/namespaces/default/services/web/status',
  '/api/v1/namespaces/team-a/services/db',
  '/api/v1/services?labelSelector=app%3Dapi',
  '/api/v1/services?limit=2',
];

describe('svctrail replay, verify, export, import', () => {
  let root: string;
  let dataDir: string;
  let server: ServerProcess | undefined;
  let client: HttpsClient;
  let midpoint = 0;
  const others: ServerProcess[] = [];

  beforeAll(async () => {
    buildDist();
    root = mkdtempSync(join(tmpdir(), 'svctrail-cli-'));
    dataDir = join(root, 'data');
    server = await startServerProcess(['--data-dir', dataDir]);
    client = adminClient(dataDir, server.url);
    const create = async (namespace: string, name: string) => {
      const res = await client.post(`/api/v1/namespaces/${namespace}/services`, {
        metadata: { name, labels: { app: name } },
        spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port: 80 }] },
      });
      expect(res.status).toBe(201);
      return res.json;
    };
    const status = async (object: any, ips: string[]) => {
      const res = await client.put(`/api/v1/namespaces/${object.metadata.namespace}/services/${object.metadata.name}/status`, {
        ...object,
        status: {
          loadBalancer: { ingress: ips.map((ip) => ({ ip, ipMode: 'VIP' })) },
          conditions: [{ type: 'Ready', status: 'True', reason: 'Up', message: 'up', lastTransitionTime: '2026-01-01T00:00:00Z' }],
        },
      });
      expect(res.status).toBe(200);
      return res.json;
    };
    const web = await create('default', 'web');
    const api = await create('default', 'api');
    const db = await create('team-a', 'db');
    const webUp = await status(web, ['203.0.113.7']);
    midpoint = Number(webUp.metadata.resourceVersion);
    await status(webUp, ['203.0.113.8']);
    await status(db, ['198.51.100.1']);
    expect((await client.delete(`/api/v1/namespaces/default/services/${api.metadata.name}`)).status).toBe(200);
    await create('default', 'api');
  }, 180000);

  afterAll(async () => {
    await stopServer(server);
    for (const other of others) await stopServer(other);
    removeBuild();
    rmSync(root, { recursive: true, force: true });
  });

  it('verify passes while the server runs, in a table, JSON or YAML', async () => {
    const human = await cli('verify', '--data-dir', dataDir);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^TABLE\s+LIVE ROWS\s+FOLDED ROWS\s+DIFFERENCES\nservices\s+4\s+4\s+0\n/);
    expect(human.stdout).toMatch(/OK: \d+ events in \d+ writes up to resourceVersion \d+, 0 differences\n$/);
    // Not a TTY: one summary line per phase, with its rate.
    expect(human.stderr).toMatch(/^fold projections: \d+ events in [\d.]+s \([\d,]+ events\/s\)\ncompare: /);
    const json = JSON.parse((await inProcess('verify', '--data-dir', dataDir, '-o', 'json')).stdout);
    expect(json).toMatchObject({ differences: 0, samples: [] });
    const yaml = parseYaml((await inProcess('verify', '--data-dir', dataDir, '-o', 'yaml')).stdout);
    expect(yaml.tables).toEqual(json.tables);
  });

  it('verify reports a tampered projection row and exits 1; replay restores it next to the running server, one replay at a time', async () => {
    const path = '/api/v1/namespaces/default/services/web';
    const before = (await client.get(path)).text;
    const db = new Database(join(dataDir, 'svctrail.db'));
    try {
      const object = db.prepare(`SELECT object FROM services WHERE namespace = 'default' AND name = 'web'`).pluck().get() as string;
      db.prepare(`UPDATE services SET object = ? WHERE namespace = 'default' AND name = 'web'`).run(object.replace('203.0.113.8', '192.0.2.66'));
    } finally {
      db.close();
    }
    expect((await client.get(path)).text).toContain('192.0.2.66');

    const failed = await inProcess('verify', '--data-dir', dataDir);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('services namespace=default name=web: differs — object.status.loadBalancer.ingress[0].ip: live "192.0.2.66", log "203.0.113.8"');
    expect(failed.stdout).toMatch(/FAILED: .* 1 difference\n$/);

    // One replay at a time: a second one is refused while the first holds the replay lock.
    const other = lockDataDirectory(dataDir, REPLAY_LOCK_FILE);
    try {
      const refused = await cli('replay', '--data-dir', dataDir);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^svctrail replay: data directory .*data is in use by another svctrail process .*svctrail\.replay\.lock\); stop it first/);
    } finally {
      other.release();
    }
    expect((await inProcess('verify', '--data-dir', dataDir)).code).toBe(1);

    // Next to the running server, which keeps serving.
    const replay = await cli('replay', '--data-dir', dataDir);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/^TABLE\s+ROWS\s+CHANGED\nservices\s+4\s+1\n/);
    expect(replay.stdout).toMatch(
      /replayed \d+ events in \d+ writes up to resourceVersion \d+; 1 row changed; the swap held the write lock [\d.]+ ms \(longest lock [\d.]+ ms: [^)\n]+\)\n(write lock held 1 s or more: [^\n]+\n)?$/,
    );
    expect(replay.stderr).toMatch(/swap: 9 tables in/);
    expect((await client.get(path)).text).toBe(before);
    expect((await inProcess('verify', '--data-dir', dataDir)).code).toBe(0);
  });

  it('export → import → a server on the imported directory answers byte for byte as the original', async () => {
    const file = join(root, 'events.ndjson');
    const exported = await inProcess('export', '--data-dir', dataDir, '--out', file);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^exported \d+ events \(resourceVersions 1\.\.\d+\) to .*events\.ndjson\n$/);
    // It names every user and what they changed: private, like the database.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const toStdout = await cli('export', '--data-dir', dataDir);
    expect(toStdout.stdout).toBe(readFileSync(file, 'utf8'));
    expect(toStdout.stderr).toMatch(/exported \d+ events/);

    const imported = join(root, 'imported');
    const result = await inProcess('import', '--data-dir', imported, file, '-o', 'json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ events: toStdout.stdout.trimEnd().split('\n').length });
    expect((await inProcess('verify', '--data-dir', imported)).code).toBe(0);

    const copy = await startServerProcess(['--data-dir', imported]);
    others.push(copy);
    const copyClient = adminClient(imported, copy.url);
    for (const path of PATHS) {
      const [a, b] = [await client.get(path), await copyClient.get(path)];
      expect({ path, status: b.status, text: b.text }).toEqual({ path, status: a.status, text: a.text });
    }
    const yaml = (c: HttpsClient) => c.get('/api/v1/namespaces/default/services/web', { accept: 'application/yaml' });
    expect((await yaml(copyClient)).text).toBe((await yaml(client)).text);
  });

  it('replay --until builds the store at a resourceVersion; a server serves it read-only, as the original time-travels', async () => {
    const out = join(root, 'at-midpoint');
    const result = await inProcess('replay', '--data-dir', dataDir, '--until', String(midpoint), '--out', out);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`up to resourceVersion ${midpoint}`);
    expect(JSON.parse(readFileSync(join(out, 'point-in-time.json'), 'utf8'))).toMatchObject({ resourceVersion: midpoint });

    const pit = await startServerProcess(['--data-dir', out]);
    others.push(pit);
    const pitClient = adminClient(out, pit.url);
    const original = await client.get(`/api/v1/services?resourceVersion=${midpoint}&resourceVersionMatch=Exact`);
    const atPoint = await pitClient.get('/api/v1/services');
    expect(atPoint.status).toBe(200);
    expect(atPoint.text).toBe(original.text);
    expect(atPoint.json.items.map((s: any) => s.metadata.name).sort()).toEqual(['api', 'db', 'kubernetes', 'web']);
    expect(atPoint.json.items.find((s: any) => s.metadata.name === 'web').status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.7', ipMode: 'VIP' }]);

    const write = await pitClient.post('/api/v1/namespaces/default/services', { metadata: { name: 'late' }, spec: { ports: [{ port: 80 }] } });
    expect(write.status).toBe(500);
    expect(write.text).toContain('read-only point-in-time copy');
    expect((await pitClient.get('/api/v1/services')).text).toBe(atPoint.text);

    const byTime = join(root, 'by-time');
    const timed = await inProcess('replay', '--data-dir', dataDir, '--until', '2000-01-01T00:00:00Z', '--out', byTime, '-o', 'json');
    expect(timed.code).toBe(0);
    expect(JSON.parse(timed.stdout)).toMatchObject({ resourceVersion: 0, events: 0 });
  });

  it('a server on a point-in-time copy serves its Events as they were at that point, leases past or not, and says once that it cannot expire them', async () => {
    // A store whose Events' leases are short: by the time the copy is served, they have run out.
    const source = join(root, 'short-ttl');
    const original = await startServerProcess(['--data-dir', source, '--event-ttl', '1s']);
    others.push(original);
    const events = '/api/v1/namespaces/default/events';
    const created = await adminClient(source, original.url).post(events, {
      metadata: { name: 'web.1800000000000001' },
      involvedObject: { kind: 'Service', namespace: 'default', name: 'web' },
      reason: 'EnsuringLoadBalancer',
      message: 'Ensuring load balancer',
      source: { component: 'service-controller' },
      count: 1,
      type: 'Normal',
    });
    expect(created.status).toBe(201);
    const out = join(root, 'short-ttl-copy');
    expect((await inProcess('replay', '--data-dir', source, '--until', created.json.metadata.resourceVersion, '--out', out)).code).toBe(0);
    await stopServer(original);

    const pit = await startServerProcess(['--data-dir', out, '--log-level', 'warn']);
    others.push(pit);
    const pitClient = adminClient(out, pit.url);
    // Rounds of the sweep pass (1 s, then growing pauses): each fails, the first is logged.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const read = await pitClient.get(`${events}/web.1800000000000001`);
    expect(read.status).toBe(200);
    expect(read.text).toBe(created.text);
    const warnings = pit
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"level":40'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/expiring Events failed, retried after growing pauses .*read-only point-in-time copy/);
  });

  // Over a dozen CLI processes, one after another: on a loaded 2-core machine they can outlast the default 60 s.
  it('refuses bad input with a clear message: exit 2 for usage, 1 for refusals', async () => {
    const usage: [string[], RegExp][] = [
      [['verify', '--data-dir', dataDir, '--bogus'], /svctrail verify: Unknown option '--bogus'/],
      [['verify', '--data-dir', dataDir, '-o', 'xml'], /-o must be json or yaml/],
      [['verify', '--max-differences', 'lots'], /--max-differences must be a non-negative integer/],
      [['replay', '--data-dir', dataDir, '--until', 'yesterday', '--out', join(root, 'x')], /--until "yesterday" is neither a resourceVersion .* nor an RFC 3339 time/],
      [['replay', '--data-dir', dataDir, '--until', '3'], /--until needs --out NEWDIR/],
      [['replay', '--data-dir', dataDir, '--out', join(root, 'x')], /--out is only for replay --until/],
      [['export', '--data-dir', dataDir, '--since', '2026-13-45T00:00:00Z'], /--since "2026-13-45T00:00:00Z" is neither/],
      [['import', join(root, 'events.ndjson')], /import needs --data-dir NEWDIR/],
      [['import', '--data-dir', join(root, 'y'), join(root, 'missing.ndjson')], /no such file/],
    ];
    for (const [args, message] of usage) {
      const result = await cli(...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain('--help for usage');
    }

    const notEmpty = join(root, 'not-empty');
    mkdirSync(notEmpty);
    writeFileSync(join(notEmpty, 'keep.txt'), 'mine');
    const refusals: [string[], RegExp][] = [
      [['import', '--data-dir', notEmpty, join(root, 'events.ndjson')], /data directory .*not-empty is not empty \(keep\.txt\)/],
      [['import', '--data-dir', dataDir, join(root, 'events.ndjson')], /is not empty/],
      [['verify', '--data-dir', join(root, 'nowhere')], /no svctrail database at .*nowhere\/svctrail\.db/],
      [['replay', '--data-dir', dataDir, '--until', '99999', '--out', join(root, 'z')], /--until 99999 is newer than the log/],
      [['replay', '--data-dir', dataDir, '--until', '1', '--out', dataDir], /--out must be a new directory/],
    ];
    for (const [args, message] of refusals) {
      const result = await cli(...args);
      expect({ args, code: result.code }).toEqual({ args, code: 1 });
      expect(result.stderr).toMatch(message);
    }
    expect(readFileSync(join(notEmpty, 'keep.txt'), 'utf8')).toBe('mine');

    const help = await cli('replay', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: svctrail replay');
    expect((await inProcess('verify', '--data-dir', dataDir)).code).toBe(0); // nothing above touched the store
  }, 180_000);

  it('the query commands answer while the server takes writes, and every write is acknowledged', async () => {
    const writes = (async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) {
        statuses.push((await client.post('/api/v1/namespaces/load/services', { metadata: { name: `w${i}` }, spec: { ports: [{ port: 80 }] } })).status);
      }
      return statuses;
    })();
    const queries = await Promise.all([
      cli('get', 'default/web', '--data-dir', dataDir, '-o', 'json'),
      cli('history', 'default/web', '--data-dir', dataDir),
      cli('who-had', '203.0.113.8', '--data-dir', dataDir),
      cli('conditions', 'default/web', '--data-dir', dataDir),
    ]);
    expect(queries.map((q) => q.code)).toEqual([0, 0, 0, 0]);
    expect(JSON.parse(queries[0].stdout).status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.8', ipMode: 'VIP' }]);
    expect(queries[2].stdout).toMatch(/^default\/web\s/m);
    expect(await writes).toEqual(Array(60).fill(201));
  });
});
