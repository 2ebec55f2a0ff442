// Property: for any sequence of valid and invalid writes (updates and server-side applies by
// several field managers, so managedFields move between them), folding the event log reproduces,
// byte for byte, every object the write path answered; resourceVersions only grow; a write that
// changes nothing appends nothing.
import fc from 'fast-check';
import { join } from 'node:path';
import { PatchServiceHandler } from '../../src/commands/patch-service.handler';
import { PatchServiceCommand } from '../../src/commands/service.commands';
import type { WriteRequestContext } from '../../src/commands/write-result';
import { DomainError } from '../../src/domain/errors/domain-errors';
import type { ServiceCommand } from '../../src/domain/service.commands';
import type { Condition, Service } from '../../src/domain/service.types';
import { SqliteEventStore } from '../../src/store/event-store';
import { ServiceRepository } from '../../src/store/service-repository';
import { applyServiceDefaults } from '../../src/domain/service-defaults';
import { createAppContext } from '../helpers/app-context';
import { foldLogAndCompare } from '../helpers/log-fold';
import { handlersOf } from '../helpers/service-handlers';

const NAMES = ['a', 'b', 'c'];
const request: WriteRequestContext = { user: 'prop', groups: [], userAgent: 'prop/1', fieldManager: 'prop', requestId: 'r', dryRun: false };

type Step =
  | { op: 'create'; name: string; type: string; labels: Record<string, string>; finalizer: boolean; invalid: boolean }
  | { op: 'replace'; name: string; labels: Record<string, string>; type: string; stale: boolean }
  | { op: 'status'; name: string; ips: string[]; conditions: [string, string][]; stale: boolean; finalizers: boolean | null }
  | { op: 'delete'; name: string }
  | { op: 'resend'; name: string; subresource: boolean }
  | { op: 'dryRun'; inner: 'create' | 'status'; name: string }
  | { op: 'apply'; name: string; labels: Record<string, string>; affinity: string; status: boolean; force: boolean };

const MANAGER_ARB = fc.constantFrom('kubectl-create', 'metallb-controller', 'cloud-controller', 'editor');
const labelsArb = fc.dictionary(fc.constantFrom('tier', 'env', 'team'), fc.constantFrom('web', 'db', 'x'), { maxKeys: 2 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant('create' as const),
    name: fc.constantFrom(...NAMES),
    type: fc.constantFrom('ClusterIP', 'LoadBalancer', 'NodePort'),
    labels: labelsArb,
    finalizer: fc.boolean(),
    invalid: fc.boolean(),
  }),
  fc.record({ op: fc.constant('replace' as const), name: fc.constantFrom(...NAMES), labels: labelsArb, type: fc.constantFrom('ClusterIP', 'LoadBalancer', 'NodePort'), stale: fc.boolean() }),
  fc.record({
    op: fc.constant('status' as const),
    name: fc.constantFrom(...NAMES),
    ips: fc.subarray(['203.0.113.1', '203.0.113.2', '198.51.100.9']),
    conditions: fc.array(fc.tuple(fc.constantFrom('Ready', 'Healthy', 'Synced'), fc.constantFrom('True', 'False', 'Unknown')), { maxLength: 3 }),
    stale: fc.boolean(),
    finalizers: fc.option(fc.boolean(), { nil: null }),
  }),
  fc.record({ op: fc.constant('delete' as const), name: fc.constantFrom(...NAMES) }),
  fc.record({ op: fc.constant('resend' as const), name: fc.constantFrom(...NAMES), subresource: fc.boolean() }),
  fc.record({ op: fc.constant('dryRun' as const), inner: fc.constantFrom('create' as const, 'status' as const), name: fc.constantFrom(...NAMES) }),
  fc.record({ op: fc.constant('apply' as const), name: fc.constantFrom(...NAMES), labels: labelsArb, affinity: fc.constantFrom('None', 'ClientIP'), status: fc.boolean(), force: fc.boolean() }),
);

/** A server-side apply configuration: spec and labels, or a condition on /status. */
function applyConfig(step: Extract<Step, { op: 'apply' }>): string {
  const metadata = { name: step.name, labels: step.labels };
  if (step.status) {
    const conditions = [{ type: 'Applied', status: step.affinity === 'None' ? 'True' : 'False', reason: 'R', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }];
    return JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: step.name }, status: { conditions } });
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata, spec: { type: 'LoadBalancer', sessionAffinity: step.affinity, ports: [{ port: 80 }] } });
}

function service(name: string, type: string, labels: Record<string, string>, finalizers?: string[]): Service {
  return applyServiceDefaults({
    metadata: { name, labels, ...(finalizers ? { finalizers } : {}) },
    spec: { type, selector: { app: name }, ports: [{ port: 80 }] },
    status: { loadBalancer: {} },
  });
}

