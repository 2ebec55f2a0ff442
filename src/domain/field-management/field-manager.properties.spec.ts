import fc from 'fast-check';
import { applyServiceDefaults } from '../service-defaults';
import { type Service } from '../service.types';
import { ApplyConflictError } from './apply-conflict.error';
import { applyConfiguration, comparableService, updateManagedFields } from './field-manager';
import { fieldsV1ToFieldSet } from './fields-v1';
import { FieldSet } from './field-set';
import { compareObjects } from './object-comparison';
import { SERVICE_MERGE_TYPE } from './service-merge-schema';
import { ignoreManagedFieldsTimestamps } from './managed-fields-timestamps';
import { encodeService } from '../codec/service-encoder';

const RUNS = Number(process.env.SVCTRAIL_FUZZ_RUNS ?? 60);

const labels = fc.dictionary(fc.constantFrom('app', 'tier', 'zone', 'team'), fc.constantFrom('a', 'b'), { maxKeys: 3 });
const ports = fc.uniqueArray(fc.record({ port: fc.constantFrom(80, 443, 8080), protocol: fc.constantFrom(undefined, 'TCP', 'UDP'), targetPort: fc.constantFrom(undefined, 9000, 'http') }), {
  maxLength: 3,
  selector: (p) => `${p.port}/${p.protocol ?? 'TCP'}`,
});
const spec = fc.record({
  type: fc.constantFrom(undefined, 'ClusterIP', 'NodePort'),
  selector: fc.option(labels, { nil: undefined }),
  sessionAffinity: fc.constantFrom(undefined, 'None', 'ClientIP'),
  ports,
});

function clean<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

