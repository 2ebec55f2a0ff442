// Swagger 2.0 JSON -> gnostic `openapi.v2.Document` protobuf, the body client-go unmarshals
// from /openapi/v2. Field numbers are google/gnostic openapiv2/OpenAPIv2.proto. Free-form values
// (defaults, x-* extensions) travel as `Any{yaml}`, as gnostic writes them. A key this encoder
// does not know is an error, so nothing the JSON says is silently lost in the protobuf.
import { stringify as toYaml } from 'yaml';
import { isOpenApiObject, type OpenApiObject, type OpenApiValue } from './openapi-value';
import { boolField, messageField, repeatedStringField, stringField } from './protobuf-writer';

type FieldEncoder = (value: OpenApiValue, path: string) => Buffer;
type MessageEncoder = (value: OpenApiObject, path: string) => Buffer;

interface MessageSpec {
  fields: Record<string, [number, FieldEncoder]>;
  /** Field number of `repeated NamedAny vendor_extension`, if the message has one. */
  vendorExtension?: number;
}

function fail(path: string, what: string): never {
  throw new Error(`cannot encode ${path}: ${what}`);
}

function asObject(value: OpenApiValue, path: string): OpenApiObject {
  return isOpenApiObject(value) ? value : fail(path, 'expected an object');
}

function asArray(value: OpenApiValue, path: string): OpenApiValue[] {
  return Array.isArray(value) ? value : fail(path, 'expected an array');
}

const str =
  (field: number): FieldEncoder =>
  (value, path) =>
    typeof value === 'string' ? stringField(field, value) : fail(path, 'expected a string');

const strs =
  (field: number): FieldEncoder =>
  (value, path) =>
    repeatedStringField(
      field,
      asArray(value, path).map((v) => (typeof v === 'string' ? v : fail(path, 'expected strings'))),
    );

const bool =
  (field: number): FieldEncoder =>
  (value, path) =>
    typeof value === 'boolean' ? boolField(field, value) : fail(path, 'expected a boolean');

/** openapi.v2.Any: field 2 is the value as YAML. */
function anyMessage(value: OpenApiValue): Buffer {
  return stringField(2, toYaml(value));
}

const any =
  (field: number): FieldEncoder =>
  (value) =>
    messageField(field, anyMessage(value));

const anys =
  (field: number): FieldEncoder =>
  (value, path) =>
    Buffer.concat(asArray(value, path).map((v) => messageField(field, anyMessage(v))));

const message =
  (field: number, encode: MessageEncoder): FieldEncoder =>
  (value, path) =>
    messageField(field, encode(asObject(value, path), path));

const repeated =
  (field: number, encode: MessageEncoder): FieldEncoder =>
  (value, path) =>
    Buffer.concat(asArray(value, path).map((v, i) => messageField(field, encode(asObject(v, `${path}[${i}]`), `${path}[${i}]`))));

/** A JSON map as `repeated Named<X> { string name = 1; X value = 2; }`, skipping x-* keys. */
const named =
  (field: number, encode: MessageEncoder): MessageEncoder =>
  (value, path) =>
    Buffer.concat(
      Object.entries(value)
        .filter(([key]) => !key.startsWith('x-'))
        .map(([key, v]) => messageField(field, stringField(1, key), messageField(2, encode(asObject(v, `${path}.${key}`), `${path}.${key}`)))),
    );

function vendorExtensions(field: number, value: OpenApiObject): Buffer {
  return Buffer.concat(
    Object.entries(value)
      .filter(([key]) => key.startsWith('x-'))
      .map(([key, v]) => messageField(field, stringField(1, key), messageField(2, anyMessage(v)))),
  );
}

function encodeWith(spec: MessageSpec): MessageEncoder {
  return (value, path) => {
    const parts: [number, Buffer][] = [];
    for (const [key, v] of Object.entries(value)) {
      if (key.startsWith('x-') && spec.vendorExtension !== undefined) continue;
      const entry = spec.fields[key];
      if (!entry) fail(`${path}.${key}`, 'unknown field');
      parts.push([entry[0], entry[1](v, `${path}.${key}`)]);
    }
    if (spec.vendorExtension !== undefined) parts.push([spec.vendorExtension, vendorExtensions(spec.vendorExtension, value)]);
    // Protobuf encoders write fields in field-number order; the sort is stable for equal numbers.
    return Buffer.concat(parts.sort((a, b) => a[0] - b[0]).map(([, bytes]) => bytes));
  };
}

