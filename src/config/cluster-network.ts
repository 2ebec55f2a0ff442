// The parsed --service-cluster-ip-range and --service-node-port-range, provided once.
import { Inject, Injectable } from '@nestjs/common';
import { ClusterIPRange, kubernetesServiceIP, parseClusterIPRange } from '../domain/allocation/cluster-ip-range';
import { NodePortRange, parseNodePortRange } from '../domain/allocation/node-port-range';
import { AppConfig, APP_CONFIG } from './app-config';

@Injectable()
export class ClusterNetwork {
  readonly clusterIPRange: ClusterIPRange;
  readonly nodePortRange: NodePortRange;
  /** The first address of the primary range, held by default/kubernetes. */
  readonly kubernetesServiceIP: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.clusterIPRange = parseClusterIPRange(config.serviceClusterIpRange);
    this.nodePortRange = parseNodePortRange(config.serviceNodePortRange);
    this.kubernetesServiceIP = kubernetesServiceIP(this.clusterIPRange);
  }
}
