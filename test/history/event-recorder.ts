// Controllers' Events as client-go's legacy recorder sends them over HTTPS (tools/record:
// event.go makeEvent, events_cache.go eventObserve): POST a new Event named
// `<object>.<hex nanoseconds>` with count 1, then a strategic-merge PATCH of exactly count,
// lastTimestamp and message for each repeat. The history tests seed controller Events with it.
import type { HttpsClient } from '../helpers/https-client';

export interface ServiceRef {
  namespace: string;
  name: string;
  uid: string;
  resourceVersion?: string;
}

export interface RecordedEvent {
  name: string;
  resourceVersion: string;
  count: number;
}

/** metav1.Time: seconds precision. */
const seconds = (at: number) => new Date(at).toISOString().replace(/\.\d+Z$/, 'Z');

export class LegacyEventRecorder {
  private readonly seen = new Map<string, { name: string; count: number }>();

  constructor(
    private readonly client: HttpsClient,
    private readonly component: string,
    private readonly userAgent = `${component}/v1.32.0`,
  ) {}

  /** One occurrence at `at` (ms): a POST the first time, a PATCH of the count after. */
  async event(service: ServiceRef, type: 'Normal' | 'Warning', reason: string, message: string, at: number): Promise<RecordedEvent> {
    const key = `${service.uid}/${type}/${reason}/${message}`;
    const events = `/api/v1/namespaces/${service.namespace}/events`;
    const previous = this.seen.get(key);
    if (previous) {
      const count = previous.count + 1;
      const res = await this.client.request('PATCH', `${events}/${previous.name}`, {
        body: { count, lastTimestamp: seconds(at), message },
        contentType: 'application/strategic-merge-patch+json',
        headers: { 'user-agent': this.userAgent },
      });
      if (res.status !== 200) throw new Error(`event PATCH failed: ${res.status} ${res.text}`);
      return this.remember(key, res.json);
    }
    const body = {
      metadata: { name: `${service.name}.${(BigInt(at) * 1_000_000n).toString(16)}`, namespace: service.namespace },
      involvedObject: { kind: 'Service', namespace: service.namespace, name: service.name, uid: service.uid, apiVersion: 'v1', resourceVersion: service.resourceVersion },
      reason,
      message,
      source: { component: this.component },
      firstTimestamp: seconds(at),
      lastTimestamp: seconds(at),
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.component,
      reportingInstance: '',
    };
    const res = await this.client.post(events, body, { headers: { 'user-agent': this.userAgent } });
    if (res.status !== 201) throw new Error(`event POST failed: ${res.status} ${res.text}`);
    return this.remember(key, res.json);
  }

  private remember(key: string, stored: { metadata: { name: string; resourceVersion: string }; count: number }): RecordedEvent {
    this.seen.set(key, { name: stored.metadata.name, count: stored.count });
    return { name: stored.metadata.name, resourceVersion: stored.metadata.resourceVersion, count: stored.count };
  }
}