describe('folding the log reproduces every answer', () => {
  it('holds for random write sequences', async () => {
    const totals = { answers: 0, rejected: 0, noops: 0, applied: 0 };
    await fc.assert(
      // Several field managers, so that the answers' managedFields (and their fold) move between them.
      fc.asyncProperty(fc.array(fc.tuple(stepArb, MANAGER_ARB), { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 1000 }), async (managedSteps, seed) => {
        const ctx = await createAppContext(seed);
        try {
          const handlers = handlersOf(ctx.app);
          const patches = ctx.app.get(PatchServiceHandler);
          const repository = ctx.app.get(ServiceRepository);
          const store = ctx.app.get(SqliteEventStore);
          const answers: { rv: number; text: string }[] = [];
          let lastHead = store.head();
          for (const [step, manager] of managedSteps) {
            ctx.clock.advance(1500);
            const current = repository.loadLive('default', step.name).object;
            let command: ServiceCommand | undefined;
            let apply: Extract<Step, { op: 'apply' }> | undefined;
            let dryRun = false;
            switch (step.op) {
              case 'create': {
                const object = service(step.name, step.type, step.labels, step.finalizer ? ['example.com/hold'] : undefined);
                if (step.invalid) object.spec.ports = [{ port: 0, protocol: 'TCP', targetPort: 0 }];
                command = { kind: 'CreateService', namespace: 'default', object };
                break;
              }
              case 'replace': {
                const object = service(step.name, step.type, step.labels, current?.metadata.finalizers);
                if (step.stale) object.metadata.resourceVersion = '1';
                command = { kind: 'ReplaceService', namespace: 'default', name: step.name, object };
                break;
              }
              case 'status': {
                if (!current) break;
                const object = structuredClone(current);
                if (step.stale) object.metadata.resourceVersion = '1';
                if (step.finalizers === false) delete object.metadata.finalizers;
                const conditions: Condition[] = step.conditions.map(([type, status]) => ({ type, status, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'R', message: '' }));
                object.status = { loadBalancer: step.ips.length ? { ingress: step.ips.map((ip) => ({ ip, ipMode: 'VIP' })) } : {}, ...(conditions.length ? { conditions } : {}) };
                command = { kind: 'ReplaceServiceStatus', namespace: 'default', name: step.name, object };
                break;
              }
              case 'delete':
                command = { kind: 'DeleteService', namespace: 'default', name: step.name };
                break;
              case 'resend':
                if (!current) break;
                command = step.subresource
                  ? { kind: 'ReplaceServiceStatus', namespace: 'default', name: step.name, object: structuredClone(current) }
                  : { kind: 'ReplaceService', namespace: 'default', name: step.name, object: structuredClone(current) };
                break;
              case 'apply':
                apply = step;
                break;
              case 'dryRun':
                dryRun = true;
                command =
                  step.inner === 'create'
                    ? { kind: 'CreateService', namespace: 'default', object: service(step.name, 'LoadBalancer', {}) }
                    : current
                      ? {
                          kind: 'ReplaceServiceStatus',
                          namespace: 'default',
                          name: step.name,
                          object: { ...structuredClone(current), status: { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP' }] } } },
                        }
                      : undefined;
                break;
            }
            if (!command && !apply) continue;
            let result;
            try {
              result = apply
                ? await patches.execute(
                    new PatchServiceCommand(
                      'default',
                      apply.name,
                      apply.status ? 'status' : '',
                      { type: 'apply', body: applyConfig(apply), fieldValidation: 'Strict', force: apply.force },
                      { ...request, fieldManager: manager, dryRun },
                    ),
                  )
                : await handlers.execute(command!, { ...request, fieldManager: manager, dryRun });
              if (apply && !dryRun) totals.applied++;
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
              totals.rejected++;
              expect(store.head()).toBe(lastHead);
              continue;
            }
            const head = store.head();
            if (dryRun) {
              expect(head).toBe(lastHead);
              continue;
            }
            expect(head).toBeGreaterThanOrEqual(lastHead);
            const rv = Number(result.object.metadata.resourceVersion);
            if (head === lastHead) {
              // Nothing appended: the answer is the unchanged stored object.
              totals.noops++;
              expect(rv).toBeLessThanOrEqual(head);
            } else if (command?.kind !== 'DeleteService' && rv === head) {
              answers.push({ rv, text: JSON.stringify(result.object) });
            }
            lastHead = head;
          }
          const report = foldLogAndCompare(join(ctx.dataDir, 'svctrail.db'));
          expect(report.differences).toEqual([]);
          for (const answer of answers) expect(report.answers.get(answer.rv)).toBe(answer.text);
          totals.answers += answers.length;
        } finally {
          await ctx.close();
        }
      }),
      // FC_SEED replays a reported counterexample.
      { numRuns: 100, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
    );
    // The generator must reach every branch, or the property proves little.
    expect(totals.answers).toBeGreaterThan(100);
    expect(totals.rejected).toBeGreaterThan(10);
    expect(totals.noops).toBeGreaterThan(0);
    expect(totals.applied).toBeGreaterThan(20);
  }, 240000);
});
