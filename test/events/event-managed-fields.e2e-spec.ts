// managedFields and server-side apply on core/v1 Events over HTTPS, as kube-apiserver 1.32 does
// them: the legacy recorder's POST and strategic-merge repeat record an Update entry for
// kube-controller-manager; apply creates (201), conflicts (409 with kube's message and causes)
// and takes over with force; kubectl apply --server-side drives the same.
//
// The recorder's FieldsV1 follows from upstream: client-go tools/record/event.go (makeEvent and
// generateEvent set name, namespace, involvedObject, reason, message, first/lastTimestamp, count,
// type, source and reportingController/Instance from the source), kubernetes/api core/v1/types.go
// (ObjectReference is +structType=atomic, so f:involvedObject is owned whole; reportingComponent
// and reportingInstance have no omitempty, eventTime is a zero MicroTime), apimachinery
// managedfields/internal/stripmeta.go (name and namespace are never owned) and
// structured-merge-diff typed/compare.go: the creator owns what differs from the empty Event, so
// not eventTime (null in both) nor reportingInstance ("" in both).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findKubectl, kubectl } from '../helpers/kubectl';
import { describeEachBackend } from '../helpers/storage-backends';
import { startTestServer, type TestServer } from '../helpers/test-server';

const NS = 'mf';
const EVENTS = `/api/v1/namespaces/${NS}/events`;
const SMP = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';
/** What kube-controller-manager's client sends; the manager is its product, up to the first `/`. */
const KCM = { 'user-agent': 'kube-controller-manager/v1.32.0 (linux/amd64) kubernetes/70d3cc9/system:serviceaccount:kube-system:service-controller' };

const RECORDER_FIELDS = {
  'f:count': {},
  'f:firstTimestamp': {},
  'f:involvedObject': {},
  'f:lastTimestamp': {},
  'f:message': {},
  'f:reason': {},
  'f:reportingComponent': {},
  'f:source': { 'f:component': {} },
  'f:type': {},
};

function recorderEvent(name: string, at: string) {
  return {
    metadata: { name, namespace: NS },
    involvedObject: { kind: 'Service', namespace: NS, name: 'web', uid: 'svc-uid', apiVersion: 'v1', resourceVersion: '1' },
    reason: 'EnsuringLoadBalancer',
    message: 'Ensuring load balancer',
    source: { component: 'service-controller' },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: 'service-controller',
    reportingInstance: '',
  };
}

