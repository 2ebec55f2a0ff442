// Mirror mode (`--mirror KUBECONFIG|in-cluster`): the reflectors that record the source cluster's Services and
// its Events about Services, their status for /readyz and /metrics, and the history API's view of
// where writes came from.
// Without --mirror the module provides nothing and svctrail is the API server itself.
import { BeforeApplicationShutdown, DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig, APP_CONFIG } from '../config/app-config';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { ID_FACTORY } from '../shared/ids';
import type { IdFactory } from '../shared/ids';
import { whenAborted } from '../shared/abortable-pause';
import { MIRROR_ACTORS, MIRROR_OBSERVATIONS, MIRROR_SOURCE_STORE, MirrorSourceMismatchError } from '../store/ports/mirror-source-store';
import type { MirrorSourceStore } from '../store/ports/mirror-source-store';
import { KUBE_EVENTS } from '../store/ports/kube-events';
import type { KubeEvents } from '../store/ports/kube-events';
import { MIRROR_LEASE } from '../store/ports/mirror-lease';
import type { HeldLease, MirrorLease } from '../store/ports/mirror-lease';
import { SERVICE_READ_STORE } from '../store/ports/service-read-store';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import { MirrorStatus } from './mirror-status';
import { AuditJoin } from './audit-join';
import { AuditWebhookController } from './audit-webhook.controller';
import { AUDIT_ACTOR_STORE } from '../store/ports/audit-actor-store';
import { ObservedKubeEventRecorder } from './observed-kube-event-recorder';
import { ObservedWriteRecorder } from './observed-write-recorder';
import { ReflectedKubeEvents } from './reflected-kube-events';
import { ReflectedServices } from './reflected-services';
import { Reflector } from './reflector';
import { ClusterClient } from '../cluster/cluster-client';
import { ClusterCredentials } from '../cluster/cluster-credentials';
import { mirrorConnection } from './mirror-connection';

/** New reflectors for each term of the lease (a reflector runs once): the Services' first. */
const REFLECTOR_FACTORY = Symbol('REFLECTOR_FACTORY');
type ReflectorFactory = () => [Reflector<unknown>, ...Reflector<unknown>[]];

@Injectable()
class MirrorLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Mirror');
  private readonly stopping = new AbortController();
  private terms?: Promise<void>;

  constructor(
    @Inject(REFLECTOR_FACTORY) private readonly reflectors: ReflectorFactory,
    @Inject(MIRROR_LEASE) private readonly lease: MirrorLease,
    private readonly status: MirrorStatus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A store that recorded another cluster refuses to start. An unreachable source does not stop
    // the server: it serves what it recorded, and the reflector checks again before recording.
    try {
      await this.reflectors()[0].claimSource();
    } catch (error) {
      if (error instanceof MirrorSourceMismatchError) throw error;
      this.logger.warn(`the source cannot be reached yet (${(error as Error).message}); serving what is recorded and retrying`);
    }
    this.terms = this.run();
  }

  /** Term after term: wait for the lease, record until it is lost or the server stops. */
  private async run(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      let held: HeldLease;
      try {
        held = await this.lease.acquire(signal, () => this.status.lead(false));
      } catch {
        return;
      }
      const reflectors = this.reflectors();
      this.status.lead(true);
      this.logger.log('this replica records the source');
      for (const reflector of reflectors) reflector.start();
      await Promise.race([held.lost, whenAborted(signal)]);
      // Before the store closes or another replica takes over: the writes in flight finish (or fail) first.
      await Promise.all(reflectors.map((reflector) => reflector.stop()));
      this.status.lead(false);
      await held.release();
      if (!signal.aborted) this.logger.warn('the mirror lease was lost: another replica may record the source now');
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.terms;
  }
}

@Global()
@Module({})
export class MirrorModule {
  static register(config: AppConfig): DynamicModule {
    if (!config.mirror) return { module: MirrorModule };
    return {
      module: MirrorModule,
      controllers: [AuditWebhookController],
      providers: [
        MirrorStatus,
        ObservedWriteRecorder,
        ObservedKubeEventRecorder,
        AuditJoin,
        { provide: MIRROR_OBSERVATIONS, useExisting: MIRROR_SOURCE_STORE },
        { provide: MIRROR_ACTORS, useExisting: AUDIT_ACTOR_STORE },
        {
          provide: REFLECTOR_FACTORY,
          inject: [APP_CONFIG, ObservedWriteRecorder, ObservedKubeEventRecorder, MIRROR_SOURCE_STORE, SERVICE_READ_STORE, KUBE_EVENTS, MirrorStatus, CLOCK, ID_FACTORY],
          useFactory: (
            c: AppConfig,
            serviceRecorder: ObservedWriteRecorder,
            eventRecorder: ObservedKubeEventRecorder,
            sources: MirrorSourceStore,
            reads: ServiceReadStore,
            events: KubeEvents,
            status: MirrorStatus,
            clock: Clock,
            ids: IdFactory,
          ): ReflectorFactory => {
            const { connection } = mirrorConnection(c);
            const client = new ClusterClient(connection, { name: 'the source', credentials: new ClusterCredentials(connection, { tokenFileMaxAgeMs: c.tokenFileMaxAgeMs }) });
            const options = {
              pageSize: 500,
              ...(c.mirrorWatchTimeoutSeconds ? { watchTimeoutSeconds: c.mirrorWatchTimeoutSeconds } : {}),
              // Bookmarks arrive about once a minute on a quiet source; twice that without a byte is a stalled connection.
              idleTimeoutMs: Math.max(120, c.mirrorWatchTimeoutSeconds + 30) * 1000,
              maxInFlight: 256,
              backoff: { initialMs: 800, maxMs: 30_000, random: () => ids.random() },
              random: () => ids.random(),
            };
            const services = new ReflectedServices(serviceRecorder, reads);
            const kubeEvents = new ReflectedKubeEvents(eventRecorder, events);
            return () => [
              new Reflector(client, connection.server, services, sources, status.services, clock, options),
              new Reflector(client, connection.server, kubeEvents, sources, status.events, clock, options),
            ];
          },
        },
        MirrorLifecycle,
      ],
      exports: [MirrorStatus, MIRROR_OBSERVATIONS, MIRROR_ACTORS],
    };
  }
}
