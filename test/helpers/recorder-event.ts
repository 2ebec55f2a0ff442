// An Event as client-go's legacy recorder (tools/record makeEvent) POSTs it: about any object
// (a Service, a Pod, a Knative Service), eventTime null, no reportingInstance; and its repeat,
// the strategic-merge PATCH of count, lastTimestamp and message (events_cache.go eventObserve).

export interface InvolvedObject {
  kind: string;
  name: string;
  apiVersion?: string;
}

export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

export function recorderEvent(namespace: string, name: string, about: InvolvedObject, overrides: Record<string, unknown> = {}) {
  return {
    metadata: { name, namespace },
    involvedObject: { kind: about.kind, namespace, name: about.name, apiVersion: about.apiVersion ?? 'v1' },
    reason: 'EnsuringLoadBalancer',
    message: 'Ensuring load balancer',
    source: { component: 'service-controller' },
    firstTimestamp: '2026-12-07T10:00:00Z',
    lastTimestamp: '2026-12-07T10:00:00Z',
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: 'service-controller',
    reportingInstance: '',
    ...overrides,
  };
}

/** The recorder's repeat body: the Event seen `count` times, the last `seconds` after the first. */
export function repeatBody(count: number, seconds = count): string {
  const last = new Date(Date.parse('2026-12-07T10:00:00Z') + seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  return JSON.stringify({ count, lastTimestamp: last, message: `Ensuring load balancer (seen ${count} times)` });
}
