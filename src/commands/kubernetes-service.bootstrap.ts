// Every real cluster has default/kubernetes on the first service IP (object-semantics.md §9);
// svctrail creates it once, through the ordinary write path, so it has a history like any other.
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { SERVICE_READ_STORE } from '../store/ports/service-read-store';
import type { ServiceReadStore } from '../store/ports/service-read-store';
import { AppConfig, APP_CONFIG } from '../config/app-config';
import { ClusterNetwork } from '../config/cluster-network';
import { applyServiceDefaults } from '../domain/service-defaults';
import { AlreadyExistsError } from '../domain/errors/domain-errors';
import { CreateServiceHandler } from './create-service.handler';
import { CreateServiceCommand } from './service.commands';

@Injectable()
export class KubernetesServiceBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly create: CreateServiceHandler,
    @Inject(SERVICE_READ_STORE) private readonly reads: ServiceReadStore,
    private readonly network: ClusterNetwork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A mirror records the source's own default/kubernetes; it writes nothing of its own.
    if (this.config.mirror) return;
    // Present already (a read-only server must not even try to write).
    if ((await this.reads.liveJson('default', 'kubernetes')) !== undefined) return;
    const object = applyServiceDefaults({
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: {
        ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: this.config.port || 6443 }],
        clusterIP: this.network.kubernetesServiceIP,
        type: 'ClusterIP',
        sessionAffinity: 'None',
      },
      status: { loadBalancer: {} },
    });
    try {
      await this.create.execute(
        new CreateServiceCommand(
          { kind: 'CreateService', namespace: 'default', object },
          { user: 'system:apiserver', groups: ['system:masters'], userAgent: 'svctrail', fieldManager: 'kube-apiserver', requestId: 'bootstrap', dryRun: false },
        ),
      );
    } catch (error) {
      // Created at an earlier start (or by another replica): the create is refused and stores nothing.
      if (error instanceof AlreadyExistsError) return;
      // Replicas starting together race for it: the loser may be refused on its cluster IP (checked
      // before the name, as kube-apiserver allocates before storing). Present now: nothing to do.
      if ((await this.reads.liveJson('default', 'kubernetes')) !== undefined) return;
      throw error;
    }
  }
}
