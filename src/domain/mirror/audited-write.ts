// What an audit.k8s.io/v1 EventList tells a mirror: for each successful write to a Service or to an
// Event about a Service, who made it, and the resourceVersion that write produced (its
// responseObject's) — the key that joins it to the change the reflector recorded. Everything else
// (other resources, Events about other objects, other stages, failed requests, events without a
// response object, and Event deletions, which kube-apiserver answers with a Status that has no
// resourceVersion) tells nothing about a recorded write and is left out.
// Pure: the webhook's body in, the writes out.

/** The fields of an audit event the join reads (k8s.io/apiserver pkg/apis/audit/v1 Event). */
export interface AuditEvent {
  auditID?: string;
  stage?: string;
  verb?: string;
  user?: { username?: string; groups?: string[] };
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string; apiVersion?: string; subresource?: string };
  responseStatus?: { code?: number };
  responseObject?: {
    kind?: string;
    metadata?: { name?: string; namespace?: string; resourceVersion?: string };
    /** core/v1 Event */
    involvedObject?: ObjectReference;
    /** events.k8s.io/v1 Event */
    regarding?: ObjectReference;
  };
  requestReceivedTimestamp?: string;
}

interface ObjectReference {
  kind?: string;
  apiVersion?: string;
}

/** One successful write of a Service, or of an Event about a Service, as the audit log tells it. */
export interface AuditedWrite {
  auditID: string;
  namespace: string;
  name: string;
  /** The source resourceVersion the write produced: the version the watch delivers. */
  sourceResourceVersion: string;
  verb: string;
  user: string;
  groups: string[];
  userAgent: string;
  sourceIPs: string[];
  requestReceivedTimestamp: string;
}

/** The body is not an audit.k8s.io/v1 EventList. */
export class AuditBodyError extends Error {}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete']);

/** The EventList's items (throws AuditBodyError for anything else). */
export function auditEventsOf(body: unknown): AuditEvent[] {
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      throw new AuditBodyError(`the body is not JSON: ${(error as Error).message}`);
    }
  }
  const list = parsed as { kind?: unknown; apiVersion?: unknown; items?: unknown };
  if (!list || typeof list !== 'object' || list.kind !== 'EventList' || list.apiVersion !== 'audit.k8s.io/v1') {
    throw new AuditBodyError('the body must be an audit.k8s.io/v1 EventList');
  }
  if (list.items === undefined || list.items === null) return [];
  if (!Array.isArray(list.items) || list.items.some((item) => !item || typeof item !== 'object' || Array.isArray(item))) {
    throw new AuditBodyError('the EventList items must be a list of audit events');
  }
  return list.items as AuditEvent[];
}

/** The write an audit event tells of, or null when it tells of none that a mirror records. */
export function auditedWriteOf(event: AuditEvent): AuditedWrite | null {
  if (event.stage !== 'ResponseComplete' || !event.auditID) return null;
  const ref = event.objectRef;
  if (!ref || !(isServiceWrite(ref) || (isEventWrite(ref) && aboutAService(event.responseObject)))) return null;
  if (!event.verb || !WRITE_VERBS.has(event.verb)) return null;
  const code = event.responseStatus?.code ?? 0;
  if (code < 200 || code > 299) return null;
  const meta = event.responseObject?.kind === 'Status' ? undefined : event.responseObject?.metadata;
  const sourceResourceVersion = meta?.resourceVersion;
  // A create names the object only in its answer (generateName).
  const name = ref.name || meta?.name;
  const namespace = ref.namespace || meta?.namespace;
  if (!sourceResourceVersion || !name || !namespace) return null;
  return {
    auditID: event.auditID,
    namespace,
    name,
    sourceResourceVersion,
    verb: event.verb,
    user: event.user?.username ?? '',
    groups: Array.isArray(event.user?.groups) ? event.user.groups.map(String) : [],
    userAgent: event.userAgent ?? '',
    sourceIPs: Array.isArray(event.sourceIPs) ? event.sourceIPs.map(String) : [],
    requestReceivedTimestamp: event.requestReceivedTimestamp ?? '',
  };
}

function isServiceWrite(ref: NonNullable<AuditEvent['objectRef']>): boolean {
  return ref.resource === 'services' && (ref.apiGroup ?? '') === '' && ['', 'status'].includes(ref.subresource ?? '');
}

/** core/v1 and events.k8s.io/v1 Events are one store: a write through either is recorded alike. */
function isEventWrite(ref: NonNullable<AuditEvent['objectRef']>): boolean {
  return ref.resource === 'events' && ['', 'events.k8s.io'].includes(ref.apiGroup ?? '') && !ref.subresource;
}

/** The mirror records only Events about core/v1 Services (the audit policy cannot select them). */
function aboutAService(object: AuditEvent['responseObject']): boolean {
  const about = object?.involvedObject ?? object?.regarding;
  return about?.kind === 'Service' && about.apiVersion === 'v1';
}
