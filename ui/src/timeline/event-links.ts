// Which ingress change a controller's Event explains (pure). A load-balancer controller reports
// what it did to the load balancer or the address, then writes the status that follows from it:
// the cloud service controller's EnsuredLoadBalancer comes before its status patch, MetalLB's
// IPAllocated before its status update. The rule, all of it:
//   - the Event reports that work: its reason is one of EXPLAINING_REASONS;
//   - it is a creation or a repeat of the Event (its deletion or expiry reports nothing new);
//   - the change is a write with a LoadBalancerIngressChanged to the same Service incarnation
//     (the Event's involvedObject.uid; its namespace and name when it names no uid);
//   - it is the first such change after the Event's write (a higher resourceVersion), and was
//     recorded at most LINK_WINDOW_MS after it;
//   - a change is explained by one Event at most: the latest one that qualifies (a later report
//     of the same work supersedes an earlier one).
import { changeSummary, type EventItem } from './change-summary';

/** Reasons of Events that report setting up or taking down a load balancer or its address. */
export const EXPLAINING_REASONS: ReadonlySet<string> = new Set([
  // k8s.io/cloud-provider's service controller (kube-vip-cloud-provider runs it too).
  'EnsuredLoadBalancer',
  'UpdatedLoadBalancer',
  'DeletedLoadBalancer',
  // MetalLB's controller.
  'IPAllocated',
  'ClearAssignment',
]);

export const LINK_WINDOW_MS = 60_000;

/** An EventOccurrence as the Events history serves it (the fields the UI reads). */
export interface OccurrenceItem {
  metadata: { resourceVersion: string };
  time: string;
  happened: 'created' | 'repeated' | 'deleted' | 'expired';
  event: { namespace: string; name: string; uid: string };
  involvedObject: { kind?: string; namespace?: string; name?: string; uid?: string };
  type: string;
  reason: string;
  message: string;
  count: number;
  firstSeen: string | null;
  lastSeen: string | null;
  reportingController: string;
  reportingInstance: string;
  action: string;
  actor: { user: string; userAgent: string; fieldManager: string };
}

/** A ServiceChange of the change log (the fields read here). */
export interface ServiceChangeItem {
  metadata: { resourceVersion: string };
  time: string;
  service: { namespace: string; name: string; uid: string };
  events: EventItem[];
}

/** A write that changed a Service's ingress. */
export interface IngressChange {
  resourceVersion: number;
  time: number;
  service: { namespace: string; name: string; uid: string };
  /** What it did to the ingress, in words ("ingress none → 203.0.113.7"). */
  summary: string;
}

export function ingressChanges(changes: readonly ServiceChangeItem[]): IngressChange[] {
  return changes
    .filter((c) => c.events.some((e) => e.type === 'LoadBalancerIngressChanged'))
    .map((c) => ({
      resourceVersion: Number(c.metadata.resourceVersion),
      time: Date.parse(c.time),
      service: c.service,
      summary: changeSummary(c.events.filter((e) => e.type === 'LoadBalancerIngressChanged')).join(', '),
    }));
}

const about = (event: OccurrenceItem, change: IngressChange) => {
  const o = event.involvedObject;
  if (o.kind !== undefined && o.kind !== 'Service') return false;
  return o.uid ? o.uid === change.service.uid : o.namespace === change.service.namespace && o.name === change.service.name;
};

/** Each explaining Event's resourceVersion → the ingress change it explains. */
export function linkEventsToIngressChanges(events: readonly OccurrenceItem[], changes: readonly IngressChange[]): Map<number, IngressChange> {
  const inOrder = [...changes].sort((a, b) => a.resourceVersion - b.resourceVersion);
  const explainedBy = new Map<number, OccurrenceItem>();
  const byRv = [...events].sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
  for (const event of byRv) {
    if (!EXPLAINING_REASONS.has(event.reason) || (event.happened !== 'created' && event.happened !== 'repeated')) continue;
    const rv = Number(event.metadata.resourceVersion);
    const next = inOrder.find((c) => c.resourceVersion > rv && about(event, c));
    if (next && next.time - Date.parse(event.time) <= LINK_WINDOW_MS) explainedBy.set(next.resourceVersion, event);
  }
  const links = new Map<number, IngressChange>();
  for (const change of inOrder) {
    const event = explainedBy.get(change.resourceVersion);
    if (event) links.set(Number(event.metadata.resourceVersion), change);
  }
  return links;
}
