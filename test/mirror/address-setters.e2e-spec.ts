// Who set and cleared an address in a mirrored cluster (ingressowners, ingressintervals, who-had):
// the audit event's user once one is joined to the write, else the field manager whose
// managedFields entry the write changed, each saying which (setByKind, clearedByKind). A source
// svctrail behind the fault proxy, a mirror recording it, and an audit event for one of two writes.
import { APP_CONFIG, type AppConfig } from '../../src/config/app-config';
import { AUDITED_USER, type AuditedMirror, auditEventList, startAuditedMirror } from '../helpers/audited-mirror';
import { runCliInProcess } from '../helpers/cli-in-process';
import { describeEachBackend } from '../helpers/storage-backends';

const H = '/apis/history.svctrail.io/v1alpha1';

describeEachBackend('who set and cleared an address in a mirrored cluster', (backend) => {
  let m: AuditedMirror;
  /** A time after the first write was recorded and before its audit event was joined. */
  let beforeJoin: string;

  const items = async (path: string) => (await m.mirror.client.get(path)).json.items as any[];

  beforeAll(async () => {
    m = await startAuditedMirror(async (source) => {
      expect((await source.client.post('/api/v1/namespaces/a/services', { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } })).status).toBe(201);
      // A Service that already holds an address and a condition when the mirror first lists the cluster.
      const held = await source.client.post('/api/v1/namespaces/a/services', { metadata: { name: 'held' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
      const status = { loadBalancer: { ingress: [{ ip: '203.0.113.40' }] }, conditions: [{ type: 'Ready', status: 'True', reason: 'Up', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
      expect((await source.client.put('/api/v1/namespaces/a/services/held/status', { ...held.json, status }, { headers: { 'user-agent': 'metallb-controller/v0.14' } })).status).toBe(200);
    }, backend.start);
    // MetalLB sets the address (its audit event arrives after the write), kube-vip takes over (no audit event).
    const set = await m.setIngress('a', 'lb', '203.0.113.31', 'metallb-controller');
    await new Promise((resolve) => setTimeout(resolve, 10));
    beforeJoin = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await m.postAudit(auditEventList('audit-set', set, { resource: 'services', subresource: 'status' }))).toBe(200);
    await m.setIngress('a', 'lb', '203.0.113.32', 'kube-vip');
  });

  afterAll(async () => {
    await m?.stop();
  });

  it('ingressowners names the audit user of the write that set it, and the field manager of the one that cleared it, saying which each is', async () => {
    // Seen by the watch, or by a relist when a slow machine ended the watch first: either is the source.
    const observed = expect.objectContaining({ via: expect.stringMatching(/^(watch|list)$/) });
    const [owner] = await items(`${H}/ingressowners?address=203.0.113.31`);
    expect(owner.from).toEqual({ resourceVersion: expect.any(String), time: expect.any(String), setBy: AUDITED_USER, setByKind: 'audit', source: observed });
    expect(owner.to).toEqual({
      resourceVersion: expect.any(String),
      time: expect.any(String),
      clearedBy: 'kube-vip',
      clearedByKind: 'fieldManager',
      source: observed,
    });
    // Asked as of before the audit event was joined: the field manager, as then.
    const [asOfThen] = await items(`${H}/ingressowners?address=203.0.113.31&to=${encodeURIComponent(beforeJoin)}`);
    expect(asOfThen.from).toMatchObject({ setBy: 'metallb-controller', setByKind: 'fieldManager' });
    // A direct write names its authenticated user and says nothing more.
    const [direct] = (await m.source.client.get(`${H}/ingressowners?address=203.0.113.31`)).json.items;
    expect(direct.from).toEqual({ resourceVersion: expect.any(String), time: expect.any(String), setBy: 'admin' });
  });

  it('an address a Service already held when the mirror first listed the cluster has its holder from that list, and the condition it had is a transition', async () => {
    const owners = await items(`${H}/ingressowners?address=203.0.113.40`);
    expect(owners).toHaveLength(1);
    expect(owners[0]).toMatchObject({ service: { namespace: 'a', name: 'held' }, from: { source: expect.objectContaining({ via: 'list' }) } });
    expect(owners[0].to).toBeNull();
    const transitions = await items(`${H}/namespaces/a/services/held/conditiontransitions`);
    expect(transitions.map((t) => [t.conditionType, t.fromStatus, t.toStatus])).toEqual([['Ready', null, 'True']]);
  });

  it('ingressintervals says the same of every interval, as known at its until', async () => {
    const intervals = await items(`${H}/namespaces/a/services/lb/ingressintervals`);
    expect(intervals.map((i) => [i.address, i.from.setBy, i.from.setByKind, i.to?.clearedBy ?? null, i.to?.clearedByKind ?? null])).toEqual([
      ['203.0.113.31', AUDITED_USER, 'audit', 'kube-vip', 'fieldManager'],
      ['203.0.113.32', 'kube-vip', 'fieldManager', null, null],
    ]);
    const [then] = await items(`${H}/namespaces/a/services/lb/ingressintervals?until=${encodeURIComponent(beforeJoin)}`);
    expect(then.from).toMatchObject({ setBy: 'metallb-controller', setByKind: 'fieldManager' });
  });

  it('who-had prints who set and cleared it, and how each is known', async () => {
    const config = m.mirror.server.app.get<AppConfig>(APP_CONFIG);
    const store = config.storageUrl ? ['--storage', config.storageUrl] : ['--data-dir', config.dataDir];
    const printed = await runCliInProcess(['who-had', '203.0.113.31', ...store]);
    expect(printed.code).toBe(0);
    const [header, row] = printed.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^SERVICE\s+UID\s+FROM\s+SET BY\s+TO\s+CLEARED BY$/);
    expect(row).toMatch(new RegExp(`^a/lb\\s+\\S+\\s+\\S+ \\(rv \\d+\\)\\s+${AUDITED_USER} \\(audit\\)\\s+\\S+ \\(rv \\d+\\)\\s+kube-vip \\(field manager\\)$`));
  });
});
