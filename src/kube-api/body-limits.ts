/** kube-apiserver's request body limit (3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;
