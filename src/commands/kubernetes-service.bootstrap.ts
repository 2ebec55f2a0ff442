// Every real cluster has default/kubernetes on the first service IP (object-semantics.md §9);
// svctrail creates it once, through the ordinary write path, so it has a history like any other.
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig, APP_CONFIG } from '../config/app-config';
import { ClusterNetwork } from '../config/cluster-network';
import { applyServiceDefaults } from '../domain/service-defaults';
import { ServiceRepository } from '../store/service-repository';
import { ServiceCommandExecutor } from './service-command-executor';

@Injectable()
export class KubernetesServiceBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly executor: ServiceCommandExecutor,
    private readonly repository: ServiceRepository,
    private readonly network: ClusterNetwork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.repository.loadLive('default', 'kubernetes').object) return;
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
    await this.executor.execute(
      { kind: 'CreateService', namespace: 'default', object },
      { user: 'system:apiserver', groups: ['system:masters'], userAgent: 'svctrail', fieldManager: 'kube-apiserver', requestId: 'bootstrap', dryRun: false },
    );
  }
}
