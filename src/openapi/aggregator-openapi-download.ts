// The cluster's aggregator downloads an extension API server's /openapi/v2 and /openapi/v3 as
// system:aggregator and merges every group-version it lists into the cluster's own documents.
// svctrail's would bring its api/v1 (Services and Events only) there, and the aggregator may then
// answer the cluster's /openapi/v3/api/v1 from it (kubectl explain pod would find no Pod). The
// history group has no OpenAPI document, so the aggregator is told there is none: a 404, which
// it takes as "no spec" (kube-aggregator's downloaders).
export const AGGREGATOR_OPENAPI_USER = 'system:aggregator';

export function isAggregatorOpenApiDownload(userName: string): boolean {
  return userName === AGGREGATOR_OPENAPI_USER;
}
