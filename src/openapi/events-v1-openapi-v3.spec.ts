import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { eventsV1EventSchema, eventsV1EventSeriesSchema } from '../domain/codec/events-v1-event-schema';
import { eventSourceSchema, objectReferenceSchema } from '../domain/codec/event-schema';
import type { StructSchema } from '../domain/codec/go-schema';
import { buildEventsV1OpenApiV3, EVENTS_V1_OPENAPI_V3 } from './events-v1-openapi-v3';
import { openApiV3Index } from './openapi-v3-index';
import { isOpenApiObject, type OpenApiObject, type OpenApiValue } from './openapi-value';
import { SCHEMA_REF_PREFIX } from './service-openapi-schemas';
import { SERVICE_OPENAPI_V3 } from './service-openapi-v3';

const EVENTS = 'io.k8s.api.events.v1.';
const CORE = 'io.k8s.api.core.v1.';

function refs(value: OpenApiValue, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, into));
  else if (isOpenApiObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') into.push(v);
      else refs(v, into);
    }
  }
  return into;
}

/** The fields of an interface in events-v1-event.types.ts. */
function interfaceFields(name: string): string[] {
  const file = join(__dirname, '..', 'domain', 'kube-event', 'events-v1-event.types.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  let found: string[] = [];
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === name) found = node.members.filter(ts.isPropertySignature).map((m) => m.name.getText(source));
  });
  return found;
}

describe('the /openapi/v3/apis/events.k8s.io/v1 document', () => {
  const document = buildEventsV1OpenApiV3();
  const schemas = (document.components as OpenApiObject).schemas as Record<string, OpenApiObject>;

  it('resolves every $ref to a schema it carries, and carries no other', () => {
    const used = new Set(refs(document).map((r) => r.slice(SCHEMA_REF_PREFIX.length)));
    used.add('io.k8s.apimachinery.pkg.apis.meta.v1.Status');
    expect([...used].sort()).toEqual(Object.keys(schemas));
  });

  it.each([
    [EVENTS + 'Event', eventsV1EventSchema, 'EventsV1Event'],
    [EVENTS + 'EventSeries', eventsV1EventSeriesSchema, 'EventsV1EventSeries'],
    [CORE + 'ObjectReference', objectReferenceSchema, undefined],
    [CORE + 'EventSource', eventSourceSchema, undefined],
  ] as [string, StructSchema, string | undefined][])('describes exactly the JSON fields of %s that the codec reads', (name, struct, typeName) => {
    const properties = Object.keys(schemas[name].properties as OpenApiObject).sort();
    expect(properties).toEqual(struct.fields.map((f) => f.json).sort());
    if (typeName) expect(properties).toEqual(interfaceFields(typeName).sort());
  });

  it('marks Event and EventList with the events.k8s.io GVK kubectl explain looks up, and requires eventTime', () => {
    expect(schemas[EVENTS + 'Event']['x-kubernetes-group-version-kind']).toEqual([{ group: 'events.k8s.io', kind: 'Event', version: 'v1' }]);
    expect(schemas[EVENTS + 'EventList']['x-kubernetes-group-version-kind']).toEqual([{ group: 'events.k8s.io', kind: 'EventList', version: 'v1' }]);
    expect(schemas[EVENTS + 'Event'].required).toEqual(['eventTime']);
    expect((schemas[EVENTS + 'Event'].properties as OpenApiObject).eventTime).toMatchObject({ allOf: [{ $ref: `${SCHEMA_REF_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime` }] });
  });

  it('lists the operations svctrail serves, each tagged events_v1 with the Event GVK, PATCH declaring fieldValidation', () => {
    const served: string[] = [];
    for (const [path, item] of Object.entries(document.paths as OpenApiObject)) {
      for (const [method, op] of Object.entries(item as OpenApiObject)) {
        if (method === 'parameters') continue;
        const operation = op as OpenApiObject;
        served.push(`${method.toUpperCase()} ${path} ${operation.operationId} ${operation['x-kubernetes-action']}`);
        expect(operation.tags).toEqual(['events_v1']);
        expect(operation['x-kubernetes-group-version-kind']).toEqual({ group: 'events.k8s.io', kind: 'Event', version: 'v1' });
        if (method === 'patch') expect((operation.parameters as OpenApiObject[]).map((p) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
      }
    }
    expect(served.sort()).toEqual(
      [
        'GET /apis/events.k8s.io/v1/events listEventsV1EventForAllNamespaces list',
        'DELETE /apis/events.k8s.io/v1/namespaces/{namespace}/events deleteEventsV1CollectionNamespacedEvent deletecollection',
        'GET /apis/events.k8s.io/v1/namespaces/{namespace}/events listEventsV1NamespacedEvent list',
        'POST /apis/events.k8s.io/v1/namespaces/{namespace}/events createEventsV1NamespacedEvent post',
        'DELETE /apis/events.k8s.io/v1/namespaces/{namespace}/events/{name} deleteEventsV1NamespacedEvent delete',
        'GET /apis/events.k8s.io/v1/namespaces/{namespace}/events/{name} readEventsV1NamespacedEvent get',
        'PATCH /apis/events.k8s.io/v1/namespaces/{namespace}/events/{name} patchEventsV1NamespacedEvent patch',
        'PUT /apis/events.k8s.io/v1/namespaces/{namespace}/events/{name} replaceEventsV1NamespacedEvent put',
      ].sort(),
    );
  });

  it('is published under its hash, which the index lists beside api/v1 in name order', () => {
    expect(JSON.stringify(document)).toBe(EVENTS_V1_OPENAPI_V3.bytes.toString());
    expect(openApiV3Index()).toEqual({
      paths: {
        'api/v1': { serverRelativeURL: `/openapi/v3/api/v1?hash=${SERVICE_OPENAPI_V3.hash}` },
        'apis/events.k8s.io/v1': { serverRelativeURL: `/openapi/v3/apis/events.k8s.io/v1?hash=${EVENTS_V1_OPENAPI_V3.hash}` },
      },
    });
    expect(Object.keys(openApiV3Index().paths as OpenApiObject)).toEqual(['api/v1', 'apis/events.k8s.io/v1']);
  });
});