const encodeSchema: MessageEncoder = (value, path) => encodeSchemaFields(value, path);

// AdditionalPropertiesItem is a oneof { Schema schema = 1; bool boolean = 2; }.
const additionalProperties: FieldEncoder = (value, path) => messageField(21, typeof value === 'boolean' ? boolField(2, value, true) : messageField(1, encodeSchema(asObject(value, path), path)));

// TypeItem { repeated string value = 1; } accepts "string" or ["string", ...].
const typeItem: FieldEncoder = (value, path) => messageField(22, strs(1)(typeof value === 'string' ? [value] : value, path));

// ItemsItem { repeated Schema schema = 1; } accepts a schema or a list of schemas.
const itemsItem: FieldEncoder = (value, path) => messageField(23, repeated(1, encodeSchema)(Array.isArray(value) ? value : [value], path));

const encodeSchemaFields = encodeWith({
  fields: {
    $ref: [1, str(1)],
    format: [2, str(2)],
    title: [3, str(3)],
    description: [4, str(4)],
    default: [5, any(5)],
    uniqueItems: [16, bool(16)],
    required: [19, strs(19)],
    enum: [20, anys(20)],
    additionalProperties: [21, additionalProperties],
    type: [22, typeItem],
    items: [23, itemsItem],
    allOf: [24, repeated(24, encodeSchema)],
    properties: [25, message(25, named(1, encodeSchema))],
    readOnly: [27, bool(27)],
    example: [30, any(30)],
  },
  vendorExtension: 31,
});

const encodeBodyParameter = encodeWith({
  fields: { description: [1, str(1)], name: [2, str(2)], in: [3, str(3)], required: [4, bool(4)], schema: [5, message(5, encodeSchema)] },
  vendorExtension: 6,
});

// QueryParameterSubSchema and FormDataParameterSubSchema share these numbers.
const encodeQueryParameter = encodeWith({
  fields: {
    required: [1, bool(1)],
    in: [2, str(2)],
    description: [3, str(3)],
    name: [4, str(4)],
    allowEmptyValue: [5, bool(5)],
    type: [6, str(6)],
    format: [7, str(7)],
    collectionFormat: [9, str(9)],
    default: [10, any(10)],
    uniqueItems: [20, bool(20)],
    enum: [21, anys(21)],
  },
  vendorExtension: 23,
});

// PathParameterSubSchema and HeaderParameterSubSchema share these numbers.
const encodePathParameter = encodeWith({
  fields: {
    required: [1, bool(1)],
    in: [2, str(2)],
    description: [3, str(3)],
    name: [4, str(4)],
    type: [5, str(5)],
    format: [6, str(6)],
    collectionFormat: [8, str(8)],
    default: [9, any(9)],
    uniqueItems: [19, bool(19)],
    enum: [20, anys(20)],
  },
  vendorExtension: 22,
});

const NON_BODY_FIELD: Record<string, [number, MessageEncoder]> = {
  header: [1, encodePathParameter],
  formData: [2, encodeQueryParameter],
  query: [3, encodeQueryParameter],
  path: [4, encodePathParameter],
};

// ParametersItem { oneof { Parameter parameter = 1; JsonReference json_reference = 2; } }
// Parameter { oneof { BodyParameter body_parameter = 1; NonBodyParameter non_body_parameter = 2; } }
const encodeParametersItem: MessageEncoder = (value, path) => {
  if (typeof value.$ref === 'string') {
    return messageField(2, stringField(1, value.$ref), stringField(2, typeof value.description === 'string' ? value.description : ''));
  }
  if (value.in === 'body') return messageField(1, messageField(1, encodeBodyParameter(value, path)));
  const nonBody = typeof value.in === 'string' ? NON_BODY_FIELD[value.in] : undefined;
  if (!nonBody) fail(path, `unknown parameter location ${String(value.in)}`);
  return messageField(1, messageField(2, messageField(nonBody[0], nonBody[1](value, path))));
};

