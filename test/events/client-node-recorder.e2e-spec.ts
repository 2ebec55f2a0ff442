// @kubernetes/client-node, unchanged, doing what client-go's legacy event recorder does
// (tools/record: events_cache.go, event.go recordEvent): POST an Event named
// `<object>.<hex nanoseconds>`, then strategic-merge PATCH only count, lastTimestamp and message as
// it repeats; when the PATCH finds nothing (404), POST it again with the count it reached. An
// informer on Events sees the adds and updates.
import * as k8s from '@kubernetes/client-node';
import { kubeConfigFor } from '../helpers/client-node';
import { describeEachBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

const namespace = 'rec';
const waitFor = async (check: () => boolean, ms = 30_000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** The recorder's correlator, reduced to what reaches the server: one Event per key, then PATCHes. */
class LegacyRecorder {
  private readonly seen = new Map<string, { name: string; count: number; firstTimestamp: Date }>();
  constructor(
    private readonly api: k8s.CoreV1Api,
    private readonly component: string,
  ) {}

  async event(involved: k8s.V1ObjectReference, type: string, reason: string, message: string, at: Date): Promise<k8s.CoreV1Event> {
    const key = `${involved.uid}/${type}/${reason}/${message}`;
    const previous = this.seen.get(key);
    if (previous) {
      previous.count++;
      try {
        return this.remember(
          key,
          await this.api.patchNamespacedEvent(
            { name: previous.name, namespace: involved.namespace!, body: { count: previous.count, lastTimestamp: at, message } },
            k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
          ),
        );
      } catch (error) {
        // 404: the Event is gone (expired or deleted); anything else drops the event, as client-go does.
        if ((error as { code?: number }).code !== 404) throw error;
        return this.remember(key, await this.create(involved, type, reason, message, previous.name, previous.count, previous.firstTimestamp, at));
      }
    }
    // util.GenerateEventName: the object's name and the time in hex nanoseconds.
    const name = `${involved.name}.${(BigInt(at.getTime()) * 1_000_000n).toString(16)}`;
    return this.remember(key, await this.create(involved, type, reason, message, name, 1, at, at));
  }

  private create(involved: k8s.V1ObjectReference, type: string, reason: string, message: string, name: string, count: number, first: Date, last: Date): Promise<k8s.CoreV1Event> {
    return this.api.createNamespacedEvent({
      namespace: involved.namespace!,
      body: {
        metadata: { name, namespace: involved.namespace },
        involvedObject: involved,
        reason,
        message,
        source: { component: this.component },
        firstTimestamp: first,
        lastTimestamp: last,
        count,
        type,
        reportingComponent: this.component,
        reportingInstance: '',
      },
    });
  }

  private remember(key: string, stored: k8s.CoreV1Event): k8s.CoreV1Event {
    // Name and first time come from the server's answer (the recorder's LRU is fed by it).
    this.seen.set(key, { name: stored.metadata.name!, count: stored.count ?? 1, firstTimestamp: stored.firstTimestamp! });
    return stored;
  }
}

describeEachBackend('@kubernetes/client-node as an event recorder', (backend) => {
  let t: TestServer;
  let api: k8s.CoreV1Api;
  let kc: k8s.KubeConfig;
  beforeAll(async () => {
    t = await backend.start();
    kc = kubeConfigFor(t);
    api = kc.makeApiClient(k8s.CoreV1Api);
  });
  afterAll(async () => t.stop());

  it('creates, repeats by PATCH, falls back to POST after a 404, and an informer sees it all', async () => {
    const svc = await api.createNamespacedService({ namespace, body: { metadata: { name: 'web' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } } });
    const involved: k8s.V1ObjectReference = { kind: 'Service', namespace, name: 'web', uid: svc.metadata!.uid, apiVersion: 'v1', resourceVersion: svc.metadata!.resourceVersion };
    const seen: string[] = [];
    const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${namespace}/events`, () => api.listNamespacedEvent({ namespace }));
    informer.on('add', (e) => seen.push(`add ${e.reason} ${e.count}`));
    informer.on('update', (e) => seen.push(`update ${e.reason} ${e.count}`));
    informer.on('delete', (e) => seen.push(`delete ${e.reason}`));
    await informer.start();
    try {
      const recorder = new LegacyRecorder(api, 'service-controller');
      const t0 = new Date('2026-12-07T10:00:00Z');
      const first = await recorder.event(involved, 'Warning', 'SyncLoadBalancerFailed', 'quota exceeded', t0);
      expect(first.count).toBe(1);
      const second = await recorder.event(involved, 'Warning', 'SyncLoadBalancerFailed', 'quota exceeded', new Date(t0.getTime() + 5000));
      expect(second).toMatchObject({ count: 2, metadata: { name: first.metadata.name, uid: first.metadata.uid } });
      expect(second.lastTimestamp).toEqual(new Date(t0.getTime() + 5000));
      expect(second.firstTimestamp).toEqual(t0);
      // Gone (an operator deleted it): the next repeat's PATCH is 404, and the recorder POSTs it anew.
      await api.deleteNamespacedEvent({ name: first.metadata.name!, namespace });
      const third = await recorder.event(involved, 'Warning', 'SyncLoadBalancerFailed', 'quota exceeded', new Date(t0.getTime() + 9000));
      expect(third.count).toBe(3);
      expect(third.metadata.uid).not.toBe(first.metadata.uid);
      await waitFor(() => seen.length >= 5);
      // The derived Event of the Service's creation comes first (the informer lists both kinds).
      expect(seen).toEqual(['add Created 1', 'add SyncLoadBalancerFailed 1', 'update SyncLoadBalancerFailed 2', 'delete SyncLoadBalancerFailed', 'add SyncLoadBalancerFailed 3']);
      const listed = await api.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.uid=${svc.metadata!.uid},type=Warning` });
      expect(listed.items.map((e) => [e.reason, e.count])).toEqual([['SyncLoadBalancerFailed', 3]]);
    } finally {
      await informer.stop();
    }
  });
});