const config = fc.record({ labels, spec }).map(({ labels: l, spec: s }) => clean({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', labels: l }, spec: s }) as Record<string, unknown>);

function stored(object: unknown, managedFields: Service['metadata']['managedFields']): Service {
  const svc = applyServiceDefaults(clean(object) as Service);
  const metadata = { ...svc.metadata, uid: 'u', managedFields };
  if (!managedFields) delete metadata.managedFields;
  return { ...svc, metadata, status: svc.status ?? { loadBalancer: {} } };
}

describe('field management properties', () => {
  it('property: applying the same configuration twice stores the same bytes (object and managedFields)', () => {
    fc.assert(
      fc.property(config, (cfg) => {
        const first = applyConfiguration({ live: undefined, config: cfg, manager: 'm', subresource: '', force: false, now: '2026-01-01T00:00:00Z' });
        const live = stored(first.object, first.managedFields);
        const again = applyConfiguration({ live, config: cfg, manager: 'm', subresource: '', force: false, now: '2026-01-01T00:01:00Z' });
        // What kube stores: the merged object decoded and defaulted, timestamp-only changes undone.
        const next = ignoreManagedFieldsTimestamps(live, stored(again.object, again.managedFields));
        expect(encodeService(next)).toEqual(encodeService(live));
      }),
      { numRuns: RUNS },
    );
  });

  it('property: after any sequence of writes by several managers, no path is owned by two Update managers', () => {
    const step = fc.record({ manager: fc.constantFrom('a', 'b', 'c', 'kubectl-edit'), labels, spec, status: fc.boolean() });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        let live: Service | undefined;
        steps.forEach((s, i) => {
          const updated = applyServiceDefaults(clean({ metadata: { name: 'web', labels: s.labels }, spec: s.spec, status: { loadBalancer: {} } }));
          const subresource = s.status && live ? 'status' : '';
          const now = `2026-01-01T00:${String(i).padStart(2, '0')}:00Z`;
          const entries = updateManagedFields({ live, updated, manager: s.manager, subresource, now });
          live = stored(subresource === 'status' ? { ...updated, spec: live!.spec } : updated, entries);
        });
        const sets = (live!.metadata.managedFields ?? []).filter((e) => e.operation === 'Update').map((e) => fieldsV1ToFieldSet(e.fieldsV1));
        for (let i = 0; i < sets.length; i++) {
          for (let j = i + 1; j < sets.length; j++) expect(sets[i].intersection(sets[j]).isEmpty()).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('property: an apply either conflicts or leaves its manager owning exactly the applied fields', () => {
    fc.assert(
      fc.property(config, config, fc.boolean(), (base, next, force) => {
        const created = applyConfiguration({ live: undefined, config: base, manager: 'first', subresource: '', force: false, now: '2026-01-01T00:00:00Z' });
        const live = stored(created.object, created.managedFields);
        try {
          const out = applyConfiguration({ live, config: next, manager: 'second', subresource: '', force, now: '2026-01-01T00:01:00Z' });
          const mine = (out.managedFields ?? []).find((e) => e.manager === 'second');
          const owned = mine ? fieldsV1ToFieldSet(mine.fieldsV1) : FieldSet.EMPTY;
          const appliedConfig = { ...next, metadata: { labels: (next.metadata as Record<string, unknown>).labels } };
          const expected = applyConfiguration({
            live: undefined,
            config: { ...appliedConfig, metadata: { name: 'x', ...(appliedConfig.metadata as object) } },
            manager: 'z',
            subresource: '',
            force: false,
            now: 'x',
          });
          const expectedSet = (expected.managedFields ?? []).map((e) => fieldsV1ToFieldSet(e.fieldsV1))[0] ?? FieldSet.EMPTY;
          expect(owned.equals(expectedSet)).toBe(true);
        } catch (e) {
          expect(force).toBe(false);
          expect(e).toBeInstanceOf(ApplyConflictError);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('property: a comparison of an object with itself is empty, and added/modified/removed never overlap', () => {
    fc.assert(
      fc.property(config, config, (a, b) => {
        const x = comparableService(stored(a, undefined));
        const y = comparableService(stored(b, undefined));
        const same = compareObjects(x, x, SERVICE_MERGE_TYPE);
        expect(same.added.isEmpty() && same.modified.isEmpty() && same.removed.isEmpty()).toBe(true);
        const c = compareObjects(x, y, SERVICE_MERGE_TYPE);
        expect(c.added.intersection(c.modified).isEmpty()).toBe(true);
        expect(c.added.intersection(c.removed).isEmpty()).toBe(true);
        expect(c.modified.intersection(c.removed).isEmpty()).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('property: unreadable managedFields in a request or in storage never make a write fail', () => {
    const fieldsV1 = fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom('f:spec', 'k:{', 'k:{"port":80}', 'v:"x"', 'i:1', 'i:x', '.', 'x', ''), fc.oneof(fc.constant({}), fc.jsonValue())));
    const entry = fc.record(
      {
        manager: fc.string(),
        operation: fc.constantFrom('Apply', 'Update', 'Bogus', ''),
        apiVersion: fc.constantFrom('v1', ''),
        fieldsType: fc.constantFrom('FieldsV1', 'FieldsV2', ''),
        fieldsV1,
        subresource: fc.constantFrom(undefined, 'status'),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 3 }), fc.array(entry, { maxLength: 3 }), config, (requestEntries, storedEntries, cfg) => {
        const live = stored({ ...cfg, metadata: { name: 'web' } }, storedEntries as Service['metadata']['managedFields']);
        const updated = stored({ ...cfg, metadata: { name: 'web', managedFields: requestEntries } }, requestEntries as Service['metadata']['managedFields']);
        const out = updateManagedFields({ live, updated, manager: 'm', subresource: '', now: '2026-01-01T00:00:00Z' });
        for (const e of out ?? []) expect(() => fieldsV1ToFieldSet(e.fieldsV1)).not.toThrow();
        try {
          applyConfiguration({ live, config: cfg, manager: 'kubectl', subresource: '', force: false, now: '2026-01-01T00:00:00Z' });
        } catch (e) {
          expect((e as Error).constructor.name).toMatch(/^(ApplyConflictError|InternalServerError)$/);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
