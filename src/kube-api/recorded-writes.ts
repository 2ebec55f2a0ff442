// The requests that write what svctrail records: every write verb on Services and on Events
// (core/v1 and events.k8s.io/v1: one store). Mirror mode refuses them (mirror/read-only.hook.ts);
// a replica that follows the write leader forwards them (write-forwarding.hook.ts).
import type { RequestAttributes } from '../authz/request-attributes';

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
const RECORDED_RESOURCES = new Set(['services', 'events']);

export function isRecordedWrite(attributes: RequestAttributes): boolean {
  return attributes.isResourceRequest && RECORDED_RESOURCES.has(attributes.resource) && WRITE_VERBS.has(attributes.verb);
}
