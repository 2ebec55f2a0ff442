// The history API end to end: real writes over HTTPS by several users and user agents (status
// changes, flapping, deletion and re-creation of a name, one IP on two Services), then every
// history resource, filter, page and error.
import { applyPatch, deepClone } from 'fast-json-patch';
import { parse as parseYaml } from 'yaml';
import { describeEachBackend } from '../helpers/storage-backends';
import { type HistoryTestServer, putStatus, ready, START, startHistoryTestServer } from './history-test-server';

const H = '/apis/history.svctrail.io/v1alpha1';
const LB = { type: 'LoadBalancer', ports: [{ port: 80 }] };
const iso = (ms: number) => new Date(ms).toISOString();

describeEachBackend('history.svctrail.io', (backend) => {
  let t: HistoryTestServer;
  const rv: Record<string, number> = {};
  const at: Record<string, number> = {};
  let firstUid: string;
  let secondUid: string;
  let apiUid: string;

  const step = async (label: string, write: () => Promise<{ metadata: { resourceVersion: string } }>) => {
    t.clock.advance(60_000);
    at[label] = t.clock.now().getTime();
    const object = await write();
    rv[label] = Number(object.metadata.resourceVersion);
    return object;
  };

  beforeAll(async () => {
    t = await startHistoryTestServer([{ name: 'alice', groups: ['lb-controllers'] }, { name: 'bob' }], backend.start);
    const admin = t.as('admin');
    const alice = t.as('alice');
    const bob = t.as('bob');
    const created = await step('create', async () => (await admin.post('/api/v1/namespaces/a/services', { metadata: { name: 'web' }, spec: LB })).json);
    firstUid = (created as any).metadata.uid;
    await step('assign', () => putStatus(alice, 'a', 'web', { loadBalancer: { ingress: [{ ip: '203.0.113.10' }] }, conditions: [ready('False', 'Pending', at.create)] }, 'metallb/v0.14'));
    // Ready flaps: four status changes within four minutes, by two controllers.
    const flips: ['True' | 'False', string][] = [
      ['True', 'bob'],
      ['False', 'alice'],
      ['True', 'bob'],
      ['False', 'alice'],
    ];
    for (const [i, [status, who]] of flips.entries()) {
      await step(`flip${i}`, () =>
        putStatus(
          t.as(who),
          'a',
          'web',
          { loadBalancer: { ingress: [{ ip: '203.0.113.10' }] }, conditions: [ready(status, `R${i}`, t.clock.now().getTime())] },
          who === 'bob' ? 'cloud-lb/1.0' : 'metallb/v0.14',
        ),
      );
    }
    const api = await step('createApi', async () => (await admin.post('/api/v1/namespaces/b/services', { metadata: { name: 'api' }, spec: LB })).json);
    apiUid = (api as any).metadata.uid;
    // The same IP on a second Service while a/web still holds it: a conflict.
    await step('assignApi', () => putStatus(alice, 'b', 'api', { loadBalancer: { ingress: [{ ip: '203.0.113.10' }, { hostname: 'lb.example.com' }] } }, 'metallb/v0.14'));
    await step('label', async () => {
      const current = (await admin.get('/api/v1/namespaces/a/services/web')).json;
      return (await admin.put('/api/v1/namespaces/a/services/web', { ...current, metadata: { ...current.metadata, labels: { tier: 'front' } } })).json;
    });
    await step('delete', async () => (await admin.delete('/api/v1/namespaces/a/services/web')).json);
    // A DELETE returns the object as it was; the write's resourceVersion is the log head.
    rv.delete = Number((await admin.get('/api/v1/namespaces/b/services')).json.metadata.resourceVersion);
    const again = await step('recreate', async () => (await admin.post('/api/v1/namespaces/a/services', { metadata: { name: 'web' }, spec: LB })).json);
    secondUid = (again as any).metadata.uid;
    await step('assign2', () => putStatus(bob, 'a', 'web', { loadBalancer: { ingress: [{ ip: '203.0.113.20' }] } }, 'cloud-lb/1.0'));
  });
  afterAll(async () => t?.stop());

  const get = (path: string, accept?: string) => t.client.get(`${H}${path}`, accept ? { accept } : {});

  describe('discovery', () => {
    it('lists the group in /apis, the group document and its resources', async () => {
      const groups = (await t.client.get('/apis')).json;
      // After the built-in groups svctrail serves (the self reviews').
      expect(groups.groups.map((g: any) => g.name)).toEqual(['events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'history.svctrail.io']);
      expect(groups.groups.find((g: any) => g.name === 'history.svctrail.io')).toEqual({
        name: 'history.svctrail.io',
        versions: [{ groupVersion: 'history.svctrail.io/v1alpha1', version: 'v1alpha1' }],
        preferredVersion: { groupVersion: 'history.svctrail.io/v1alpha1', version: 'v1alpha1' },
      });
      expect((await t.client.get('/apis/history.svctrail.io')).json).toMatchObject({ kind: 'APIGroup', name: 'history.svctrail.io' });
      const list = (await get('')).json;
      expect(list).toMatchObject({ kind: 'APIResourceList', groupVersion: 'history.svctrail.io/v1alpha1' });
      expect(list.resources.map((r: any) => r.name)).toEqual([
        'changes',
        'conditiontransitions',
        'conditionsummaries',
        'ingressintervals',
        'ingressconflicts',
        'ingressowners',
        'fieldownerships',
        'activitybuckets',
        'transitionrankings',
        'events',
        'compactions',
        'feed',
      ]);
    });

    it.each(['v2', 'v2beta1'])('aggregated discovery %s lists it', async (version) => {
      const res = await t.client.get('/apis', { accept: `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList` });
      const group = res.json.items.find((g: any) => g.metadata.name === 'history.svctrail.io');
      expect(group.metadata.name).toBe('history.svctrail.io');
      expect(group.versions[0].resources.find((r: any) => r.resource === 'changes')).toMatchObject({
        responseKind: { group: 'history.svctrail.io', version: 'v1alpha1', kind: 'ServiceChange' },
        scope: 'Namespaced',
        verbs: ['list'],
      });
    });

    it('an unknown resource is 404', async () => {
      expect((await get('/nonsense')).status).toBe(404);
      expect((await get('/namespaces/a/services/web/nonsense')).status).toBe(404);
    });
  });

  describe('changes', () => {
    it('lists every write to a name, across incarnations, with actor, events and patch', async () => {
      const res = await get('/namespaces/a/services/web/changes');
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ kind: 'ServiceChangeList', apiVersion: 'history.svctrail.io/v1alpha1' });
      const items = res.json.items;
      expect(items.map((i: any) => Number(i.metadata.resourceVersion))).toEqual(['create', 'assign', 'flip0', 'flip1', 'flip2', 'flip3', 'label', 'delete', 'recreate', 'assign2'].map((k) => rv[k]));
      expect(new Set(items.map((i: any) => i.service.uid))).toEqual(new Set([firstUid, secondUid]));
      const flip0 = items[2];
      expect(flip0).toMatchObject({
        kind: 'ServiceChange',
        metadata: { namespace: 'a', resourceVersion: String(rv.flip0), creationTimestamp: iso(at.flip0).replace('.000Z', 'Z') },
        service: { namespace: 'a', name: 'web', uid: firstUid },
        time: iso(at.flip0),
        verb: 'update',
        subresource: 'status',
        actor: { user: 'bob', groups: ['system:authenticated'], userAgent: 'cloud-lb/1.0', fieldManager: 'cloud-lb' },
      });
      expect(flip0.actor.requestId).toEqual(expect.any(String));
      // The condition flip, and cloud-lb's managedFields entry moving to the write's time.
      expect(flip0.events.map((e: any) => e.type)).toEqual(['ServiceConditionChanged', 'ServiceManagedFieldsChanged']);
      expect(flip0.patch).toEqual(expect.arrayContaining([{ op: 'replace', path: '/status/conditions/0/status', value: 'True' }]));
      expect(items[1].actor).toMatchObject({ user: 'alice', groups: ['lb-controllers', 'system:authenticated'] });
      expect(items[7].events.map((e: any) => e.type)).toContain('ServiceDeleted');
      expect(items[7].patch).toEqual([{ op: 'replace', path: '', value: null }]);
    });

    it('patches replay each incarnation: applied in order from nothing, they give the objects the API returned', async () => {
      const items = (await get('/namespaces/a/services/web/changes')).json.items;
      let doc: unknown = null;
      for (const item of items) {
        if (item.events.some((e: any) => e.type === 'ServiceCreated')) expect(doc).toBeNull();
        doc = applyPatch(deepClone(doc), item.patch, true, false).newDocument;
      }
      expect(doc).toEqual((await t.client.get('/api/v1/namespaces/a/services/web')).json);
    });

    it('filters by uid, actor, event type, field manager, time and resourceVersion', async () => {
      const rvs = async (query: string, path = '/namespaces/a/services/web/changes') => (await get(`${path}?${query}`)).json.items.map((i: any) => Number(i.metadata.resourceVersion));
      expect(await rvs(`uid=${secondUid}`)).toEqual([rv.recreate, rv.assign2]);
      expect(await rvs('actor=bob', '/changes')).toEqual([rv.flip0, rv.flip2, rv.assign2]);
      expect(await rvs('eventType=LoadBalancerIngressChanged', '/changes')).toEqual([rv.assign, rv.assignApi, rv.assign2]);
      expect(await rvs('fieldManager=metallb', '/namespaces/b/changes')).toEqual([rv.assignApi]);
      expect(await rvs(`since=${iso(at.flip1)}&until=${iso(at.flip3)}`)).toEqual([rv.flip1, rv.flip2, rv.flip3]);
      // Times with offsets and without milliseconds are the same instants.
      expect(await rvs(`since=${encodeURIComponent('2026-03-01T01:05:00+01:00')}`)).toEqual(await rvs(`since=${iso(START + 5 * 60_000)}`));
      expect(await rvs(`sinceResourceVersion=${rv.label}&untilResourceVersion=${rv.recreate}`)).toEqual([rv.label, rv.delete, rv.recreate]);
      expect(await rvs(`actor=alice&eventType=ServiceConditionChanged`, '/namespaces/a/changes')).toEqual([rv.assign, rv.flip1, rv.flip3]);
    });

    it('namespace and cluster scopes', async () => {
      const b = (await get('/namespaces/b/changes')).json.items;
      expect(b.map((i: any) => i.service.name)).toEqual(['api', 'api']);
      const all = (await get('/changes')).json;
      expect(all.items.length).toBeGreaterThanOrEqual(12);
      expect(Number(all.metadata.resourceVersion)).toBe(rv.assign2);
    });

    it('pages with limit/continue over one snapshot, and rejects a token from another query', async () => {
      const whole = (await get('/changes')).json.items;
      const seen: any[] = [];
      let token: string | undefined;
      let first = true;
      do {
        const page = await get(`/changes?limit=3${token ? `&continue=${token}` : ''}`);
        expect(page.status).toBe(200);
        seen.push(...page.json.items);
        token = page.json.metadata.continue;
        if (first) {
          // A write between pages is not seen by the later pages of this list.
          t.clock.advance(1000);
          await t.client.post('/api/v1/namespaces/c/services', { metadata: { name: 'late' }, spec: LB });
          first = false;
        }
      } while (token);
      expect(seen).toEqual(whole);
      const page = (await get('/changes?limit=2')).json;
      expect((await get(`/changes?limit=2&continue=${page.metadata.continue}&actor=bob`)).status).toBe(400);
      const other = await get(`/namespaces/a/changes?limit=2&continue=${page.metadata.continue}`);
      expect(other.status).toBe(400);
      expect(other.json).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
      expect(other.json.message).toContain('different query');
      expect((await get(`/conditiontransitions?continue=${page.metadata.continue}`)).json.message).toContain('different query');
      expect((await get('/changes?continue=not*base64')).status).toBe(400);
      expect((await get(`/changes?continue=${Buffer.from('{"v":"meta.k8s.io/v1","rv":3}').toString('base64url')}`)).status).toBe(400);
    });

    it('answers YAML when asked', async () => {
      const res = await get('/namespaces/b/changes', 'application/yaml');
      expect(res.headers['content-type']).toBe('application/yaml');
      const doc = parseYaml(res.text);
      expect(doc.kind).toBe('ServiceChangeList');
      expect(doc.items[0].service.name).toBe('api');
    });
  });

  describe('bad input', () => {
    it.each([
      ['/changes?colour=red', 'unknown query parameter "colour"'],
      ['/changes?since=yesterday', 'invalid since "yesterday"'],
      ['/changes?since=2026-03-01', 'must be an RFC 3339 time'],
      ['/changes?sinceResourceVersion=abc', 'invalid sinceResourceVersion'],
      ['/changes?eventType=Exploded', 'must be one of'],
      ['/changes?limit=-1', 'invalid limit'],
      ['/changes?since=2026-03-02T00:00:00Z&until=2026-03-01T00:00:00Z', 'is after until'],
      ['/changes?sinceResourceVersion=5&untilResourceVersion=4', 'is after untilResourceVersion'],
      ['/changes?actor=a&actor=b', 'more than once'],
      ['/conditionsummaries?flapWindow=soon', 'invalid flapWindow'],
      ['/ingressowners', 'needs an address'],
      ['/ingressowners?address=1.2.3.4&at=2026-03-01T00:00:00Z&from=2026-03-01T00:00:00Z', 'either at'],
      ['/ingressowners?address=1.2.3.4&from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', 'is after to'],
      ['/ingressintervals?addressType=ipv9', 'must be one of ip, hostname'],
      ['/feed?after=x', 'invalid after'],
    ])('%s is a 400 Status', async (path, message) => {
      const res = await get(path);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'BadRequest', code: 400 });
      expect(res.json.message).toContain(message);
    });

    it.each(['/changes?sinceResourceVersion=999999', '/conditiontransitions?untilResourceVersion=999999', '/ingressintervals?sinceResourceVersion=999999', '/feed?after=999999'])(
      '%s: a too-new resourceVersion is kube-apiserver’s 504',
      async (path) => {
        const res = await get(path);
        const head = Number((await get('/changes?limit=1')).json.metadata.resourceVersion);
        expect(res.status).toBe(504);
        expect(res.json).toMatchObject({ kind: 'Status', reason: 'Timeout', message: `Too large resource version: 999999, current: ${head}` });
      },
    );
  });

  describe('condition audit', () => {
    it('lists every transition with from -> to, reason, when and who', async () => {
      const items = (await get('/namespaces/a/services/web/conditiontransitions')).json.items;
      expect(items.map((i: any) => [i.fromStatus, i.toStatus, i.actor.user])).toEqual([
        [null, 'False', 'alice'],
        ['False', 'True', 'bob'],
        ['True', 'False', 'alice'],
        ['False', 'True', 'bob'],
        ['True', 'False', 'alice'],
      ]);
      expect(items[1]).toMatchObject({
        kind: 'ConditionTransition',
        service: { uid: firstUid, name: 'web', namespace: 'a' },
        conditionType: 'Ready',
        reason: 'R0',
        message: 'ready is True',
        time: iso(at.flip0),
        metadata: { resourceVersion: String(rv.flip0) },
        actor: { user: 'bob', userAgent: 'cloud-lb/1.0' },
      });
    });

    it('filters by type, status, actor and window; pages', async () => {
      const n = async (q: string) => (await get(`/conditiontransitions?${q}`)).json.items.length;
      expect(await n('status=True')).toBe(2);
      expect(await n('actor=bob&conditionType=Ready')).toBe(2);
      expect(await n('conditionType=Degraded')).toBe(0);
      expect(await n(`since=${iso(at.flip1)}&until=${iso(at.flip2)}`)).toBe(2);
      const p1 = (await get('/namespaces/a/conditiontransitions?limit=4')).json;
      const p2 = (await get(`/namespaces/a/conditiontransitions?limit=4&continue=${p1.metadata.continue}`)).json;
      const whole = (await get('/namespaces/a/conditiontransitions')).json.items;
      expect([...p1.items, ...p2.items]).toEqual(whole);
    });

    it('summarises time in each status, transitions and flapping per Service', async () => {
      const res = await get(`/namespaces/a/services/web/conditionsummaries?uid=${firstUid}`);
      const [summary] = res.json.items;
      expect(res.json.kind).toBe('ConditionSummaryList');
      const [readyCond] = summary.conditions;
      expect(readyCond).toMatchObject({ type: 'Ready', transitions: expect.any(Number), flapping: true, maxTransitionsInFlapWindow: 5 });
      expect(readyCond.secondsInStatus.True).toBe(120);
      expect(summary.deletedAt).toBe(iso(at.delete));
      const calm = (await get(`/namespaces/a/services/web/conditionsummaries?flapThreshold=5`)).json.items;
      expect(calm[0].conditions[0].flapping).toBe(false);
      const windowed = (await get(`/conditionsummaries?since=${iso(at.flip0)}&until=${iso(at.flip2)}`)).json.items;
      expect(windowed[0].conditions[0]).toMatchObject({ secondsInStatus: { True: 60, False: 60 }, transitions: 3, status: 'True' });
      expect((await get('/conditionsummaries?flapping=true')).json.items.map((s: any) => s.service.uid)).toEqual([firstUid]);
      // Booleans read as kube-apiserver reads ?watch=: only 0 and false (any case) are false, a bare name is true.
      for (const on of ['True', '1', '']) expect((await get(`/conditionsummaries?flapping${on === '' ? '' : `=${on}`}`)).json.items.map((s: any) => s.service.uid)).toEqual([firstUid]);
      const calmOnes = (await get('/conditionsummaries?flapping=false')).json.items;
      expect(calmOnes.map((s: any) => s.service.uid)).not.toContain(firstUid);
      for (const off of ['FALSE', '0']) expect((await get(`/conditionsummaries?flapping=${off}`)).json.items).toEqual(calmOnes);
      expect((await get('/namespaces/b/conditionsummaries')).json.items).toEqual([]);
    });
  });

  describe('ingress history', () => {
    it('lists intervals with who set and who cleared each address', async () => {
      const items = (await get('/ingressintervals')).json.items;
      expect(items.map((i: any) => [i.service.namespace, i.address, i.from.setBy, i.to?.clearedBy ?? null])).toEqual([
        ['a', '203.0.113.10', 'alice', 'admin'],
        ['b', '203.0.113.10', 'alice', null],
        ['b', 'lb.example.com', 'alice', null],
        ['a', '203.0.113.20', 'bob', null],
      ]);
      expect(items[0]).toMatchObject({
        kind: 'IngressInterval',
        addressType: 'ip',
        service: { uid: firstUid },
        from: { resourceVersion: String(rv.assign), time: iso(at.assign) },
        to: { resourceVersion: String(rv.delete), time: iso(at.delete) },
      });
      expect((await get('/ingressintervals?addressType=hostname')).json.items.map((i: any) => i.address)).toEqual(['lb.example.com']);
      expect((await get(`/namespaces/a/services/web/ingressintervals?uid=${secondUid}`)).json.items.map((i: any) => i.address)).toEqual(['203.0.113.20']);
      expect((await get('/namespaces/b/ingressintervals?actor=alice&address=lb.example.com')).json.items).toHaveLength(1);
    });

    it('a window selects the intervals held at some moment inside it', async () => {
      const names = async (q: string, path = '/ingressintervals') => (await get(`${path}?${q}`)).json.items.map((i: any) => `${i.service.namespace}/${i.address}`);
      expect(await names(`since=${iso(at.flip0)}&until=${iso(at.flip1)}`)).toEqual(['a/203.0.113.10']);
      expect(await names(`since=${iso(at.recreate)}`)).toEqual(['b/203.0.113.10', 'b/lb.example.com', 'a/203.0.113.20']);
      expect(await names(`since=${iso(at.recreate)}`, '/namespaces/a/ingressintervals')).toEqual(['a/203.0.113.20']);
      expect(await names(`until=${iso(at.flip0)}`)).toEqual(['a/203.0.113.10']);
    });

    it('answers who held an address at a time or during a window', async () => {
      const owners = async (q: string) => (await get(`/ingressowners?address=203.0.113.10&${q}`)).json.items.map((i: any) => `${i.service.namespace}/${i.service.name}`);
      expect(await owners(`at=${iso(at.flip2 + 30_000)}`)).toEqual(['a/web']);
      expect(await owners(`at=${iso(at.assignApi + 30_000)}`)).toEqual(['a/web', 'b/api']);
      expect(await owners(`at=${iso(at.recreate)}`)).toEqual(['b/api']);
      expect(await owners(`at=${iso(START)}`)).toEqual([]);
      expect(await owners(`from=${iso(at.create)}&to=${iso(at.flip0)}`)).toEqual(['a/web']);
      expect(await owners(`from=${iso(at.delete)}`)).toEqual(['b/api']);
      const res = (await get(`/ingressowners?address=203.0.113.10`)).json;
      expect(res.kind).toBe('IngressOwnerList');
      expect(res.items[0]).toMatchObject({ kind: 'IngressOwner', from: { setBy: 'alice' }, service: { uid: firstUid } });
      expect(res.items[0].metadata.namespace).toBeUndefined();
    });

    it('reports the same address on two Services at once as a conflict, from every scope', async () => {
      const conflicts = (await get('/ingressconflicts')).json;
      expect(conflicts.kind).toBe('IngressConflictList');
      expect(conflicts.items).toHaveLength(1);
      expect(conflicts.items[0]).toMatchObject({
        kind: 'IngressConflict',
        address: '203.0.113.10',
        from: { resourceVersion: String(rv.assignApi), time: iso(at.assignApi) },
        to: { resourceVersion: String(rv.delete) },
        holders: [{ service: { namespace: 'a', name: 'web', uid: firstUid } }, { service: { namespace: 'b', name: 'api', uid: apiUid } }],
      });
      for (const path of ['/namespaces/a/ingressconflicts', '/namespaces/b/ingressconflicts', '/namespaces/a/services/web/ingressconflicts', '/namespaces/b/services/api/ingressconflicts']) {
        expect((await get(path)).json.items).toHaveLength(1);
      }
      expect((await get(`/namespaces/a/services/web/ingressconflicts?uid=${secondUid}`)).json.items).toHaveLength(0);
      expect((await get('/ingressconflicts?address=203.0.113.20')).json.items).toHaveLength(0);
      expect((await get(`/ingressconflicts?since=${iso(at.label)}`)).json.items).toHaveLength(0);
    });
  });

  describe('feed', () => {
    it('streams every change after a position as NDJSON and ends at the head', async () => {
      const stream = await t.client.stream(`${H}/feed?after=${rv.delete}`);
      expect(stream.status).toBe(200);
      expect(stream.response.headers['content-type']).toBe('application/x-ndjson');
      const lines = await stream.take(10, 2000);
      expect(lines[0]).toMatchObject({ kind: 'ServiceChange', metadata: { resourceVersion: String(rv.recreate) } });
      expect(lines[1].metadata.resourceVersion).toBe(String(rv.assign2));
      expect(stream.ended).toBe(true);
    });

    it('follows new writes like tail -f', async () => {
      const head = Number((await get('/changes?limit=1')).json.metadata.resourceVersion);
      const stream = await t.client.stream(`${H}/feed?after=${head - 1}&follow=true&timeoutSeconds=10`);
      const [last] = await stream.take(1, 2000);
      expect(Number(last.metadata.resourceVersion)).toBe(head);
      t.clock.advance(1000);
      const created = (await t.client.post('/api/v1/namespaces/feed/services', { metadata: { name: 'tail' }, spec: LB })).json;
      const [next] = await stream.take(1, 2000);
      expect(next).toMatchObject({ service: { namespace: 'feed', name: 'tail', uid: created.metadata.uid }, verb: 'create', metadata: { resourceVersion: created.metadata.resourceVersion } });
      expect(next.patch).toEqual([{ op: 'add', path: '', value: created }]);
      stream.close();
    });

    it('streams a backlog of several pages and chunks whole: every write once, in order', async () => {
      const admin = t.as('admin');
      const from = Number((await get('/changes?limit=1')).json.metadata.resourceVersion);
      const long = 'x'.repeat(400);
      const written = [Number((await admin.post('/api/v1/namespaces/backlog/services', { metadata: { name: 'many' }, spec: LB })).json.metadata.resourceVersion)];
      // 260 writes of over 1 KB each: more than a page of the log (200) and several 64 KB chunks.
      for (let i = 0; i < 260; i++) {
        const object = await putStatus(admin, 'backlog', 'many', { loadBalancer: { ingress: [{ ip: `198.51.100.${i % 250}`, hostname: `${i}.${long}`.slice(0, 253) }] } }, 'bulk');
        written.push(Number(object.metadata.resourceVersion));
      }
      const stream = await t.client.stream(`${H}/feed?after=${from}`);
      const lines = await stream.take(written.length + 1, 10_000);
      expect(lines.map((l) => Number(l.metadata.resourceVersion))).toEqual(written);
      expect(lines.at(-1).patch).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/status/loadBalancer/ingress/0/hostname' })]));
      expect(stream.ended).toBe(true);
    });
  });
});
