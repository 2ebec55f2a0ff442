// The inline projections on a real database: condition audit rows, ingress intervals, the
// allocation table, revisions, and a rebuild from the log that reproduces all of them.
import type { WriteRequestContext } from '../../src/commands/write-result';
import { applyServiceDefaults } from '../../src/domain/service-defaults';
import type { Condition, Service } from '../../src/domain/service.types';
import { rebuildProjections } from '../../src/projections/projection-rebuild';
import { Projector } from '../../src/projections/projector';
import type { DatabaseHandle } from '../../src/store/database';
import { ServiceRepository } from '../../src/store/service-repository';
import { SERVICE_READ_STORE } from '../../src/store/ports/service-read-store';
import type { ServiceReadStore } from '../../src/store/ports/service-read-store';
import { DATABASE } from '../../src/store/ports/store.tokens';
import { type AppContext, createAppContext } from '../helpers/app-context';
import { handlersOf, type ServiceHandlers } from '../helpers/service-handlers';

const as = (user: string): WriteRequestContext => ({ user, groups: [], userAgent: `${user}/1`, fieldManager: user, requestId: `${user}-req`, dryRun: false });
const lb = (name: string): Service => applyServiceDefaults({ metadata: { name }, spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port: 80 }] }, status: { loadBalancer: {} } });
const condition = (type: string, status: string, reason: string): Condition => ({ type, status, lastTransitionTime: '2026-01-01T00:00:00Z', reason, message: `${type} is ${status}` });