const appliedEvent = (name: string, fields: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: NS }, ...fields });
const owners = (event: any): string[] => (event.metadata.managedFields ?? []).map((e: any) => `${e.manager}/${e.operation}/${e.apiVersion}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

describeEachBackend('managedFields and server-side apply on core/v1 Events', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await backend.start();
  });
  afterAll(async () => t.stop());

  const apply = (name: string, body: object, query = 'fieldManager=ops') => t.client.request('PATCH', `${EVENTS}/${name}?${query}`, { body: JSON.stringify(body), contentType: APPLY });

  it("given the legacy recorder, when it POSTs an Event and then patches its repeat, then one Update entry for kube-controller-manager owns what kube-apiserver's would", async () => {
    const created = await t.client.post(EVENTS, recorderEvent('web.1880000000000001', now()), { headers: KCM });
    expect(created.status).toBe(201);
    expect(created.json.metadata.managedFields).toEqual([
      { manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: created.json.metadata.creationTimestamp, fieldsType: 'FieldsV1', fieldsV1: RECORDER_FIELDS },
    ]);
    await sleep(1100);
    const repeat = await t.client.request('PATCH', `${EVENTS}/web.1880000000000001`, {
      body: JSON.stringify({ count: 2, lastTimestamp: now(), message: 'Ensuring load balancer again' }),
      contentType: SMP,
      headers: KCM,
    });
    expect(repeat.status).toBe(200);
    const [entry] = repeat.json.metadata.managedFields;
    expect(repeat.json.metadata.managedFields).toHaveLength(1);
    expect(entry).toMatchObject({ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', fieldsV1: RECORDER_FIELDS });
    // The repeat changed fields the recorder owns: its entry's time moves.
    expect(Date.parse(entry.time)).toBeGreaterThan(Date.parse(created.json.metadata.managedFields[0].time));
    expect((await t.client.get(`${EVENTS}/web.1880000000000001`)).json.metadata.managedFields).toEqual(repeat.json.metadata.managedFields);
  });

  it('given an Event, when the same patch is sent again a second later, then it stays a no-op: same resourceVersion, same managedFields', async () => {
    const at = now();
    await t.client.post(EVENTS, recorderEvent('web.1880000000000002', at), { headers: KCM });
    const patch = { body: JSON.stringify({ count: 2, lastTimestamp: at }), contentType: SMP, headers: KCM };
    const first = await t.client.request('PATCH', `${EVENTS}/web.1880000000000002`, patch);
    await sleep(1100);
    const again = await t.client.request('PATCH', `${EVENTS}/web.1880000000000002`, patch);
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
    expect(again.json.metadata.managedFields).toEqual(first.json.metadata.managedFields);
  });

  it('given another manager, when it changes the message with a merge patch, then the message moves to it', async () => {
    await t.client.post(EVENTS, recorderEvent('web.1880000000000003', now()), { headers: KCM });
    const edited = await t.client.request('PATCH', `${EVENTS}/web.1880000000000003?fieldManager=kubectl-edit`, {
      body: JSON.stringify({ message: 'edited' }),
      contentType: 'application/merge-patch+json',
    });
    expect(edited.status).toBe(200);
    expect(owners(edited.json)).toEqual(['kube-controller-manager/Update/v1', 'kubectl-edit/Update/v1']);
    const { 'f:message': _moved, ...rest } = RECORDER_FIELDS;
    expect(edited.json.metadata.managedFields.map((e: any) => e.fieldsV1)).toEqual([rest, { 'f:message': {} }]);
  });

  it('given no Event, when applied, then 201 with an Apply entry owning exactly the configuration; applying again changes nothing', async () => {
    const config = appliedEvent('web.1880000000000004', { involvedObject: { kind: 'Service', namespace: NS, name: 'web' }, reason: 'Synced', message: 'in sync', type: 'Normal' });
    const created = await apply('web.1880000000000004', config);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ kind: 'Event', reason: 'Synced', message: 'in sync', reportingComponent: '', reportingInstance: '' });
    expect(created.json.metadata.managedFields).toEqual([
      {
        manager: 'ops',
        operation: 'Apply',
        apiVersion: 'v1',
        time: created.json.metadata.creationTimestamp,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:involvedObject': {}, 'f:message': {}, 'f:reason': {}, 'f:type': {} },
      },
    ]);
    await sleep(1100);
    const again = await apply('web.1880000000000004', config);
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    expect(again.json.metadata.managedFields).toEqual(created.json.metadata.managedFields);
  });

  it("given the recorder's Event, when another manager applies other values, then 409 with kube-apiserver's message and causes; force takes them over", async () => {
    await t.client.post(EVENTS, recorderEvent('web.1880000000000005', now()), { headers: KCM });
    const config = appliedEvent('web.1880000000000005', { message: 'mine', involvedObject: { kind: 'Service', namespace: NS, name: 'web' } });
    const conflict = await apply('web.1880000000000005', config);
    expect(conflict.status).toBe(409);
    expect(conflict.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 2 conflicts: conflicts with "kube-controller-manager" using v1:\n- .involvedObject\n- .message',
      reason: 'Conflict',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "kube-controller-manager" using v1', field: '.involvedObject' },
          { reason: 'FieldManagerConflict', message: 'conflict with "kube-controller-manager" using v1', field: '.message' },
        ],
      },
      code: 409,
    });
    expect((await t.client.get(`${EVENTS}/web.1880000000000005`)).json.message).toBe('Ensuring load balancer');
    const forced = await apply('web.1880000000000005', config, 'fieldManager=ops&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json.message).toBe('mine');
    expect(forced.json.involvedObject).toEqual({ kind: 'Service', namespace: NS, name: 'web' });
    expect(owners(forced.json)).toEqual(['ops/Apply/v1', 'kube-controller-manager/Update/v1']);
    expect(forced.json.metadata.managedFields[1].fieldsV1['f:message']).toBeUndefined();
  });

  it.each([
    ['another kind', 400, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web.1880000000000006' } }, 'invalid object type: /v1, Kind=Service'],
    ['managedFields', 400, appliedEvent('web.1880000000000006', { metadata: { name: 'web.1880000000000006', managedFields: [{ manager: 'x' }] } }), 'metadata.managedFields must be nil'],
    ['another name', 400, appliedEvent('other', { reason: 'X' }), 'the name of the object (other) does not match the name on the URL (web.1880000000000006)'],
    [
      'an invalid Event',
      422,
      appliedEvent('web.1880000000000006', { reason: 'X' }),
      'Event "web.1880000000000006" is invalid: involvedObject.namespace: Invalid value: "": does not match event.namespace',
    ],
  ])('given a configuration with %s, when applied, then %i with a Status', async (_, code, body, message) => {
    const res = await apply('web.1880000000000006', body);
    expect(res.status).toBe(code);
    expect(res.json).toMatchObject({ kind: 'Status', status: 'Failure', code, message });
  });
});

/** What client-go tools/events makeEvent POSTs to events.k8s.io/v1 (no deprecated* field). */
function newRecorderEvent(name: string) {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: NS },
    eventTime: '2026-12-07T10:00:00.123456Z',
    reportingController: 'default-scheduler',
    reportingInstance: 'default-scheduler-node-1',
    action: 'Binding',
    reason: 'Scheduled',
    regarding: { kind: 'Service', namespace: NS, name: 'web', uid: 'svc-uid', apiVersion: 'v1' },
    note: 'Successfully assigned',
    type: 'Normal',
  };
}

describeEachBackend('managedFields and server-side apply on events.k8s.io/v1 Events', (backend) => {
  const V1 = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;
  const SCHEDULER = { 'user-agent': 'kube-scheduler/v1.32.0 (linux/amd64) kubernetes/70d3cc9/scheduler' };
  // events.k8s.io/v1 field names: the entry is recorded in the version written through.
  const NEW_RECORDER_FIELDS = {
    'f:action': {},
    'f:eventTime': {},
    'f:note': {},
    'f:reason': {},
    'f:regarding': {},
    'f:reportingController': {},
    'f:reportingInstance': {},
    'f:type': {},
  };
  let t: TestServer;
  beforeAll(async () => {
    t = await backend.start();
  });
  afterAll(async () => t.stop());

  it("given the events.k8s.io/v1 recorder, when it POSTs, then its entry is recorded under events.k8s.io/v1 in that version's field names, and core/v1 serves the same entry", async () => {
    const created = await t.client.post(V1, newRecorderEvent('web.1880000000000020'), { headers: SCHEDULER });
    expect(created.status).toBe(201);
    expect(created.json.metadata.managedFields).toEqual([
      { manager: 'kube-scheduler', operation: 'Update', apiVersion: 'events.k8s.io/v1', time: created.json.metadata.creationTimestamp, fieldsType: 'FieldsV1', fieldsV1: NEW_RECORDER_FIELDS },
    ]);
    expect((await t.client.get(`${EVENTS}/web.1880000000000020`)).json.metadata.managedFields).toEqual(created.json.metadata.managedFields);
  });

  it("given an Event written through one group, when it is written through the other, then the first group's entries are dropped (kube converts objects, not entries, and each group's type converter lacks the other Event)", async () => {
    await t.client.post(V1, newRecorderEvent('web.1880000000000021'), { headers: SCHEDULER });
    const labelled = await t.client.request('PATCH', `${EVENTS}/web.1880000000000021?fieldManager=kubectl-label`, {
      body: JSON.stringify({ metadata: { labels: { team: 'lb' } } }),
      contentType: 'application/merge-patch+json',
    });
    expect(labelled.status).toBe(200);
    expect(labelled.json.metadata.managedFields).toEqual([
      { manager: 'kubectl-label', operation: 'Update', apiVersion: 'v1', time: expect.any(String), fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } } } },
    ]);
    const back = await t.client.request('PATCH', `${V1}/web.1880000000000021`, {
      body: JSON.stringify({ series: { count: 2, lastObservedTime: '2026-12-07T10:00:05.000000Z' } }),
      contentType: SMP,
      headers: SCHEDULER,
    });
    expect(back.status).toBe(200);
    expect(owners(back.json)).toEqual(['kube-scheduler/Update/events.k8s.io/v1']);
    expect(back.json.metadata.managedFields[0].fieldsV1).toEqual({ 'f:series': { '.': {}, 'f:count': {}, 'f:lastObservedTime': {} } });
  });

  it('given an events.k8s.io/v1 configuration, when applied there, then 201 and an Apply entry of events.k8s.io/v1; a core/v1 configuration is 400 there', async () => {
    const applied = await t.client.request('PATCH', `${V1}/web.1880000000000022?fieldManager=ops`, { body: JSON.stringify(newRecorderEvent('web.1880000000000022')), contentType: APPLY });
    expect(applied.status).toBe(201);
    expect(applied.json).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'Successfully assigned' });
    expect(applied.json.metadata.managedFields).toEqual([
      { manager: 'ops', operation: 'Apply', apiVersion: 'events.k8s.io/v1', time: applied.json.metadata.creationTimestamp, fieldsType: 'FieldsV1', fieldsV1: NEW_RECORDER_FIELDS },
    ]);
    const core = await t.client.request('PATCH', `${V1}/web.1880000000000022?fieldManager=ops`, { body: JSON.stringify(appliedEvent('web.1880000000000022', { reason: 'X' })), contentType: APPLY });
    expect(core.status).toBe(400);
    expect(core.json).toMatchObject({ kind: 'Status', code: 400, reason: 'BadRequest', message: 'invalid object type: /v1, Kind=Event' });
  });
});

const binary = findKubectl();

if (!binary) {
  process.stdout.write('SKIPPED kubectl apply --server-side of an Event: no kubectl on the PATH\n');
  it.skip('kubectl apply --server-side of an Event: no kubectl on the PATH', () => undefined);
} else {
  describe('kubectl apply --server-side of a core/v1 Event', () => {
    let t: TestServer;
    let dir: string;
    beforeAll(async () => {
      t = await startTestServer();
      dir = mkdtempSync(join(tmpdir(), 'svctrail-event-ssa-'));
    });
    afterAll(async () => {
      await t.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const file = (name: string, message: string) => {
      const path = join(dir, `${name}.yaml`);
      writeFileSync(
        path,
        `apiVersion: v1
kind: Event
metadata:
  name: ${name}
  namespace: ${NS}
involvedObject:
  kind: Service
  namespace: ${NS}
  name: web
reason: Rotated
message: ${message}
type: Normal
`,
      );
      return path;
    };
    const k = (...args: string[]) => kubectl(binary, t.server.kubeconfigPath, [`--cache-dir=${join(dir, 'cache')}`, ...args]);

    it('given an Event file, when applied server-side, then created and owned by kubectl; a conflicting apply by another manager fails; --force-conflicts takes the message over', async () => {
      const created = await k('apply', '--server-side', '-f', file('web.1880000000000010', 'first'));
      expect(created.stderr).toBe('');
      expect(created.stdout.trim()).toBe('event/web.1880000000000010 serverside-applied');
      const stored = (await t.client.get(`${EVENTS}/web.1880000000000010`)).json;
      expect(stored.metadata.managedFields).toEqual([
        {
          manager: 'kubectl',
          operation: 'Apply',
          apiVersion: 'v1',
          time: stored.metadata.creationTimestamp,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:involvedObject': {}, 'f:message': {}, 'f:reason': {}, 'f:type': {} },
        },
      ]);

      const conflict = await k('apply', '--server-side', '--field-manager=rotator', '-f', file('web.1880000000000010', 'second'));
      expect(conflict.status).toBe(1);
      expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .message');
      expect((await t.client.get(`${EVENTS}/web.1880000000000010`)).json.message).toBe('first');

      const forced = await k('apply', '--server-side', '--field-manager=rotator', '--force-conflicts', '-f', file('web.1880000000000010', 'second'));
      expect(forced.stderr).toBe('');
      expect(forced.status).toBe(0);
      const after = (await t.client.get(`${EVENTS}/web.1880000000000010`)).json;
      expect(after.message).toBe('second');
      expect(after.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.fieldsV1])).toEqual([
        ['kubectl', 'Apply', { 'f:involvedObject': {}, 'f:reason': {}, 'f:type': {} }],
        ['rotator', 'Apply', { 'f:involvedObject': {}, 'f:message': {}, 'f:reason': {}, 'f:type': {} }],
      ]);
    });
  });
}
