// The Events history end to end: controllers' Events written over HTTPS as client-go's recorders
// write them (a POST, then strategic-merge PATCHes of the count; one in the events.k8s.io shape
// with eventTime and a series), deleted, expired by --event-ttl; then
// …/services/NAME/events, …/namespaces/NS/events and …/events with every filter, page and error,
// and the change feed's EventOccurrence lines, caught up and live.
import { parse as parseYaml } from 'yaml';
import { describeEachBackend } from '../helpers/storage-backends';
import { LegacyEventRecorder } from './event-recorder';
import { type HistoryTestServer, putStatus, startHistoryTestServer } from './history-test-server';

const H = '/apis/history.svctrail.io/v1alpha1';
const LB = { type: 'LoadBalancer', ports: [{ port: 80 }] };
const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => iso(ms).replace(/\.\d+Z$/, 'Z');
const micro = (ms: number) => iso(ms).replace(/Z$/, '000Z');

describeEachBackend('history.svctrail.io events', (backend) => {
  let t: HistoryTestServer;
  const rv: Record<string, number> = {};
  const at: Record<string, number> = {};
  let firstUid: string;
  let secondUid: string;
  let warningName: string;
  /** The Event in the events.k8s.io shape as the API answered its POST. */
  let seriesEvent: any;

  const step = async (label: string, write: () => Promise<{ resourceVersion: string } | { metadata: { resourceVersion: string } }>) => {
    t.clock.advance(60_000);
    at[label] = t.clock.now().getTime();
    const written = await write();
    rv[label] = Number('metadata' in written ? written.metadata.resourceVersion : written.resourceVersion);
  };
  const get = (path: string, accept?: string) => t.client.get(`${H}${path}`, accept ? { accept } : {});
  const rvs = async (path: string) => {
    const res = await get(path);
    expect([path, res.status]).toEqual([path, 200]);
    return res.json.items.map((i: any) => Number(i.metadata.resourceVersion));
  };

  beforeAll(async () => {
    t = await startHistoryTestServer([{ name: 'metallb', groups: ['lb-controllers'] }, { name: 'cloud' }, { name: 'kubelet' }, { name: 'repair' }], backend.start);
    const admin = t.as('admin');
    const metallb = new LegacyEventRecorder(t.as('metallb'), 'metallb-controller', 'metallb-controller/v0.14.9');
    const cloud = new LegacyEventRecorder(t.as('cloud'), 'service-controller', 'cloud-controller-manager/v1.32.0');
    let web: any;
    await step('create', async () => (web = (await admin.post('/api/v1/namespaces/a/services', { metadata: { name: 'web' }, spec: LB })).json));
    firstUid = web.metadata.uid;
    const service = { namespace: 'a', name: 'web', uid: firstUid, resourceVersion: web.metadata.resourceVersion };
    await step('ensuring', () => cloud.event(service, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer', t.clock.now().getTime()));
    await step('failed', async () => {
      const e = await cloud.event(service, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer: quota exceeded', t.clock.now().getTime());
      warningName = e.name;
      return e;
    });
    await step('failedAgain', () => cloud.event(service, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer: quota exceeded', t.clock.now().getTime()));
    await step('allocated', () => metallb.event(service, 'Normal', 'IPAllocated', 'Assigned IP ["203.0.113.10"]', t.clock.now().getTime()));
    await step('assign', () => putStatus(t.as('metallb'), 'a', 'web', { loadBalancer: { ingress: [{ ip: '203.0.113.10' }] } }, 'metallb-controller/v0.14.9'));
    // A Pod of the same name in the same namespace: its Events are not the Service's.
    await step('pod', async () => {
      const res = await t.as('kubelet').post('/api/v1/namespaces/a/events', {
        metadata: { name: 'web.pod1', namespace: 'a' },
        involvedObject: { kind: 'Pod', namespace: 'a', name: 'web', uid: 'pod-uid', apiVersion: 'v1' },
        reason: 'Started',
        message: 'Started container web',
        source: { component: 'kubelet', host: 'node-1' },
        firstTimestamp: seconds(t.clock.now().getTime()),
        lastTimestamp: seconds(t.clock.now().getTime()),
        count: 1,
        type: 'Normal',
        reportingComponent: '',
        reportingInstance: '',
      });
      expect(res.status).toBe(201);
      return res.json;
    });
    // The events.k8s.io recorder's shape, through core/v1: eventTime, a series, an action.
    await step('series', async () => {
      const now = t.clock.now().getTime();
      const res = await t.as('repair').post('/api/v1/namespaces/a/events', {
        metadata: { name: `web.${(BigInt(now) * 1_000_000n).toString(16)}`, namespace: 'a' },
        involvedObject: { kind: 'Service', namespace: 'a', name: 'web', uid: firstUid, apiVersion: 'v1' },
        reason: 'ClusterIPNotAllocated',
        message: 'Cluster IP [IPv4]: 10.96.0.10 is not allocated; repairing',
        source: {},
        firstTimestamp: null,
        lastTimestamp: null,
        type: 'Warning',
        eventTime: micro(now - 30_000),
        series: { count: 3, lastObservedTime: micro(now) },
        action: 'ClusterIPAllocation',
        reportingComponent: 'ipallocator-repair-controller',
        reportingInstance: 'ipallocator-repair-controller-cp-1',
      });
      expect(res.status).toBe(201);
      seriesEvent = res.json;
      return res.json;
    });
    await step('deleteEvent', async () => {
      const res = await admin.delete(`/api/v1/namespaces/a/events/${warningName}`);
      expect(res.status).toBe(200);
      return { resourceVersion: (await admin.get('/api/v1/namespaces/a/events?limit=1')).json.metadata.resourceVersion };
    });
    await step('delete', async () => {
      await admin.delete('/api/v1/namespaces/a/services/web');
      return { resourceVersion: (await admin.get('/api/v1/services?limit=1')).json.metadata.resourceVersion };
    });
    await step('recreate', async () => (web = (await admin.post('/api/v1/namespaces/a/services', { metadata: { name: 'web' }, spec: LB })).json));
    secondUid = web.metadata.uid;
    await step('ensuringAgain', () => cloud.event({ namespace: 'a', name: 'web', uid: secondUid }, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer', t.clock.now().getTime()));
    let api: any;
    await step('createApi', async () => (api = (await admin.post('/api/v1/namespaces/b/services', { metadata: { name: 'api' }, spec: LB })).json));
    await step('apiFailed', () =>
      metallb.event({ namespace: 'b', name: 'api', uid: api.metadata.uid }, 'Warning', 'AllocationFailed', 'Failed to allocate IP for "b/api": no available IPs', t.clock.now().getTime()),
    );
  });
  afterAll(async () => t?.stop());

  it('is listed in discovery as EventOccurrence', async () => {
    const list = (await get('')).json;
    expect(list.resources.find((r: any) => r.name === 'events')).toEqual({
      name: 'events',
      singularName: 'event',
      namespaced: true,
      kind: 'EventOccurrence',
      verbs: ['list'],
      categories: ['history'],
    });
  });

  it("lists every write of the Service's Events across its incarnations, oldest first, with what each said and who wrote it", async () => {
    const res = await get('/namespaces/a/services/web/events');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ kind: 'EventOccurrenceList', apiVersion: 'history.svctrail.io/v1alpha1', metadata: { resourceVersion: String(rv.apiFailed) } });
    const items = res.json.items;
    expect(items.map((i: any) => Number(i.metadata.resourceVersion))).toEqual(['ensuring', 'failed', 'failedAgain', 'allocated', 'series', 'deleteEvent', 'ensuringAgain'].map((k) => rv[k]));
    expect(items.map((i: any) => [i.happened, i.type, i.reason])).toEqual([
      ['created', 'Normal', 'EnsuringLoadBalancer'],
      ['created', 'Warning', 'SyncLoadBalancerFailed'],
      ['repeated', 'Warning', 'SyncLoadBalancerFailed'],
      ['created', 'Normal', 'IPAllocated'],
      ['created', 'Warning', 'ClusterIPNotAllocated'],
      ['deleted', 'Warning', 'SyncLoadBalancerFailed'],
      ['created', 'Normal', 'EnsuringLoadBalancer'],
    ]);
    // A repeat as the legacy recorder sends it: a PATCH of the count, the last time and the message.
    expect(items[2]).toEqual({
      kind: 'EventOccurrence',
      apiVersion: 'history.svctrail.io/v1alpha1',
      metadata: { name: `${warningName}.${rv.failedAgain}`, namespace: 'a', resourceVersion: String(rv.failedAgain), creationTimestamp: seconds(at.failedAgain) },
      time: iso(at.failedAgain),
      happened: 'repeated',
      verb: 'patch',
      event: { namespace: 'a', name: warningName, uid: items[1].event.uid },
      involvedObject: { kind: 'Service', namespace: 'a', name: 'web', uid: firstUid, apiVersion: 'v1', resourceVersion: String(rv.create) },
      type: 'Warning',
      reason: 'SyncLoadBalancerFailed',
      message: 'Error syncing load balancer: quota exceeded',
      count: 2,
      firstSeen: seconds(at.failed),
      lastSeen: seconds(at.failedAgain),
      reportingController: 'service-controller',
      reportingInstance: '',
      action: '',
      expiresAt: iso(at.failedAgain + 3_600_000),
      actor: { user: 'cloud', groups: ['system:authenticated'], userAgent: 'cloud-controller-manager/v1.32.0', fieldManager: 'cloud-controller-manager', requestId: expect.any(String) },
    });
    // The events.k8s.io shape: count from the series, first seen its eventTime, last seen the series' last observation.
    expect(seriesEvent.eventTime).toMatch(/^2026-03-01T00:07:30/);
    expect(items[4]).toMatchObject({
      happened: 'created',
      verb: 'create',
      count: 3,
      firstSeen: seriesEvent.eventTime,
      lastSeen: seriesEvent.series.lastObservedTime,
      reportingController: 'ipallocator-repair-controller',
      reportingInstance: 'ipallocator-repair-controller-cp-1',
      action: 'ClusterIPAllocation',
      actor: { user: 'repair' },
    });
    // A deletion keeps the Event as it was, and has no lease.
    expect(items[5]).toMatchObject({ happened: 'deleted', verb: 'delete', count: 2, actor: { user: 'admin' } });
    expect(items[5].expiresAt).toBeUndefined();
    expect(items[6].involvedObject.uid).toBe(secondUid);
  });

  it('filters by the involved uid, type, reason, reporting controller, time and resourceVersion', async () => {
    const web = '/namespaces/a/services/web/events';
    expect(await rvs(`${web}?uid=${secondUid}`)).toEqual([rv.ensuringAgain]);
    expect(await rvs(`${web}?type=Warning`)).toEqual([rv.failed, rv.failedAgain, rv.series, rv.deleteEvent]);
    expect(await rvs(`${web}?reason=EnsuringLoadBalancer`)).toEqual([rv.ensuring, rv.ensuringAgain]);
    expect(await rvs(`${web}?reportingController=metallb-controller`)).toEqual([rv.allocated]);
    expect(await rvs(`/events?reportingController=metallb-controller&type=Warning`)).toEqual([rv.apiFailed]);
    // The kubelet named itself in source.component only: found by it all the same.
    expect(await rvs(`/namespaces/a/events?reportingController=kubelet`)).toEqual([rv.pod]);
    expect(await rvs(`${web}?since=${iso(at.failedAgain)}&until=${iso(at.series)}`)).toEqual([rv.failedAgain, rv.allocated, rv.series]);
    expect(await rvs(`${web}?since=${encodeURIComponent(iso(at.allocated).replace('Z', '+00:00'))}&until=${iso(at.allocated)}`)).toEqual([rv.allocated]);
    expect(await rvs(`${web}?sinceResourceVersion=${rv.assign}&untilResourceVersion=${rv.recreate}`)).toEqual([rv.series, rv.deleteEvent]);
    expect(await rvs(`${web}?type=Warning&uid=${secondUid}`)).toEqual([]);
  });

  it("namespace scope holds the namespace's Events whatever they are about; the cluster scope all of them", async () => {
    const a = (await get('/namespaces/a/events')).json.items;
    expect(a.map((i: any) => Number(i.metadata.resourceVersion))).toEqual(['ensuring', 'failed', 'failedAgain', 'allocated', 'pod', 'series', 'deleteEvent', 'ensuringAgain'].map((k) => rv[k]));
    expect(a.find((i: any) => i.involvedObject.kind === 'Pod')).toMatchObject({ reportingController: 'kubelet', reportingInstance: 'node-1', count: 1 });
    expect(await rvs('/namespaces/b/events')).toEqual([rv.apiFailed]);
    expect(await rvs('/events')).toEqual([...a.map((i: any) => Number(i.metadata.resourceVersion)), rv.apiFailed]);
    expect(await rvs('/namespaces/b/services/web/events')).toEqual([]);
  });

  it('pages with limit/continue over one snapshot, and answers YAML', async () => {
    const whole = (await get('/events')).json.items;
    const seen: any[] = [];
    let token: string | undefined;
    let first = true;
    do {
      const page = await get(`/events?limit=2${token ? `&continue=${token}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.json.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.items);
      token = page.json.metadata.continue;
      if (first) {
        // An Event written between pages is not seen by the later pages of this list.
        t.clock.advance(1000);
        await new LegacyEventRecorder(t.as('cloud'), 'service-controller').event({ namespace: 'c', name: 'late', uid: 'late-uid' }, 'Normal', 'EnsuringLoadBalancer', 'late', t.clock.now().getTime());
        first = false;
      }
    } while (token);
    expect(seen).toEqual(whole);
    const yaml = await get('/namespaces/b/events', 'application/yaml');
    expect(yaml.headers['content-type']).toBe('application/yaml');
    expect(parseYaml(yaml.text)).toEqual((await get('/namespaces/b/events')).json);
  });

  it.each([
    ['/events?actor=bob', 400, 'unknown query parameter "actor" for events'],
    ['/events?since=yesterday', 400, 'must be an RFC 3339 time'],
    ['/events?sinceResourceVersion=-1', 400, 'a resourceVersion is a non-negative integer'],
    ['/events?since=2026-03-02T00:00:00Z&until=2026-03-01T00:00:00Z', 400, 'is after until'],
    ['/events?type=', 400, 'must not be empty'],
    ['/events?limit=x', 400, 'invalid limit'],
    ['/events?continue=not*base64', 400, 'invalid continue token'],
    ['/events?untilResourceVersion=999999', 504, 'Too large resource version'],
  ])('%s is a %i Status', async (path, code, message) => {
    const res = await get(path);
    expect(res.status).toBe(code);
    expect(res.json).toMatchObject({ kind: 'Status', status: 'Failure', code });
    expect(res.json.message).toContain(message);
  });

  it('a continue token continues only the query that issued it', async () => {
    const page = (await get('/events?limit=1')).json;
    for (const path of [
      `/events?limit=1&type=Warning&continue=${page.metadata.continue}`,
      `/namespaces/a/events?limit=1&continue=${page.metadata.continue}`,
      `/changes?continue=${page.metadata.continue}`,
    ]) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.json.message).toContain('different query');
    }
  });

  it('the feed carries each Event write as an EventOccurrence line, the same item the list serves', async () => {
    const stream = await t.client.stream(`${H}/feed?after=${rv.create}`);
    // Up to the seed's last write (the paging test wrote one more).
    const lines = (await stream.take(rv.apiFailed - rv.create, 5000)).filter((l) => Number(l.metadata.resourceVersion) <= rv.apiFailed);
    expect(lines.map((l) => [l.kind, Number(l.metadata.resourceVersion)])).toEqual(
      ['ensuring', 'failed', 'failedAgain', 'allocated', 'assign', 'pod', 'series', 'deleteEvent', 'delete', 'recreate', 'ensuringAgain', 'createApi', 'apiFailed'].map((k) => [
        ['assign', 'delete', 'recreate', 'createApi'].includes(k) ? 'ServiceChange' : 'EventOccurrence',
        rv[k],
      ]),
    );
    const listed = (await get(`/events?untilResourceVersion=${rv.apiFailed}`)).json.items;
    expect(lines.filter((l) => l.kind === 'EventOccurrence')).toEqual(listed);
    stream.close();
  });

  it('a follower hears of an Event write as it commits, as the list later serves it', async () => {
    const head = Number((await get('/events?limit=1')).json.metadata.resourceVersion);
    const stream = await t.client.stream(`${H}/feed?after=${head}&follow=true&timeoutSeconds=10`);
    t.clock.advance(1000);
    const written = await new LegacyEventRecorder(t.as('metallb'), 'metallb-controller').event(
      { namespace: 'b', name: 'api', uid: 'api-uid' },
      'Normal',
      'IPAllocated',
      'Assigned IP ["203.0.113.11"]',
      t.clock.now().getTime(),
    );
    const [live] = await stream.take(1, 5000);
    stream.close();
    expect(live).toMatchObject({ kind: 'EventOccurrence', happened: 'created', reason: 'IPAllocated', metadata: { resourceVersion: written.resourceVersion } });
    expect(live).toEqual((await get(`/namespaces/b/events?sinceResourceVersion=${written.resourceVersion}`)).json.items[0]);
  });

  it('an Event whose --event-ttl lease ran out is recorded as expired, by kube-apiserver', async () => {
    t.clock.advance(2 * 3_600_000);
    const expired = async () => (await get(`/namespaces/b/events?sinceResourceVersion=${rv.apiFailed}`)).json.items.filter((i: any) => i.happened === 'expired');
    for (let tries = 0; (await expired()).length < 2; tries++) {
      if (tries > 100) throw new Error('the Events of b did not expire');
      await new Promise((r) => setTimeout(r, 100));
    }
    const [first] = await expired();
    expect(first).toMatchObject({ happened: 'expired', verb: 'delete', reason: 'AllocationFailed', count: 1, actor: { user: 'system:apiserver', userAgent: 'svctrail/event-ttl' } });
    expect(first.expiresAt).toBeUndefined();
  });
});
