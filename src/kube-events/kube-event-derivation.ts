// core/v1 Events derived from the log: one Event per recorded domain event, with who did it in
// the message. Unlike kube-apiserver's (one-hour TTL) they last as long as the log.
import { createHash } from 'node:crypto';
import type { Condition, LoadBalancerIngress } from '../domain/service.types';
import { unknownFieldPaths } from '../domain/service-unknown-fields';
import type { RecordedEvent } from '../store/ports/recorded-event';
import type { KubeEvent } from '../domain/kube-event/kube-event.types';

/** The source component of the Events svctrail derives from its log. */
export const EVENT_SOURCE = 'svctrail';

const addresses = (ingress: readonly LoadBalancerIngress[]): string =>
  ingress
    .map((i) => i.ip || i.hostname)
    .filter(Boolean)
    .join(', ') || '(no address)';
const conditionText = (c: Condition): string => `${c.status}${c.reason ? ` (${c.reason}${c.message ? `: ${c.message}` : ''})` : ''}`;

/** The reason and message of one domain event, without the actor. */
export function describeEvent(recorded: RecordedEvent): { reason: string; message: string; type: 'Normal' | 'Warning' } {
  const e = recorded.event;
  switch (e.type) {
    case 'ServiceCreated':
      return { reason: 'Created', message: `Service ${recorded.namespace}/${recorded.name} created`, type: 'Normal' };
    case 'ServiceSpecChanged':
      return { reason: 'SpecChanged', message: `Service spec changed (type ${e.data.spec.type ?? ''})`, type: 'Normal' };
    case 'ServiceMetadataChanged':
      return { reason: 'MetadataChanged', message: 'Service labels, annotations, owner references or finalizers changed', type: 'Normal' };
    case 'LoadBalancerIngressChanged': {
      const { previous, ingress } = e.data;
      if (!previous.length) return { reason: 'IngressAssigned', message: `Load-balancer ingress assigned: ${addresses(ingress)}`, type: 'Normal' };
      if (!ingress.length) return { reason: 'IngressCleared', message: `Load-balancer ingress cleared (was ${addresses(previous)})`, type: 'Normal' };
      return { reason: 'IngressChanged', message: `Load-balancer ingress changed from ${addresses(previous)} to ${addresses(ingress)}`, type: 'Normal' };
    }
    case 'ServiceConditionChanged': {
      const { condition, previous } = e.data;
      const message = previous
        ? `Condition ${condition.type} changed from ${conditionText(previous)} to ${conditionText(condition)}`
        : `Condition ${condition.type} set to ${conditionText(condition)}`;
      return { reason: 'ConditionChanged', message, type: condition.status === 'False' ? 'Warning' : 'Normal' };
    }
    case 'ServiceConditionRemoved':
      return { reason: 'ConditionRemoved', message: `Condition ${e.data.conditionType} removed (was ${conditionText(e.data.previous)})`, type: 'Normal' };
    case 'ServiceConditionsReplaced':
      return {
        reason: 'ConditionsChanged',
        message: `Conditions now ${e.data.conditions.map((c) => `${c.type}=${c.status}`).join(', ') || '(none)'}`,
        type: 'Normal',
      };
    case 'ServiceManagedFieldsChanged':
      return { reason: 'ManagedFieldsChanged', message: 'Field ownership (metadata.managedFields) changed', type: 'Normal' };
    case 'ServiceUnknownFieldsChanged': {
      const paths = unknownFieldPaths(e.data.fields);
      return { reason: 'UnknownFieldsChanged', message: `Service fields svctrail does not know changed (now: ${paths.join(', ') || 'none'})`, type: 'Normal' };
    }
    case 'ServiceDeletionRequested':
      return { reason: 'DeletionRequested', message: 'Deletion requested; waiting for finalizers', type: 'Normal' };
    case 'ServiceDeleted':
      return { reason: 'Deleted', message: `Service ${recorded.namespace}/${recorded.name} deleted`, type: 'Normal' };
  }
}

/**
 * Bookkeeping events become no core/v1 Event: every write that changes a field also moves its
 * manager's managedFields entry, which `kubectl describe` has no use for.
 */
export function isReportedAsKubeEvent(recorded: RecordedEvent): boolean {
  return recorded.event.type !== 'ServiceManagedFieldsChanged';
}

/** A stable uid for a derived Event: the same log position always gives the same uid. */
function eventUid(recorded: RecordedEvent): string {
  const hex = createHash('sha256').update(`svctrail-event:${recorded.streamId}:${recorded.position}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const eventName = (recorded: Pick<RecordedEvent, 'name' | 'position'>): string => `${recorded.name}.${recorded.position.toString(16).padStart(16, '0')}`;

const seconds = (iso: string): string => iso.replace(/\.\d+Z$/, 'Z');

export function deriveKubeEvent(recorded: RecordedEvent): KubeEvent {
  const { reason, message, type } = describeEvent(recorded);
  const m = recorded.metadata;
  const via = m.fieldManager && m.fieldManager !== m.user ? ` via ${m.fieldManager}` : '';
  const at = seconds(m.recordedAt);
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: eventName(recorded), namespace: recorded.namespace, uid: eventUid(recorded), resourceVersion: String(recorded.resourceVersion), creationTimestamp: at },
    involvedObject: {
      kind: 'Service',
      namespace: recorded.namespace,
      name: recorded.name,
      uid: recorded.streamId,
      apiVersion: 'v1',
      resourceVersion: String(recorded.resourceVersion),
    },
    reason,
    message: `${message} by ${m.user}${via}`,
    source: { component: EVENT_SOURCE },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    type,
    eventTime: null,
    reportingComponent: EVENT_SOURCE,
    reportingInstance: '',
  };
}
