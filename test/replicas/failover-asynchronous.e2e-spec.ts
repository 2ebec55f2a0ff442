// PostgreSQL fails over under two svctrail replicas' writes, with asynchronous replication (the
// default): the standby promoted may lack the old primary's newest writes. What must hold: every
// replica writes again by itself within 15 s of the promotion; a write may be lost only if the
// old primary acknowledged it before the promotion (what replication had not carried yet), and
// the count is reported; no write answered "not stored" is stored; resourceVersions stay in
// commit order without holes (a lost position is handed out again, to a new write); a watcher
// either goes on without a gap or, when the log lost writes it may have sent, ends with 410
// Expired and lists again, as client-go does.
//
// `npm test` runs one case (one address moved to the new primary, the old primary killed);
// SVCTRAIL_FAILOVER_MATRIX=1 (npm run test:linearizable) runs the others too.
import { caseTitle, type FailoverCase, failoverCase } from '../helpers/failover-drill';
import { describeReplicatedPostgres } from '../helpers/postgres-replication';
import { buildDist, removeBuild } from '../helpers/server-process';

const CASES: FailoverCase[] = [
  { addressing: 'moving address', fate: 'killed', lagMs: 1_000 },
  ...(process.env.SVCTRAIL_FAILOVER_MATRIX
    ? ([
        { addressing: 'multi-host', fate: 'read-only' },
        { addressing: 'moving address', fate: 'stopped' },
      ] satisfies FailoverCase[])
    : []),
];

describeReplicatedPostgres('PostgreSQL failover with asynchronous replication', 'asynchronous', (database) => {
  beforeAll(() => buildDist(), 120_000);
  afterAll(() => removeBuild());

  CASES.forEach((c, i) => {
    it(`through ${caseTitle(c)}: writes again within 15 s, only writes acknowledged before the promotion may be lost, no hole, the watch without a gap or with 410`, async () => {
      if (i > 0) await database().rebuildStandby();
      const { report, summary } = await failoverCase(database(), c, `async-${i}`);
      console.log(summary);
      expect(report.acknowledged).toBeGreaterThan(30);
      for (const [replica, ms] of Object.entries(report.firstWriteMs)) expect([replica, ms !== undefined && ms < 15_000]).toEqual([replica, true]);
      expect(report.lost.filter((a) => a.answeredAt > report.promotedAt)).toEqual([]);
      expect(report.storedThoughRefused).toEqual([]);
      expect(report.unexpected).toEqual([]);
      expect(report.holes).toEqual([]);
      expect(report.outOfOrder).toEqual([]);
      expect(report.watch.problems).toEqual([]);
    }, 180_000);
  });
});
