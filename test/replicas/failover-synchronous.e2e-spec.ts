// PostgreSQL fails over under two svctrail replicas' writes, with synchronous replication
// (synchronous_standby_names): a primary and a streaming standby of the suite's own, the standby
// promoted for real (postgres-replication.ts). What must hold: every replica writes again by
// itself within 15 s of the promotion, no acknowledged write is lost, no write answered "not
// stored" is stored, resourceVersions stay in commit order without holes, and a watcher goes on
// without a gap (no 410: nothing was lost, so nothing needs listing again).
//
// `npm test` runs one case (a multi-host URL, the old primary killed); SVCTRAIL_FAILOVER_MATRIX=1
// (npm run test:linearizable) runs the others too, one failover each, a new standby built between.
import { caseTitle, type FailoverCase, failoverCase } from '../helpers/failover-drill';
import { describeReplicatedPostgres } from '../helpers/postgres-replication';
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
});
