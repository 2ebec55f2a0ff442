import { applyServiceDefaults } from '../service-defaults';
import { type ManagedFieldsEntry, type Service } from '../service.types';
import { BadRequestError } from '../errors/domain-errors';
import { ApplyConflictError } from './apply-conflict.error';
import { applyConfiguration, managerName, updateManagedFields } from './field-manager';
import { LAST_APPLIED_ANNOTATION } from './last-applied';

const T0 = '2026-01-02T03:04:05Z';
const T1 = '2026-01-02T03:05:00Z';
const T2 = '2026-01-02T03:06:00Z';
const T3 = '2026-01-02T03:07:00Z';

/** A request body as a client sends it; defaulting happens as at decode. */
function body(spec: Service['spec'], metadata: Service['metadata'] = {}, status?: Service['status']): Service {
  return applyServiceDefaults({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', ...metadata },
    spec,
    status: status ?? { loadBalancer: {} },
  });
}

/** What the registry stores: allocation happens after the field manager ran. */
function allocate(svc: Service): Service {
  return { ...svc, spec: { ...svc.spec, clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' } };
}

function withEntries(svc: Service, managedFields: ManagedFieldsEntry[] | undefined): Service {
  const metadata = { ...svc.metadata, uid: 'u-1', namespace: 'default', creationTimestamp: T0, managedFields };
  if (!managedFields) delete metadata.managedFields;
  return { ...svc, metadata };
}

/** given: a create, as kube-apiserver records it. */
function created(spec: Service['spec'], manager = 'kubectl-create', metadata: Service['metadata'] = {}): Service {
  const decoded = body(spec, metadata);
  return withEntries(allocate(decoded), updateManagedFields({ live: undefined, updated: decoded, manager, subresource: '', now: T0 }));
}

/** when: a non-apply write (PUT/PATCH) of `next` over `live`. */
function written(live: Service, next: Service, manager: string, now: string, subresource: '' | 'status' = ''): Service {
  const entries = updateManagedFields({ live, updated: next, manager, subresource, now });
  const stored = subresource === 'status' ? { ...next, spec: live.spec } : { ...next, spec: { ...live.spec, ...next.spec }, status: live.status };
  return withEntries({ ...stored, metadata: { ...next.metadata } }, entries);
}

function fields(svc: Service): Record<string, string> {
  return Object.fromEntries((svc.metadata.managedFields ?? []).map((e) => [`${e.manager}/${e.operation}${e.subresource ? '/' + e.subresource : ''}`, JSON.stringify(e.fieldsV1)]));
}

const web = { selector: { app: 'web' }, ports: [{ port: 80 }] } as Service['spec'];

describe('managedFields on Update operations', () => {
  it('given a create by kubectl-create, when recorded, then it owns the defaults filled in at decode but not the allocated fields', () => {
    const svc = created(web);
    expect(svc.metadata.managedFields).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: JSON.parse(
          '{"f:spec":{"f:internalTrafficPolicy":{},"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}},"f:selector":{},"f:sessionAffinity":{},"f:type":{}}}',
        ),
      },
    ]);
    // Byte-exact with object-semantics.md §1.7, key order included.
    expect(JSON.stringify(svc.metadata.managedFields![0].fieldsV1)).toBe(
      '{"f:spec":{"f:internalTrafficPolicy":{},"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}},"f:selector":{},"f:sessionAffinity":{},"f:type":{}}}',
    );
  });

  it('given a create with labels, when recorded, then the label map is owned itself and per key, and name is never tracked', () => {
    const svc = created(web, 'kubectl-create', { labels: { app: 'web' }, annotations: { note: 'x' } });
    expect(fields(svc)['kubectl-create/Update']).toContain('"f:metadata":{"f:annotations":{".":{},"f:note":{}},"f:labels":{".":{},"f:app":{}}}');
    expect(fields(svc)['kubectl-create/Update']).not.toContain('f:name');
  });

  it('given kubectl-create owns type, when another manager changes it, then ownership moves and entries are ordered by time', () => {
    const live = created(web);
    const next = written(live, body({ ...web, type: 'NodePort' }, { labels: { tier: 'a' } }), 'kubectl-edit', T1);
    expect(next.metadata.managedFields!.map((e) => [e.manager, e.time])).toEqual([
      ['kubectl-create', T0],
      ['kubectl-edit', T1],
    ]);
    expect(fields(next)['kubectl-create/Update']).not.toContain('f:type');
    expect(fields(next)['kubectl-edit/Update']).toContain('"f:type":{}');
    expect(fields(next)['kubectl-edit/Update']).toContain('"f:labels":{".":{},"f:tier":{}}');
    // Defaulted externalTrafficPolicy appears with NodePort: the writer owns it.
    expect(fields(next)['kubectl-edit/Update']).toContain('f:externalTrafficPolicy');
  });

  it('given a write that changes nothing, when recorded, then no entry is added and times do not move', () => {
    const live = created(web);
    const next = written(live, body(web), 'kubectl-edit', T1);
    expect(next.metadata.managedFields).toEqual(live.metadata.managedFields);
  });

  it('given a removal, when recorded, then the removed paths leave every owner and empty entries are dropped', () => {
    const live = written(created(web), body(web, { labels: { tier: 'a' } }), 'labeller', T1);
    const next = written(live, body(web), 'cleaner', T2);
    expect(next.metadata.managedFields!.map((e) => e.manager)).toEqual(['kubectl-create']);
  });

  it('given a status write by a controller, when recorded, then the entry has subresource status and ignores the spec in the body', () => {
    const live = created({ ...web, type: 'LoadBalancer' });
    const statusBody = body(
      { ...web, type: 'ClusterIP' },
      {},
      {
        loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }] },
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: T1, reason: 'Ok', message: '' }],
      },
    );
    const next = written(live, statusBody, 'cloud-controller', T1, 'status');
    const entry = next.metadata.managedFields!.find((e) => e.manager === 'cloud-controller')!;
    expect(entry).toMatchObject({ operation: 'Update', apiVersion: 'v1', time: T1, subresource: 'status' });
    expect(JSON.stringify(entry.fieldsV1)).toBe(
      '{"f:status":{"f:conditions":{".":{},"k:{\\"type\\":\\"Ready\\"}":{".":{},"f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}},"f:loadBalancer":{"f:ingress":{}}}}',
    );
    expect(fields(next)['kubectl-create/Update']).toContain('f:type');
  });

  it('given a PUT of the object with another status, when recorded, then status is a reset field and nobody gains it', () => {
    const live = created(web);
    const next = written(live, body(web, {}, { loadBalancer: {}, conditions: [{ type: 'X', status: 'True', lastTransitionTime: T1, reason: 'r', message: '' }] }), 'kubectl-replace', T1);
    expect(next.metadata.managedFields!.map((e) => e.manager)).toEqual(['kubectl-create']);
  });

  it('given managedFields [{}] in a write, when recorded, then all entries are cleared and later updates are not tracked', () => {
    const live = created(web);
    const reset = written(live, body(web, { managedFields: [{}] }), 'flux', T1);
    expect(reset.metadata.managedFields).toBeUndefined();
    const later = written(reset, body({ ...web, type: 'NodePort' }), 'kubectl-edit', T2);
    expect(later.metadata.managedFields).toBeUndefined();
  });

  it('given managedFields [] or absent in a write, when recorded, then the stored entries are kept', () => {
    const live = created(web);
    expect(written(live, body(web, { managedFields: [] }), 'x', T1).metadata.managedFields).toEqual(live.metadata.managedFields);
    expect(written(live, body(web), 'x', T1).metadata.managedFields).toEqual(live.metadata.managedFields);
  });

  it('given readable managedFields in the body, when recorded, then they replace the stored ones (JSON patch of /metadata/managedFields)', () => {
    const live = created(web);
    const replacement: ManagedFieldsEntry[] = [{ manager: 'migrated', operation: 'Apply', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:selector': {} } } }];
    const next = written(live, body(web, { managedFields: replacement }), 'kubectl', T1);
    expect(next.metadata.managedFields).toEqual(replacement);
  });

  it('given entries echoed with millisecond times, when recorded, then times are written back in whole seconds', () => {
    const live = created(web);
    const echoed = live.metadata.managedFields!.map((e) => ({ ...e, time: '2026-01-02T03:04:05.000Z' }));
    expect(written(live, body(web, { managedFields: echoed }), 'x', T1).metadata.managedFields).toEqual(live.metadata.managedFields);
  });

  it('given unreadable managedFields in the body, when recorded, then the stored entries are used', () => {
    const live = created(web);
    const next = written(live, body(web, { managedFields: [{ manager: 'x', operation: 'Bogus', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }] }), 'y', T1);
    expect(next.metadata.managedFields).toEqual(live.metadata.managedFields);
  });

  it('given managedFields in a /status body, when recorded, then they are ignored', () => {
    const live = created(web);
    const next = written(live, body(web, { managedFields: [{}] }), 'ctrl', T1, 'status');
    expect(next.metadata.managedFields).toEqual(live.metadata.managedFields);
  });

  it('given eleven Update managers, when the eleventh writes, then the two oldest merge into ancient-changes', () => {
    let svc = created(web);
    for (let i = 1; i <= 10; i++) {
      svc = written(svc, body(web, { labels: Object.fromEntries(Array.from({ length: i }, (_, j) => [`l${j}`, 'v'])) }), `m${i}`, `2026-01-02T04:${String(i).padStart(2, '0')}:00Z`);
    }
    const managers = svc.metadata.managedFields!.map((e) => e.manager);
    expect(managers).toHaveLength(10);
    expect(managers[0]).toBe('ancient-changes');
    expect(managers).not.toContain('kubectl-create');
    expect(managers).not.toContain('m1');
    const ancient = svc.metadata.managedFields![0];
    expect(ancient.time).toBe('2026-01-02T04:01:00Z');
    expect(JSON.stringify(ancient.fieldsV1)).toContain('f:selector');
    expect(JSON.stringify(ancient.fieldsV1)).toContain('f:l0');
  });

  it('given a User-Agent and no fieldManager, when the manager is resolved, then it is the prefix before the first slash', () => {
    expect(managerName(undefined, 'kubectl/v1.32.0 (linux/amd64) kubernetes/abc')).toBe('kubectl');
    expect(managerName('helm', 'kubectl/v1.32.0')).toBe('helm');
    expect(managerName(undefined, 'a\u0001b/1')).toBe('ab');
    expect(managerName(undefined, 'x'.repeat(200))).toHaveLength(128);
  });
});

