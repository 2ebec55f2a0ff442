// /openapi/v2: the Swagger 2.0 form of every group-version's v3 document in one (Services and
// events.k8s.io Events), served as gnostic protobuf (what kubectl 1.27/1.28 require) or as JSON.
import { buildEventsV1OpenApiV3 } from './events-v1-openapi-v3';
import { encodeGnosticDocument } from './gnostic-openapi-v2-encoder';
import { toSwaggerDocument } from './openapi-v3-to-swagger';
import { isOpenApiObject, type OpenApiObject } from './openapi-value';
import { type PublishedDocument, publishDocument } from './published-document';
import { buildServiceOpenApiV3 } from './service-openapi-v3';

const objectAt = (value: OpenApiObject, key: string): OpenApiObject => (isOpenApiObject(value[key]) ? value[key] : {});

/** One v3 document of the paths and schemas of all (the schemas they share are the same objects). */
function allGroupVersions(documents: readonly OpenApiObject[]): OpenApiObject {
  const schemas: OpenApiObject = {};
  for (const document of documents) Object.assign(schemas, objectAt(objectAt(document, 'components'), 'schemas'));
  const sortedSchemas = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((name) => [name, schemas[name]]),
  );
  return {
    ...documents[0],
    components: { ...objectAt(documents[0], 'components'), schemas: sortedSchemas },
    paths: Object.assign({}, ...documents.map((document) => objectAt(document, 'paths'))) as OpenApiObject,
  };
}

export function buildSwagger(): OpenApiObject {
  return toSwaggerDocument(allGroupVersions([buildServiceOpenApiV3(), buildEventsV1OpenApiV3()]));
}

const swagger = buildSwagger();

export const OPENAPI_V2_JSON_DOCUMENT: PublishedDocument = publishDocument(Buffer.from(JSON.stringify(swagger), 'utf8'));

export const OPENAPI_V2_PROTOBUF_DOCUMENT: PublishedDocument = publishDocument(encodeGnosticDocument(swagger));
