// /openapi/v3/apis/events.k8s.io/v1 as svctrail serves it: the Event endpoints and every schema
// they reach, the meta/v1 ones shared with the Service document.
import { SERVER_VERSION } from '../kube-api/discovery.controller';
import { EVENTS_V1_PATHS } from './events-v1-openapi-paths';
import { EVENTS_V1_SCHEMAS } from './events-v1-openapi-schemas';
import { isOpenApiObject, type OpenApiObject, type OpenApiValue } from './openapi-value';
import { type PublishedDocument, publishDocument } from './published-document';
import { SCHEMA_REF_PREFIX, SERVICE_SCHEMAS } from './service-openapi-schemas';
import { SECURITY_SCHEMES } from './service-openapi-v3';

/** The group-version key in the /openapi/v3 index, and the path after /openapi/v3/. */
export const EVENTS_V1_OPENAPI_PATH = 'apis/events.k8s.io/v1';

function refsIn(value: OpenApiValue, into: string[]): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, into));
  else if (isOpenApiObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') into.push(v.slice(SCHEMA_REF_PREFIX.length));
      else refsIn(v, into);
    }
  }
  return into;
}

/** The schemas the paths reach (and Status, every error's body), in name order as upstream writes them. */
function reachedSchemas(): Record<string, OpenApiObject> {
  const pool: Record<string, OpenApiObject> = { ...SERVICE_SCHEMAS, ...EVENTS_V1_SCHEMAS };
  const reached = new Set<string>();
  const queue = [...refsIn(EVENTS_V1_PATHS, []), 'io.k8s.apimachinery.pkg.apis.meta.v1.Status'];
  while (queue.length) {
    const name = queue.pop()!;
    if (reached.has(name)) continue;
    if (!pool[name]) throw new Error(`no schema ${name}`);
    reached.add(name);
    queue.push(...refsIn(pool[name], []));
  }
  return Object.fromEntries([...reached].sort().map((name) => [name, pool[name]]));
}

export function buildEventsV1OpenApiV3(): OpenApiObject {
  return {
    components: { schemas: reachedSchemas(), securitySchemes: SECURITY_SCHEMES },
    info: { title: 'Kubernetes', version: SERVER_VERSION.gitVersion },
    openapi: '3.0.0',
    paths: EVENTS_V1_PATHS,
  };
}

/** Built once: the document is static, and its hash must not change while the process lives. */
export const EVENTS_V1_OPENAPI_V3: PublishedDocument = publishDocument(Buffer.from(JSON.stringify(buildEventsV1OpenApiV3()), 'utf8'));