describe('projections', () => {
  let ctx: AppContext;
  let handlers: ServiceHandlers;
  let repository: ServiceRepository;
  let handle: DatabaseHandle;

  const status = async (name: string, user: string, ips: string[], conditions: Condition[] = []) => {
    const current = repository.loadLive('default', name).object!;
    return handlers.execute(
      {
        kind: 'ReplaceServiceStatus',
        namespace: 'default',
        name,
        object: { ...current, status: { loadBalancer: ips.length ? { ingress: ips.map((ip) => ({ ip, ipMode: 'VIP' })) } : {}, ...(conditions.length ? { conditions } : {}) } },
      },
      as(user),
    );
  };
  const rows = (sql: string) => handle.sqlite.prepare(sql).all();

  beforeAll(async () => {
    ctx = await createAppContext();
    handlers = handlersOf(ctx.app);
    repository = ctx.app.get(ServiceRepository);
    handle = ctx.app.get<DatabaseHandle>(DATABASE);

    await handlers.execute({ kind: 'CreateService', namespace: 'default', object: lb('web') }, as('creator'));
    ctx.clock.advance(1000);
    await status('web', 'lb-controller', ['203.0.113.7'], [condition('Ready', 'False', 'Provisioning')]);
    ctx.clock.advance(1000);
    await status('web', 'lb-controller', ['203.0.113.7', '203.0.113.8'], [condition('Ready', 'True', 'Provisioned')]);
    ctx.clock.advance(1000);
    await status('web', 'operator', ['203.0.113.8'], []);
    ctx.clock.advance(1000);
    await handlers.execute({ kind: 'DeleteService', namespace: 'default', name: 'web' }, as('operator'));
    ctx.clock.advance(1000);
    await handlers.execute({ kind: 'CreateService', namespace: 'default', object: lb('web') }, as('creator'));
    await status('web', 'lb-controller', ['203.0.113.7']);
  });
  afterAll(async () => ctx.close());

  it('records every condition transition with who and when', () => {
    expect(rows('SELECT condition_type, from_status, to_status, reason, actor_user, recorded_at FROM condition_transitions ORDER BY id')).toEqual([
      { condition_type: 'Ready', from_status: null, to_status: 'False', reason: 'Provisioning', actor_user: 'lb-controller', recorded_at: '2026-01-02T03:04:06.000Z' },
      { condition_type: 'Ready', from_status: 'False', to_status: 'True', reason: 'Provisioned', actor_user: 'lb-controller', recorded_at: '2026-01-02T03:04:07.000Z' },
      { condition_type: 'Ready', from_status: 'True', to_status: null, reason: '', actor_user: 'operator', recorded_at: '2026-01-02T03:04:08.000Z' },
    ]);
  });

  it('keeps ingress addresses as intervals, closed by removal or deletion, per incarnation', () => {
    const intervals = rows('SELECT address, uid, from_resource_version AS f, to_resource_version AS t, set_by, cleared_by FROM ingress_intervals ORDER BY id') as {
      address: string;
      uid: string;
      f: number;
      t: number | null;
      set_by: string;
      cleared_by: string | null;
    }[];
    const [first, second, third] = intervals;
    expect(intervals).toHaveLength(3);
    expect(first).toMatchObject({ address: '203.0.113.7', set_by: 'lb-controller', cleared_by: 'operator' });
    expect(second).toMatchObject({ address: '203.0.113.8', set_by: 'lb-controller', cleared_by: 'operator' });
    expect(second.t).toBeGreaterThan(first.t!);
    expect(third).toMatchObject({ address: '203.0.113.7', t: null, cleared_by: null });
    expect(third.uid).not.toBe(first.uid);
  });

  it('holds the allocations of live Services only', () => {
    const live = repository.loadLive('default', 'web').object!;
    const held = rows(`SELECT kind, value FROM allocations WHERE uid = '${live.metadata.uid}' ORDER BY kind, value`);
    expect(held).toEqual([
      { kind: 'cluster-ip', value: live.spec.clusterIP },
      { kind: 'node-port', value: String(live.spec.ports![0].nodePort) },
    ]);
    expect(rows('SELECT count(*) AS n FROM allocations')).toEqual([{ n: 3 }]); // plus default/kubernetes' cluster IP
  });

  it('keeps one revision per write, and one lifetime per incarnation from creation to deletion', async () => {
    const reads = ctx.app.get<ServiceReadStore>(SERVICE_READ_STORE);
    const asOf = async (rv: number) => {
      const json = await reads.jsonAsOf('default', 'web', rv);
      return json === undefined ? null : (JSON.parse(json) as Service);
    };
    const revisions = rows(`SELECT uid, resource_version AS rv FROM service_revisions WHERE name = 'web' ORDER BY rv`) as { uid: string; rv: number }[];
    expect(revisions).toHaveLength(6);
    const lifetimes = rows(`SELECT uid, created_resource_version AS born, deleted_resource_version AS died FROM service_lifetimes WHERE name = 'web' ORDER BY born`) as {
      uid: string;
      born: number;
      died: number | null;
    }[];
    expect(lifetimes).toHaveLength(2);
    const [first, second] = lifetimes;
    expect(first).toMatchObject({ uid: revisions[0].uid, born: revisions[0].rv });
    expect(first.died).toBeGreaterThan(revisions[3].rv); // the deletion writes no revision
    expect(second).toMatchObject({ uid: revisions[4].uid, born: revisions[4].rv, died: null });
    expect(second.uid).not.toBe(first.uid);
    // As of any point, the newest revision at or before it; nothing between a deletion and the next creation.
    expect((await asOf(revisions[1].rv))!.status.loadBalancer.ingress).toEqual([{ ip: '203.0.113.7', ipMode: 'VIP' }]);
    expect((await asOf(revisions[2].rv - 1))!.metadata.resourceVersion).toBe(String(revisions[1].rv));
    expect(await asOf(first.died!)).toBeNull();
    expect(await asOf(revisions[0].rv - 1)).toBeNull();
  });

  it('rebuilds every projection from the log to exactly the same rows', () => {
    const projector = ctx.app.get(Projector);
    const tables = projector.tables;
    const snapshot = () => Object.fromEntries(tables.map((t) => [t, rows(`SELECT * FROM ${t} ORDER BY 1, 2, 3`)]));
    const before = snapshot();
    const report = rebuildProjections(handle, projector);
    expect(report.writes).toBe(8);
    expect(snapshot()).toEqual(before);
  });

  it("moves a Service's allocations with its spec, and a status write leaves them as they are", async () => {
    const held = () => {
      const uid = repository.loadLive('default', 'moves').object!.metadata.uid;
      return rows(`SELECT kind, value FROM allocations WHERE uid = '${uid}' AND kind = 'node-port' ORDER BY value`);
    };
    const replaceSpec = async (change: (spec: Service['spec']) => void) => {
      const next = structuredClone(repository.loadLive('default', 'moves').object!);
      change(next.spec);
      await handlers.execute({ kind: 'ReplaceService', namespace: 'default', name: 'moves', object: next }, as('editor'));
    };
    const nodePortService = applyServiceDefaults({
      metadata: { name: 'moves' },
      spec: { type: 'NodePort', selector: { app: 'moves' }, ports: [{ port: 80, nodePort: 30100 }] },
      status: { loadBalancer: {} },
    });
    await handlers.execute({ kind: 'CreateService', namespace: 'default', object: nodePortService }, as('creator'));
    expect(held()).toEqual([{ kind: 'node-port', value: '30100' }]);
    await replaceSpec((spec) => (spec.ports![0].nodePort = 30101));
    expect(held()).toEqual([{ kind: 'node-port', value: '30101' }]);
    await status('moves', 'operator', [], [condition('Ready', 'True', 'Checked')]);
    expect(held()).toEqual([{ kind: 'node-port', value: '30101' }]);
    await replaceSpec((spec) => {
      spec.type = 'ClusterIP';
      delete spec.ports![0].nodePort;
    });
    expect(held()).toEqual([]);
  });
});
