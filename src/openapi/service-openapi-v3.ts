// /openapi/v3/api/v1 as svctrail serves it (Service schemas and endpoints only).
import { SERVER_VERSION } from '../kube-api/discovery.controller';
import type { OpenApiObject } from './openapi-value';
import { type PublishedDocument, publishDocument } from './published-document';
import { SERVICE_PATHS } from './service-openapi-paths';
import { SERVICE_SCHEMAS } from './service-openapi-schemas';

/** The group-version key in the /openapi/v3 index, and the path after /openapi/v3/. */
export const CORE_V1_OPENAPI_PATH = 'api/v1';

export const SECURITY_SCHEMES: OpenApiObject = {
  BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' },
};

export function buildServiceOpenApiV3(): OpenApiObject {
  return {
    components: { schemas: SERVICE_SCHEMAS, securitySchemes: SECURITY_SCHEMES },
    info: { title: 'Kubernetes', version: SERVER_VERSION.gitVersion },
    openapi: '3.0.0',
    paths: SERVICE_PATHS,
  };
}

/** Built once: the document is static, and its hash must not change while the process lives. */
export const SERVICE_OPENAPI_V3: PublishedDocument = publishDocument(Buffer.from(JSON.stringify(buildServiceOpenApiV3()), 'utf8'));
