// Turns the OpenAPI 3 document into the Swagger 2.0 form kube-apiserver serves at /openapi/v2,
// so both come from one source. Follows upstream's own v2 output: `$ref` beside a description
// instead of `allOf`, IntOrString as a string with format int-or-string, request bodies as `body`
// parameters, media types as `consumes`/`produces`.
import { isOpenApiObject, type OpenApiObject, type OpenApiValue } from './openapi-value';
import { SCHEMA_REF_PREFIX } from './service-openapi-schemas';

const DEFINITION_REF_PREFIX = '#/definitions/';

// Schema keys whose values are data, not sub-schemas.
const DATA_KEYS = new Set(['default', 'enum', 'required', 'example']);

function toDefinitionRef(ref: string): string {
  if (!ref.startsWith(SCHEMA_REF_PREFIX)) throw new Error(`unexpected $ref ${ref}`);
  return DEFINITION_REF_PREFIX + ref.slice(SCHEMA_REF_PREFIX.length);
}

export function toSwaggerSchema(schema: OpenApiObject): OpenApiObject {
  const out: OpenApiObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'allOf' && Array.isArray(value) && value.length === 1 && isOpenApiObject(value[0]) && typeof value[0].$ref === 'string') {
      out.$ref = toDefinitionRef(value[0].$ref);
    } else if (key === '$ref' && typeof value === 'string') {
      out.$ref = toDefinitionRef(value);
    } else if (key === 'oneOf') {
      // Swagger 2.0 has no oneOf; upstream writes int-or-string as a string.
      if (schema.format !== 'int-or-string') throw new Error('oneOf is only expected for int-or-string');
      out.type = 'string';
    } else if (key.startsWith('x-') || DATA_KEYS.has(key) || !isOpenApiObject(value)) {
      out[key] = value;
    } else if (key === 'properties') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toSwaggerSchema(sub as OpenApiObject)]));
    } else {
      out[key] = toSwaggerSchema(value);
    }
  }
  return out;
}

function toSwaggerParameter(parameter: OpenApiObject): OpenApiObject {
  const { schema, ...rest } = parameter;
  return { ...rest, ...(isOpenApiObject(schema) ? schema : {}) };
}

function mediaTypes(content: OpenApiValue | undefined): string[] {
  return isOpenApiObject(content) ? Object.keys(content) : [];
}

function firstSchema(content: OpenApiValue | undefined): OpenApiObject | undefined {
  if (!isOpenApiObject(content)) return undefined;
  const first = Object.values(content)[0];
  return isOpenApiObject(first) && isOpenApiObject(first.schema) ? toSwaggerSchema(first.schema) : undefined;
}

function toSwaggerOperation(operation: OpenApiObject): OpenApiObject {
  const { description, operationId, parameters, requestBody, responses, ...rest } = operation;
  const body = isOpenApiObject(requestBody) ? [{ in: 'body', name: 'body', ...(requestBody.required === true ? { required: true } : {}), schema: firstSchema(requestBody.content) ?? {} }] : [];
  const produces: string[] = [];
  const swaggerResponses: OpenApiObject = {};
  for (const [code, response] of Object.entries(isOpenApiObject(responses) ? responses : {})) {
    if (!isOpenApiObject(response)) continue;
    for (const type of mediaTypes(response.content)) if (!produces.includes(type)) produces.push(type);
    const schema = firstSchema(response.content);
    swaggerResponses[code] = { description: response.description ?? '', ...(schema ? { schema } : {}) };
  }
  return {
    consumes: isOpenApiObject(requestBody) ? mediaTypes(requestBody.content) : ['*/*'],
    description: description ?? '',
    operationId: operationId ?? '',
    ...(body.length || Array.isArray(parameters) ? { parameters: [...body, ...(Array.isArray(parameters) ? parameters : []).map((p) => toSwaggerParameter(p as OpenApiObject))] } : {}),
    produces,
    responses: swaggerResponses,
    schemes: ['https'],
    ...rest,
  };
}

const OPERATION_KEYS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch']);

function toSwaggerPathItem(item: OpenApiObject): OpenApiObject {
  const out: OpenApiObject = {};
  for (const [key, value] of Object.entries(item)) {
    if (OPERATION_KEYS.has(key) && isOpenApiObject(value)) out[key] = toSwaggerOperation(value);
    else if (key === 'parameters' && Array.isArray(value)) out[key] = value.map((p) => toSwaggerParameter(p as OpenApiObject));
    else out[key] = value;
  }
  return out;
}

/** The Swagger 2.0 document for an OpenAPI 3 document built from `components.schemas` and `paths`. */
export function toSwaggerDocument(document: OpenApiObject): OpenApiObject {
  const components = isOpenApiObject(document.components) ? document.components : {};
  const schemas = isOpenApiObject(components.schemas) ? components.schemas : {};
  const paths = isOpenApiObject(document.paths) ? document.paths : {};
  const securitySchemes = isOpenApiObject(components.securitySchemes) ? components.securitySchemes : undefined;
  return {
    definitions: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, toSwaggerSchema(schema as OpenApiObject)])),
    info: document.info ?? {},
    paths: Object.fromEntries(Object.entries(paths).map(([path, item]) => [path, toSwaggerPathItem(item as OpenApiObject)])),
    ...(securitySchemes ? { security: Object.keys(securitySchemes).map((name) => ({ [name]: [] })), securityDefinitions: securitySchemes } : {}),
    swagger: '2.0',
  };
}
