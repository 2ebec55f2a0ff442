// @kubernetes/client-node's EventsV1Api, unchanged, doing what client-go's newer recorder
// (tools/events) does: POST an events.k8s.io/v1 Event, strategic-merge PATCH its series on the
// second occurrence, and an informer on /apis/events.k8s.io/v1 sees both; CoreV1Api reads the
// same Event in its core/v1 form.
import * as k8s from '@kubernetes/client-node';
import { kubeConfigFor } from '../helpers/client-node';
import { describeEachBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

const namespace = 'cnev';
const waitFor = async (check: () => boolean, ms = 30_000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describeEachBackend('@kubernetes/client-node EventsV1Api', (backend) => {
  let t: TestServer;
  let kc: k8s.KubeConfig;
  let events: k8s.EventsV1Api;
  let core: k8s.CoreV1Api;
  beforeAll(async () => {
    t = await backend.start();
    kc = kubeConfigFor(t);
    events = kc.makeApiClient(k8s.EventsV1Api);
    core = kc.makeApiClient(k8s.CoreV1Api);
  });
  afterAll(async () => t.stop());

  it('creates an Event, patches its series, lists it by regarding, and an informer sees the add and the update', async () => {
    const svc = await core.createNamespacedService({ namespace, body: { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } } });
    const seen: string[] = [];
    const informer = k8s.makeInformer(kc, `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, () =>
      events.listNamespacedEvent({ namespace, fieldSelector: 'reportingController=example.com/lb' }),
    );
    informer.on('add', (e) => seen.push(`add ${e.reason} ${e.series?.count ?? 1}`));
    informer.on('update', (e) => seen.push(`update ${e.reason} ${e.series?.count ?? 1}`));
    await informer.start();
    try {
      // V1MicroTime writes the six fractional digits MicroTime needs.
      const first = new k8s.V1MicroTime('2026-12-07T10:00:00.123Z');
      const created = await events.createNamespacedEvent({
        namespace,
        body: {
          metadata: { name: `web.${(BigInt(first.getTime()) * 1_000_000n).toString(16)}`, namespace },
          eventTime: first,
          reportingController: 'example.com/lb',
          reportingInstance: 'example.com/lb-node-1',
          action: 'Allocate',
          reason: 'IPAllocated',
          regarding: { kind: 'Service', namespace, name: 'web', uid: svc.metadata!.uid, apiVersion: 'v1' },
          note: 'Assigned IP 203.0.113.7',
          type: 'Normal',
        },
      });
      expect(created).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'Event', note: 'Assigned IP 203.0.113.7', reportingController: 'example.com/lb', regarding: { name: 'web' } });
      expect(String(created.eventTime)).toBe('2026-12-07T10:00:00.123000Z');

      const patched = await events.patchNamespacedEvent(
        { name: created.metadata!.name!, namespace, body: { series: { count: 2, lastObservedTime: new k8s.V1MicroTime('2026-12-07T10:00:05Z') } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
      );
      expect(patched.series).toMatchObject({ count: 2 });
      expect(String(patched.series!.lastObservedTime)).toBe('2026-12-07T10:00:05.000000Z');
      expect(patched.metadata!.uid).toBe(created.metadata!.uid);

      const listed = await events.listNamespacedEvent({ namespace, fieldSelector: `regarding.uid=${svc.metadata!.uid},regarding.kind=Service,type=Normal` });
      expect(listed.items.map((e) => [e.reason, e.series?.count])).toEqual([
        ['Created', undefined],
        ['IPAllocated', 2],
      ]);

      const asCore = await core.readNamespacedEvent({ name: created.metadata!.name!, namespace });
      expect(asCore).toMatchObject({ apiVersion: 'v1', message: 'Assigned IP 203.0.113.7', reportingComponent: 'example.com/lb', involvedObject: { name: 'web' }, series: { count: 2 } });

      await waitFor(() => seen.length >= 2);
      expect(seen).toEqual(['add IPAllocated 1', 'update IPAllocated 2']);
    } finally {
      await informer.stop();
    }
  });

  it('given a strict-validation failure, when the Event is created, then the client sees the 422 Status', async () => {
    const error = await events
      .createNamespacedEvent({
        namespace,
        body: { metadata: { name: 'web.bad' }, eventTime: new k8s.V1MicroTime('2026-12-07T10:00:00Z'), regarding: { kind: 'Service', namespace, name: 'web' }, type: 'Normal' },
      })
      .then(
        () => undefined,
        (e: unknown) => e as { code?: number; body?: string },
      );
    expect(error?.code).toBe(422);
    expect(JSON.parse(error!.body!)).toMatchObject({
      reason: 'Invalid',
      message:
        "Event \"web.bad\" is invalid: [reportingController: Required value, reportingController: Invalid value: \"\": name part must be non-empty, reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), reportingInstance: Required value, action: Required value, reason: Required value]",
    });
  });
});
