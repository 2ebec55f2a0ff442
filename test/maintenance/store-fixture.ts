// A store with a varied history for maintenance tests: LoadBalancer Services whose ingress and
// conditions change, a deletion, a re-creation under the same name, several namespaces; and
// (eventHistory) controllers' Events beside them: created, repeated, deleted, expired, created again.
import { CommandBus } from '@nestjs/cqrs';
import type { WriteRequestContext } from '../../src/commands/write-result';
import type { KubeEvent } from '../../src/domain/kube-event/kube-event.types';
import type { CreateKubeEvent } from '../../src/domain/kube-event/kube-event.commands';
import { decideKubeEventCreate } from '../../src/domain/kube-event/kube-event.decider';
import { DeleteKubeEventCommand, PatchKubeEventCommand, type KubeEventWriteResult } from '../../src/kube-events/commands/kube-event.commands';
import { KubeEventWriteRunner } from '../../src/kube-events/commands/kube-event-write-runner';
import { KubeEventExpiryService } from '../../src/kube-events/kube-event-expiry.service';
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

/** What client-go's event recorder POSTs about a Service. */
export const recorderEvent = (name: string, namespace: string, service: string, reason = 'EnsuringLoadBalancer'): KubeEvent => ({
  metadata: { name, namespace, labels: { recorder: 'service-controller' } },
  involvedObject: { kind: 'Service', namespace, name: service, uid: `${service}-uid`, apiVersion: 'v1' },
  reason,
  message: `${reason} ${service}`,
  source: { component: 'service-controller' },
  firstTimestamp: '2026-01-02T03:00:00Z',
  lastTimestamp: '2026-01-02T03:00:00Z',
  count: 1,
  type: reason.startsWith('Sync') ? 'Warning' : 'Normal',
  eventTime: null,
  reportingComponent: 'service-controller',
  reportingInstance: '',
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

  /** A POST's write, queued at once (a replay's progress hook commits it before it goes on). */
  event(name: string, namespace: string, service: string, reason?: string): Promise<KubeEventWriteResult> {
    const command: CreateKubeEvent = { kind: 'CreateKubeEvent', namespace, object: recorderEvent(name, namespace, service, reason), api: 'v1' };
    return this.ctx.app.get(KubeEventWriteRunner).run({ namespace, name, verb: 'create', decide: (state, context) => decideKubeEventCreate(command, state, context) }, as('recorder'));
  }

  /** The recorder's repeat: a strategic-merge PATCH of count and lastTimestamp. */
  repeatEvent(name: string, namespace: string, count: number): Promise<KubeEventWriteResult> {
    const body = JSON.stringify({ count, lastTimestamp: `2026-01-02T03:00:${String(count).padStart(2, '0')}Z` });
    return this.ctx.app.get(CommandBus).execute(new PatchKubeEventCommand(namespace, name, { type: 'strategic', body, fieldValidation: 'Strict' }, 'v1', as('recorder')));
  }

  deleteEvent(name: string, namespace: string): Promise<KubeEventWriteResult> {
    return this.ctx.app.get(CommandBus).execute(new DeleteKubeEventCommand({ kind: 'DeleteKubeEvent', namespace, name }, 'v1', as('operator')));
  }

  /**
   * Controllers' Events beside the Services (after history()): one expired by the --event-ttl
   * sweep, one repeated, one deleted and created again under its name, some still live.
   */
  async eventHistory(): Promise<void> {
    const tick = () => this.ctx.clock.advance(1000);
    tick();
    await this.event('api.1800000000000001', 'default', 'api', 'SyncLoadBalancerFailed');
    // Its lease (--event-ttl, 1 h) runs out: the sweep ends it with an expiry fact.
    this.ctx.clock.advance(3_601_000);
    await this.ctx.app.get(KubeEventExpiryService).sweep();
    tick();
    await this.event('web.1800000000000002', 'default', 'web');
    tick();
    await this.event('db.1800000000000003', 'team-a', 'db');
    tick();
    await this.repeatEvent('web.1800000000000002', 'default', 2);
    tick();
    await this.status('db', ['198.51.100.1'], [condition('Ready', 'True', 'Provisioned')], 'team-a');
    tick();
    await this.deleteEvent('db.1800000000000003', 'team-a');
    tick();
    await this.event('db.1800000000000003', 'team-a', 'db', 'EnsuredLoadBalancer');
    tick();
    await this.repeatEvent('web.1800000000000002', 'default', 3);
    tick();
    await this.event('web.1800000000000004', 'default', 'web', 'EnsuredLoadBalancer');
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
