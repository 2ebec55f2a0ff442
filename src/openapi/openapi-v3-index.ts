// The group-version documents of /openapi/v3 and the index that points at each by hash, as
// kube-apiserver's handler3 does (its keys in name order: Go writes the map sorted).
import { EVENTS_V1_OPENAPI_PATH, EVENTS_V1_OPENAPI_V3 } from './events-v1-openapi-v3';
import type { OpenApiObject } from './openapi-value';
import type { PublishedDocument } from './published-document';
import { CORE_V1_OPENAPI_PATH, SERVICE_OPENAPI_V3 } from './service-openapi-v3';

/** Each served document by its path after /openapi/v3/. */
export const OPENAPI_V3_DOCUMENTS: ReadonlyMap<string, PublishedDocument> = new Map([
  [CORE_V1_OPENAPI_PATH, SERVICE_OPENAPI_V3],
  [EVENTS_V1_OPENAPI_PATH, EVENTS_V1_OPENAPI_V3],
]);

export function serverRelativeUrl(path: string, hash: string): string {
  return `/openapi/v3/${path}?hash=${hash}`;
}

export function openApiV3Index(): OpenApiObject {
  const paths = [...OPENAPI_V3_DOCUMENTS.keys()].sort().map((path) => [path, { serverRelativeURL: serverRelativeUrl(path, OPENAPI_V3_DOCUMENTS.get(path)!.hash) }]);
  return { paths: Object.fromEntries(paths) };
}
