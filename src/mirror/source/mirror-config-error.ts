/** The kubeconfig given to --mirror cannot be used as it is (missing context, cluster or user, unreadable file). */
export class MirrorConfigError extends Error {}
