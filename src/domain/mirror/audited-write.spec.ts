import { AuditBodyError, auditedWriteOf, auditEventsOf } from './audited-write';
import type { AuditEvent } from './audited-write';

/** An audit event of a status PUT as kube-apiserver sends it at level RequestResponse. */
const statusUpdate = (overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  auditID: 'a1',
  stage: 'ResponseComplete',
  verb: 'update',
  user: { username: 'system:serviceaccount:metallb-system:controller', groups: ['system:serviceaccounts', 'system:authenticated'] },
  sourceIPs: ['10.0.0.5'],
  userAgent: 'controller/v0.14.8',
  objectRef: { resource: 'services', namespace: 'web', name: 'frontend', apiVersion: 'v1', subresource: 'status' },
  responseStatus: { code: 200 },
  responseObject: { kind: 'Service', metadata: { name: 'frontend', namespace: 'web', resourceVersion: '81234' } },
  requestReceivedTimestamp: '2026-12-01T02:13:00.123456Z',
  ...overrides,
});

describe('audited writes', () => {
  it('given a successful status update, then the write with its user, groups, agent, IPs and the resourceVersion it produced', () => {
    expect(auditedWriteOf(statusUpdate())).toEqual({
      auditID: 'a1',
      namespace: 'web',
      name: 'frontend',
      sourceResourceVersion: '81234',
      verb: 'update',
      user: 'system:serviceaccount:metallb-system:controller',
      groups: ['system:serviceaccounts', 'system:authenticated'],
      userAgent: 'controller/v0.14.8',
      sourceIPs: ['10.0.0.5'],
      requestReceivedTimestamp: '2026-12-01T02:13:00.123456Z',
    });
  });

  it('given a create with generateName, then the name comes from the answer', () => {
    const write = auditedWriteOf(statusUpdate({ verb: 'create', objectRef: { resource: 'services', namespace: 'web' }, responseStatus: { code: 201 } }));
    expect(write).toMatchObject({ name: 'frontend', verb: 'create' });
  });

  it.each<[string, Partial<AuditEvent>]>([
    ['an earlier stage', { stage: 'ResponseStarted' }],
    ['another resource', { objectRef: { resource: 'endpoints', namespace: 'web', name: 'frontend' } }],
    ['another group', { objectRef: { resource: 'services', apiGroup: 'serving.knative.dev', namespace: 'web', name: 'frontend' } }],
    ['a read', { verb: 'get' }],
    ['a failed request', { responseStatus: { code: 409 } }],
    ['a Metadata-level event (no response object)', { responseObject: undefined }],
    ['a delete answered with a Status', { verb: 'delete', responseObject: { kind: 'Status', metadata: {} } }],
  ])('given %s, then no write', (_what, overrides) => {
    expect(auditedWriteOf(statusUpdate(overrides))).toBeNull();
  });

  /** An audit event of a recorder's PATCH of an Event about a Service (a count bump). */
  const eventPatch = (overrides: Partial<AuditEvent> = {}): AuditEvent =>
    statusUpdate({
      verb: 'patch',
      objectRef: { resource: 'events', namespace: 'web', name: 'frontend.18a2b3c4d5e6f708', apiVersion: 'v1' },
      responseObject: {
        kind: 'Event',
        metadata: { name: 'frontend.18a2b3c4d5e6f708', namespace: 'web', resourceVersion: '81240' },
        involvedObject: { kind: 'Service', apiVersion: 'v1' },
      },
      ...overrides,
    });

  it('given a successful write of an Event about a Service (core/v1 or events.k8s.io/v1), then the write, joined like a Service write', () => {
    expect(auditedWriteOf(eventPatch())).toMatchObject({ name: 'frontend.18a2b3c4d5e6f708', namespace: 'web', sourceResourceVersion: '81240', verb: 'patch' });
    const series = eventPatch({
      objectRef: { resource: 'events', apiGroup: 'events.k8s.io', namespace: 'web', name: 'frontend.18a2b3c4d5e6f708', apiVersion: 'v1' },
      responseObject: { kind: 'Event', metadata: { name: 'frontend.18a2b3c4d5e6f708', namespace: 'web', resourceVersion: '81241' }, regarding: { kind: 'Service', apiVersion: 'v1' } },
    });
    expect(auditedWriteOf(series)).toMatchObject({ sourceResourceVersion: '81241' });
  });

  it.each<[string, Partial<AuditEvent>]>([
    ['an Event about a Pod', { responseObject: { kind: 'Event', metadata: { name: 'p.1', namespace: 'web', resourceVersion: '9' }, involvedObject: { kind: 'Pod', apiVersion: 'v1' } } }],
    [
      'an Event about a Knative Service',
      { responseObject: { kind: 'Event', metadata: { name: 'k.1', namespace: 'web', resourceVersion: '9' }, involvedObject: { kind: 'Service', apiVersion: 'serving.knative.dev/v1' } } },
    ],
    ['an Event deletion (answered with a Status)', { verb: 'delete', responseObject: { kind: 'Status', metadata: {} } }],
  ])('given %s, then no write', (_what, overrides) => {
    expect(auditedWriteOf(eventPatch(overrides))).toBeNull();
  });

  it('reads an EventList, as text or parsed, and refuses anything else', () => {
    const list = { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items: [statusUpdate()] };
    expect(auditEventsOf(JSON.stringify(list))).toHaveLength(1);
    expect(auditEventsOf({ ...list, items: null })).toEqual([]);
    expect(() => auditEventsOf('{')).toThrow(AuditBodyError);
    expect(() => auditEventsOf({ kind: 'Event', apiVersion: 'audit.k8s.io/v1' })).toThrow(/EventList/);
    expect(() => auditEventsOf({ ...list, items: [1] })).toThrow(/list of audit events/);
  });
});
