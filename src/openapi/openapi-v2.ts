// /openapi/v2 for Services: the Swagger 2.0 form of the v3 document, served as gnostic protobuf
// (what kubectl 1.27/1.28 require) or as JSON.
import { encodeGnosticDocument } from './gnostic-openapi-v2-encoder';
import { toSwaggerDocument } from './openapi-v3-to-swagger';
import type { OpenApiObject } from './openapi-value';
import { type PublishedDocument, publishDocument } from './published-document';
import { buildServiceOpenApiV3 } from './service-openapi-v3';

export function buildServiceSwagger(): OpenApiObject {
  return toSwaggerDocument(buildServiceOpenApiV3());
}

const swagger = buildServiceSwagger();

export const SERVICE_OPENAPI_V2_JSON: PublishedDocument = publishDocument(Buffer.from(JSON.stringify(swagger), 'utf8'));

export const SERVICE_OPENAPI_V2_PROTOBUF: PublishedDocument = publishDocument(encodeGnosticDocument(swagger));
