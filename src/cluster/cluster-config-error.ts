/**
 * The kubeconfig or in-cluster configuration of a cluster svctrail is a client of cannot be used
 * as it is (missing context, cluster or user, unreadable file, no in-cluster environment).
 */
export class ClusterConfigError extends Error {}