const applied = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}, status?: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', ...metadata },
  spec,
  ...(status ? { status } : {}),
});

/** when: an apply; the merged object is decoded and defaulted as kube does after merging. */
function apply(live: Service | undefined, config: Record<string, unknown>, manager: string, now: string, opts: { force?: boolean; subresource?: '' | 'status' } = {}) {
  const out = applyConfiguration({ live, config, manager, subresource: opts.subresource ?? '', force: opts.force ?? false, now });
  const merged = out.object as unknown as Service;
  const decoded = applyServiceDefaults({ ...merged, status: merged.status ?? { loadBalancer: {} } });
  return { ...out, stored: withEntries(live ? decoded : allocate(decoded), out.managedFields) };
}

function conflictOf(fn: () => unknown): ApplyConflictError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApplyConflictError) return e;
    throw e;
  }
  throw new Error('expected a conflict');
}

describe('server-side apply', () => {
  it('given no object, when applied, then the Apply entry owns exactly the applied fields (a port without protocol keys as TCP)', () => {
    const { stored, changed } = apply(undefined, applied({ selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] }, { labels: { app: 'web' } }), 'kubectl', T0);
    expect(changed).toBe(true);
    expect(stored.metadata.managedFields).toEqual([
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: JSON.parse('{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:targetPort":{}}},"f:selector":{}}}'),
      },
    ]);
    expect(stored.spec.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 8080 }]);
  });

  it('given kubectl-create owns type, when another manager applies a different type, then 409 with one conflict', () => {
    const live = created(web);
    const err = conflictOf(() => apply(live, applied({ type: 'NodePort' }), 'helm', T1));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .spec.type');
    expect(err.reason).toBe('Conflict');
    expect(err.details).toEqual({ causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-create" using v1', field: '.spec.type' }] });
  });

  it('given one owner of several fields, when they conflict, then the message lists them under that manager', () => {
    const live = created(web);
    const err = conflictOf(() => apply(live, applied({ type: 'NodePort', sessionAffinity: 'ClientIP', ports: [{ port: 80, targetPort: 9090 }] }), 'helm', T1));
    expect(err.message).toBe('Apply failed with 3 conflicts: conflicts with "kubectl-create" using v1:\n' + '- .spec.sessionAffinity\n- .spec.type\n- .spec.ports[port=80,protocol="TCP"].targetPort');
    expect(err.details!.causes!.map((c) => c.field)).toEqual(['.spec.sessionAffinity', '.spec.type', '.spec.ports[port=80,protocol="TCP"].targetPort']);
  });

  it('given owners of every kind, when an apply conflicts with all, then managers are sorted and printed by operation and subresource', () => {
    let live = created(web, 'kubectl-create', { labels: { app: 'web' } });
    live = apply(live, applied({ selector: { app: 'web' } }, { labels: { team: 'a' } }), 'argocd', T1).stored;
    live = written(
      live,
      body(web, { labels: { app: 'web', team: 'a', zone: 'z' } }, { loadBalancer: {}, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: T1, reason: 'r', message: '' }] }),
      'ctrl',
      T2,
      'status',
    );
    const err = conflictOf(() =>
      apply(live, applied({}, { labels: { app: 'api', team: 'b', zone: 'y' } }, { conditions: [{ type: 'Ready', status: 'False' }] }), 'helm', T3, { subresource: 'status' }),
    );
    expect(err.message).toBe(
      'Apply failed with 4 conflicts: conflicts with "argocd":\n- .metadata.labels.team\n' +
        'conflicts with "ctrl" with subresource "status" using v1:\n- .metadata.labels.zone\n- .status.conditions[type="Ready"].status\n' +
        'conflicts with "kubectl-create" using v1:\n- .metadata.labels.app',
    );
    expect(err.details!.causes!.map((c) => c.message)).toContain('conflict with "ctrl" with subresource "status" using v1');
  });

  it('given a conflict, when applied with force, then ownership moves to the applier', () => {
    const live = created(web);
    const { stored } = apply(live, applied({ type: 'NodePort' }), 'helm', T1, { force: true });
    expect(stored.spec.type).toBe('NodePort');
    expect(fields(stored)['helm/Apply']).toBe('{"f:spec":{"f:type":{}}}');
    expect(fields(stored)['kubectl-create/Update']).not.toContain('f:type');
    expect(stored.metadata.managedFields!.map((e) => e.operation)).toEqual(['Apply', 'Update']);
  });

  it('given another owner, when the same value is applied, then there is no conflict and ownership is shared', () => {
    const live = created(web);
    const { stored } = apply(live, applied({ type: 'ClusterIP' }), 'helm', T1);
    expect(fields(stored)['helm/Apply']).toBe('{"f:spec":{"f:type":{}}}');
    expect(fields(stored)['kubectl-create/Update']).toContain('f:type');
  });

  it('given a manager applied a label and a port before, when it stops applying them, then they are pruned', () => {
    const first = apply(undefined, applied({ selector: { app: 'web' }, ports: [{ port: 80 }, { port: 443 }] }, { labels: { a: '1', b: '2' } }), 'kubectl', T0).stored;
    const second = apply(first, applied({ selector: { app: 'web' }, ports: [{ port: 80 }] }, { labels: { a: '1' } }), 'kubectl', T1).stored;
    expect(second.metadata.labels).toEqual({ a: '1' });
    expect(second.spec.ports!.map((p) => p.port)).toEqual([80]);
    expect(fields(second)['kubectl/Apply']).not.toContain('443');
  });

  it('given another manager also owns a label, when the applier stops applying it, then it stays', () => {
    const first = apply(undefined, applied({ selector: { app: 'web' } }, { labels: { a: '1', b: '2' } }), 'kubectl', T0).stored;
    const shared = apply(first, applied({}, { labels: { b: '2' } }), 'other', T1).stored;
    const second = apply(shared, applied({ selector: { app: 'web' } }, { labels: { a: '1' } }), 'kubectl', T2).stored;
    expect(second.metadata.labels).toEqual({ a: '1', b: '2' });
  });

  it('given an Update manager wrote a field the applier never owned, when the applier applies without it, then it is not pruned', () => {
    const first = apply(undefined, applied({ selector: { app: 'web' } }), 'kubectl', T0).stored;
    const edited = written(first, body({ ...first.spec }, { labels: { extra: 'x' } }), 'kubectl-edit', T1);
    const second = apply(edited, applied({ selector: { app: 'web' } }), 'kubectl', T2).stored;
    expect(second.metadata.labels).toEqual({ extra: 'x' });
  });

  it('given an applied configuration, when applied twice, then the second apply changes nothing', () => {
    const first = apply(undefined, applied({ selector: { app: 'web' }, ports: [{ port: 80 }] }), 'kubectl', T0).stored;
    const again = apply(first, applied({ selector: { app: 'web' }, ports: [{ port: 80 }] }), 'kubectl', T1);
    expect(again.changed).toBe(false);
    expect(again.managedFields).toEqual(first.metadata.managedFields);
  });

  it('given an applied object, when a second manager applies the same values, then it gets an entry without a time (the object did not change)', () => {
    const first = apply(undefined, applied({}, { labels: { a: 'b' } }), 'one', T0).stored;
    const second = apply(first, applied({}, { labels: { a: 'b' } }), 'two', T1);
    expect(second.changed).toBe(false);
    expect(second.managedFields!.map((e) => [e.manager, e.time])).toEqual([
      ['two', undefined],
      ['one', T0],
    ]);
    // An Update with the same object and a forced re-apply by the first manager change nothing.
    const live = second.stored;
    expect(written(live, body(live.spec, { labels: { a: 'b' } }), 'updater', T2).metadata.managedFields).toEqual(live.metadata.managedFields);
    expect(apply(live, applied({}, { labels: { a: 'b' } }), 'one', T3, { force: true }).managedFields).toEqual(live.metadata.managedFields);
  });

  it('given an object without managedFields, when first applied to, then what was there goes to before-first-apply', () => {
    const legacy = withEntries(allocate(body(web)), undefined);
    const { stored } = apply(legacy, applied({ type: 'NodePort' }), 'kustomize-controller', T1, { force: true });
    expect(stored.metadata.managedFields!.map((e) => `${e.manager}/${e.operation}`)).toEqual(['kustomize-controller/Apply', 'before-first-apply/Update']);
    expect(fields(stored)['before-first-apply/Update']).toContain('f:clusterIP');
    expect(fields(stored)['before-first-apply/Update']).not.toContain('f:type');
  });

  it('given a controller applies conditions on /status while another patches the ingress, then managedFields show both', () => {
    const live = created({ ...web, type: 'LoadBalancer' });
    const lb = written(live, body(live.spec, {}, { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }] } }), 'lb-controller', T1, 'status');
    const { stored } = apply(lb, applied({}, {}, { conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: '', lastTransitionTime: T2 }] }), 'gce-controller', T2, {
      subresource: 'status',
      force: true,
    });
    expect(Object.keys(fields(stored))).toEqual(['gce-controller/Apply/status', 'kubectl-create/Update', 'lb-controller/Update/status']);
    expect(fields(stored)['gce-controller/Apply/status']).toBe(
      '{"f:status":{"f:conditions":{"k:{\\"type\\":\\"Ready\\"}":{".":{},"f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}}}}',
    );
    expect(stored.status.loadBalancer.ingress).toEqual([{ ip: '1.2.3.4', ipMode: 'VIP' }]);
  });

  it('given kubectl client-side apply set a field, when kubectl applies server-side with a new value, then it takes it over without conflict', () => {
    const lastApplied = JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', annotations: {} }, spec: web });
    const live = created(web, 'kubectl-client-side-apply', { annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied } });
    const config = applied({ selector: { app: 'api' }, ports: [{ port: 80 }] });
    const { stored } = apply(live, config, 'kubectl', T1);
    expect(stored.spec.selector).toEqual({ app: 'api' });
    expect(stored.metadata.annotations![LAST_APPLIED_ANNOTATION]).toBe('{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"ports":[{"port":80}],"selector":{"app":"api"}}}\n');
    // Another manager gets no such leniency.
    expect(() => apply(live, config, 'helm', T1)).toThrow(ApplyConflictError);
  });

  it('given a field kubectl did not apply client-side, when kubectl applies server-side, then it still conflicts', () => {
    const lastApplied = JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' } } });
    const live = created(web, 'kubectl-client-side-apply', { annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied } });
    const err = conflictOf(() => apply(live, applied({ selector: { app: 'api' }, type: 'NodePort' }), 'kubectl', T1));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .spec.type');
  });

  it('given a configuration with managedFields or of another kind, when applied, then 400', () => {
    expect(() => applyConfiguration({ live: undefined, config: applied({}, { managedFields: [] }), manager: 'm', subresource: '', force: false, now: T0 })).toThrow(
      new BadRequestError('metadata.managedFields must be nil'),
    );
    expect(() => applyConfiguration({ live: undefined, config: { apiVersion: 'apps/v1', kind: 'Deployment' }, manager: 'm', subresource: '', force: false, now: T0 })).toThrow(
      new BadRequestError('invalid object type: apps/v1, Kind=Deployment'),
    );
  });

  it('given duplicate port keys in the configuration, when applied, then the merge is refused', () => {
    expect(() => apply(undefined, applied({ ports: [{ port: 80 }, { port: 80, protocol: 'TCP' }] }), 'm', T0)).toThrow('.spec.ports: duplicate entries for key [port=80,protocol="TCP"]');
  });
});
