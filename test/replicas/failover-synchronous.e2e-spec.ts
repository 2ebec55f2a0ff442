// PostgreSQL fails over under two svctrail replicas' writes, with synchronous replication
// (synchronous_standby_names): a primary and a streaming standby of the suite's own, the standby
// promoted for real (postgres-replication.ts). What must hold: every replica writes again by
// itself within 15 s of the promotion, no acknowledged write is lost, no write answered "not
// stored" is stored, resourceVersions stay in commit order without holes, and a watcher goes on
// without a gap (no 410: nothing was lost, so nothing needs listing again).
//
// `npm test` runs one case (a multi-host URL, the old primary killed); SVCTRAIL_FAILOVER_MATRIX=1
// (npm run test:linearizable) runs the others too, one failover each, a new standby built between.
import { Client } from 'pg';
import { caseTitle, type FailoverCase, failoverCase } from '../helpers/failover-drill';
import { describeReplicatedPostgres } from '../helpers/postgres-replication';
import { startReplicas } from '../helpers/replica-processes';
import { buildDist, removeBuild } from '../helpers/server-process';

const CASES: FailoverCase[] = [
  { addressing: 'multi-host', fate: 'killed', lagMs: 1_000 },
  ...(process.env.SVCTRAIL_FAILOVER_MATRIX
    ? ([
        { addressing: 'moving address', fate: 'read-only', moveDelayMs: 2_000 },
        { addressing: 'multi-host', fate: 'stopped' },
      ] satisfies FailoverCase[])
    : []),
];

describeReplicatedPostgres('PostgreSQL failover with synchronous replication', 'synchronous', (database) => {
  beforeAll(() => buildDist(), 120_000);
  afterAll(() => removeBuild());

  CASES.forEach((c, i) => {
    it(`through ${caseTitle(c)}: writes again within 15 s, no acknowledged write lost, no hole, the watch without a gap`, async () => {
      if (i > 0) await database().rebuildStandby();
      const { report, summary } = await failoverCase(database(), c, `sync-${i}`);
      console.log(summary);
      expect(report.acknowledged).toBeGreaterThan(30);
      for (const [replica, ms] of Object.entries(report.firstWriteMs)) expect([replica, ms !== undefined && ms < 15_000]).toEqual([replica, true]);
      expect(report.lost).toEqual([]);
      expect(report.storedThoughRefused).toEqual([]);
      expect(report.unexpected).toEqual([]);
      expect(report.holes).toEqual([]);
      expect(report.outOfOrder).toEqual([]);
      expect(report.watch.problems).toEqual([]);
      expect(report.watch.expired).toBe(0);
    }, 180_000);
  });

  it('a COMMIT whose wait for the synchronous standby was cancelled is not acknowledged: it stands on the primary alone', async () => {
    await database().rebuildStandby();
    const set = await startReplicas(database().multiHostUrl, ['a']);
    const admin = new Client({ connectionString: database().primary().url });
    await admin.connect();
    try {
      const [a] = set.replicas;
      expect((await a.client.post('/api/v1/namespaces/cancelled/services', { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } })).status).toBe(201);
      // The standby receives nothing: the next COMMIT waits for it.
      database().holdReplication(true);
      const put = a.client.put('/api/v1/namespaces/cancelled/services/web', {
        metadata: { name: 'web', annotations: { 'test/value': 'unreplicated' } },
        spec: { ports: [{ port: 80 }] },
      });
      let waiting: number | undefined;
      for (let i = 0; i < 100 && waiting === undefined; i++) {
        const { rows } = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = 'svctrail-writer' AND wait_event = 'SyncRep'");
        waiting = rows[0]?.pid;
        if (waiting === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(waiting).toBeDefined();
      // What an operator's or a pooler's cancel does: PostgreSQL ends the wait and the COMMIT returns.
      await admin.query('SELECT pg_cancel_backend($1)', [waiting]);
      const answer = await put;
      database().holdReplication(false);
      expect([answer.status, answer.json?.reason, answer.json?.message]).toEqual([500, 'InternalError', expect.stringMatching(/may or may not have been stored/)]);
      // It did commit on the primary: the answer could not say "stored", nor "not stored".
      const { rows } = await admin.query<{ n: string }>("SELECT count(*)::text AS n FROM services WHERE name = 'web' AND object LIKE '%unreplicated%'");
      expect(rows[0].n).toBe('1');
    } finally {
      database().holdReplication(false);
      await admin.end();
      await set.stop();
    }
  }, 120_000);
});