const encodeResponse = encodeWith({
  fields: {
    description: [1, str(1)],
    // SchemaItem { oneof { Schema schema = 1; FileSchema file_schema = 2; } }
    schema: [2, (value, path) => messageField(2, messageField(1, encodeSchema(asObject(value, path), path)))],
  },
  vendorExtension: 5,
});

// Responses { repeated NamedResponseValue response_code = 1; } with ResponseValue { Response response = 1; }
const encodeResponses: MessageEncoder = (value, path) => Buffer.concat([named(1, (response, p) => messageField(1, encodeResponse(response, p)))(value, path), vendorExtensions(2, value)]);

const encodeOperation = encodeWith({
  fields: {
    tags: [1, strs(1)],
    summary: [2, str(2)],
    description: [3, str(3)],
    operationId: [5, str(5)],
    produces: [6, strs(6)],
    consumes: [7, strs(7)],
    parameters: [8, repeated(8, encodeParametersItem)],
    responses: [9, message(9, encodeResponses)],
    schemes: [10, strs(10)],
    deprecated: [11, bool(11)],
  },
  vendorExtension: 13,
});

const encodePathItem = encodeWith({
  fields: {
    $ref: [1, str(1)],
    get: [2, message(2, encodeOperation)],
    put: [3, message(3, encodeOperation)],
    post: [4, message(4, encodeOperation)],
    delete: [5, message(5, encodeOperation)],
    options: [6, message(6, encodeOperation)],
    head: [7, message(7, encodeOperation)],
    patch: [8, message(8, encodeOperation)],
    parameters: [9, repeated(9, encodeParametersItem)],
  },
  vendorExtension: 10,
});

// Paths { repeated NamedAny vendor_extension = 1; repeated NamedPathItem path = 2; }
const encodePaths: MessageEncoder = (value, path) => Buffer.concat([vendorExtensions(1, value), named(2, encodePathItem)(value, path)]);

const encodeInfo = encodeWith({
  fields: { title: [1, str(1)], version: [2, str(2)], description: [3, str(3)], termsOfService: [4, str(4)] },
  vendorExtension: 7,
});

// SecurityRequirement { repeated NamedStringArray additional_properties = 1; } with StringArray { repeated string value = 1; }
const encodeSecurityRequirement: MessageEncoder = (value, path) =>
  Buffer.concat(Object.entries(value).map(([name, scopes]) => messageField(1, stringField(1, name), messageField(2, strs(1)(scopes, `${path}.${name}`)))));

const encodeApiKeySecurity = encodeWith({
  fields: { type: [1, str(1)], name: [2, str(2)], in: [3, str(3)], description: [4, str(4)] },
  vendorExtension: 5,
});

const encodeBasicSecurity = encodeWith({ fields: { type: [1, str(1)], description: [2, str(2)] }, vendorExtension: 3 });

// SecurityDefinitionsItem is a oneof on the scheme type; only the two kube-apiserver uses.
const encodeSecurityDefinitionsItem: MessageEncoder = (value, path) => {
  if (value.type === 'apiKey') return messageField(2, encodeApiKeySecurity(value, path));
  if (value.type === 'basic') return messageField(1, encodeBasicSecurity(value, path));
  return fail(path, `unsupported security scheme type ${String(value.type)}`);
};

const encodeDocument = encodeWith({
  fields: {
    swagger: [1, str(1)],
    info: [2, message(2, encodeInfo)],
    host: [3, str(3)],
    basePath: [4, str(4)],
    schemes: [5, strs(5)],
    consumes: [6, strs(6)],
    produces: [7, strs(7)],
    paths: [8, message(8, encodePaths)],
    definitions: [9, message(9, named(1, encodeSchema))],
    security: [12, repeated(12, encodeSecurityRequirement)],
    securityDefinitions: [13, message(13, named(1, encodeSecurityDefinitionsItem))],
  },
  vendorExtension: 16,
});

export function encodeGnosticDocument(swagger: OpenApiObject): Buffer {
  return encodeDocument(swagger, '$');
}
