// A store with a varied history for maintenance tests: LoadBalancer Services whose ingress and
// conditions change, a deletion, a re-creation under the same name, several namespaces.
import type { WriteRequestContext } from '../../src/commands/write-result';
import { applyServiceDefaults } from '../../src/domain/service-defaults';
import type { Condition, Service } from '../../src/domain/service.types';
import { ServiceRepository } from '../../src/store/service-repository';
import type { AppContext } from '../helpers/app-context';
import { handlersOf, type ServiceHandlers } from '../helpers/service-handlers';

export const as = (user: string): WriteRequestContext => ({ user, groups: ['ops'], userAgent: `${user}/1`, fieldManager: user, requestId: `${user}-req`, dryRun: false });

export const loadBalancer = (name: string, namespace = 'default'): Service =>
  applyServiceDefaults({
    metadata: { name, namespace, labels: { app: name } },
    spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port: 80 }] },
    status: { loadBalancer: {} },
  });

const condition = (type: string, status: string, reason: string): Condition => ({
  type,
  status,
  lastTransitionTime: '2026-01-01T00:00:00Z',
  reason,
  message: `${type} is ${status}`,
});

export class StoreWriter {
  readonly handlers: ServiceHandlers;
  readonly repository: ServiceRepository;

  constructor(private readonly ctx: AppContext) {
    this.handlers = handlersOf(ctx.app);
    this.repository = ctx.app.get(ServiceRepository);
  }

  create(name: string, namespace = 'default') {
    return this.handlers.execute({ kind: 'CreateService', namespace, object: loadBalancer(name, namespace) }, as('creator'));
  }

  status(name: string, ips: string[], conditions: Condition[] = [], namespace = 'default') {
    const current = this.repository.loadLive(namespace, name).object!;
    return this.handlers.execute(
      {
        kind: 'ReplaceServiceStatus',
        namespace,
        name,
        object: { ...current, status: { loadBalancer: ips.length ? { ingress: ips.map((ip) => ({ ip, ipMode: 'VIP' as const })) } : {}, ...(conditions.length ? { conditions } : {}) } },
      },
      as('lb-controller'),
    );
  }

  remove(name: string, namespace = 'default') {
    return this.handlers.execute({ kind: 'DeleteService', namespace, name }, as('operator'));
  }

  /** A history touching every projection; the clock moves one second per write. */
  async history(): Promise<void> {
    const tick = () => this.ctx.clock.advance(1000);
    for (const [name, ns] of [
      ['web', 'default'],
      ['api', 'default'],
      ['db', 'team-a'],
    ] as const) {
      tick();
      await this.create(name, ns);
    }
    tick();
    await this.status('web', ['203.0.113.7'], [condition('Ready', 'False', 'Provisioning')]);
    tick();
    await this.status('web', ['203.0.113.7', '203.0.113.8'], [condition('Ready', 'True', 'Provisioned')]);
    tick();
    await this.status('db', ['198.51.100.1'], [], 'team-a');
    tick();
    await this.status('web', ['203.0.113.8']);
    tick();
    await this.remove('api');
    tick();
    await this.create('api');
    tick();
    await this.status('api', ['203.0.113.9'], [condition('Ready', 'True', 'Provisioned')]);
  }
}
