// The audit join's store on both engines: an audit event whose write is not recorded waits; the
// sweep joins it once the write is recorded (by this replica or another), exactly once; what
// waits too long is dropped and counted.
import type { AuditedWrite } from '../../src/domain/mirror/audited-write';
import { initialServiceState } from '../../src/domain/service.evolve';
import type { Service } from '../../src/domain/service.types';
import { AUDIT_ACTOR_STORE } from '../../src/store/ports/audit-actor-store';
import type { AuditActorStore } from '../../src/store/ports/audit-actor-store';
import { SERVICE_WRITE_STORE } from '../../src/store/ports/service-write-store';
import type { ServiceWriteStore } from '../../src/store/ports/service-write-store';
import { describeEachBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

const T0 = new Date('2026-12-01T02:13:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const audited = (auditID: string, sourceResourceVersion: string): AuditedWrite => ({
  auditID,
  namespace: 'ns',
  name: 'web',
  sourceResourceVersion,
  verb: 'update',
  user: 'system:serviceaccount:metallb-system:controller',
  groups: ['system:authenticated'],
  userAgent: 'controller/v0.14.8',
  sourceIPs: ['10.244.0.12'],
  requestReceivedTimestamp: '2026-12-01T02:13:00.123456Z',
});

describeEachBackend('the audit actor store', (backend) => {
  let server: TestServer;
  let store: AuditActorStore;
  let writes: ServiceWriteStore;

  beforeAll(async () => {
    server = await backend.start();
    store = server.server.app.get<symbol, AuditActorStore>(AUDIT_ACTOR_STORE);
    writes = server.server.app.get<symbol, ServiceWriteStore>(SERVICE_WRITE_STORE);
  });
  afterAll(() => server?.stop());

  /** Records a creation of ns/web observed at the source's resourceVersion `sourceRv`, as the mirror does. */
  async function recordObserved(uid: string, sourceRv: string): Promise<number> {
    const object = {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'web', namespace: 'ns', uid, creationTimestamp: '2026-12-01T02:00:00Z' },
      spec: { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] },
      status: { loadBalancer: {} },
    } as Service;
    const { committed } = await writes.write('ns', 'web', () => ({
      append: {
        streamId: uid,
        expectedVersion: 0,
        events: [{ type: 'ServiceCreated', data: { object } }],
        before: initialServiceState,
        metadata: { user: '', groups: [], userAgent: '', fieldManager: '', requestId: '', verb: 'create', subresource: '', recordedAt: T0.toISOString() },
        observation: { sourceResourceVersion: sourceRv, via: 'watch', observedAt: T0.toISOString() },
      },
      finish: () => undefined,
    }));
    return committed!.resourceVersion;
  }

  it('keeps an audit event whose write is not recorded; once it is, the sweep joins it, once, with the time it learned it', async () => {
    expect(await store.receive([audited('a1', '77')], at(1))).toEqual({ joined: 0, pending: 1 });
    // A repeated delivery keeps one waiting event.
    await store.receive([audited('a1', '77')], at(2));
    expect(await store.pendingCount()).toBe(1);
    expect(await store.sweep(at(3))).toBe(0);

    const rv = await recordObserved('uid-1', '77');
    expect(await store.sweep(at(4))).toBe(1);
    expect(await store.pendingCount()).toBe(0);
    expect(await store.sweep(at(5))).toBe(0);
    expect((await store.actors([rv])).get(rv)).toEqual({
      user: 'system:serviceaccount:metallb-system:controller',
      groups: ['system:authenticated'],
      userAgent: 'controller/v0.14.8',
      sourceIPs: ['10.244.0.12'],
      auditID: 'a1',
      identifiedAt: at(4).toISOString(),
    });
    // Arriving again after the join changes nothing.
    expect(await store.receive([audited('a1', '77')], at(6))).toEqual({ joined: 1, pending: 0 });
    expect((await store.actors([rv])).get(rv)?.identifiedAt).toBe(at(4).toISOString());
  });

  it('drops what waited past the cut-off and says how many', async () => {
    await store.receive([audited('late-1', '901'), audited('late-2', '902')], at(10));
    await store.receive([audited('fresh', '903')], at(20));
    expect(await store.expire(at(15))).toBe(2);
    expect(await store.pendingCount()).toBe(1);
  });
});
