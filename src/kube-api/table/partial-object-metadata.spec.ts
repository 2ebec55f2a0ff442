import type { Service } from '../../domain/service.types';
import { type ApiError } from '../api-errors';
import { buildPartialObjectMetadataList, partialObjectMetadataListOfObjectError, partialObjectMetadataOfListError, toPartialObjectMetadata } from './partial-object-metadata';

const svc = (name: string, rv: string): Service => ({
  kind: 'Service',
  apiVersion: 'v1',
  metadata: {
    // Deliberately out of Go order: the output must be in ObjectMeta struct order.
    labels: { b: '2', a: '1' },
    resourceVersion: rv,
    name,
    finalizers: ['example.com/keep'],
    namespace: 'default',
    creationTimestamp: '2025-01-01T10:00:00Z',
    uid: `uid-${name}`,
    managedFields: [{ manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }],
  },
  spec: { type: 'ClusterIP', clusterIPs: ['10.96.0.1'] },
  status: { loadBalancer: {} },
});

describe('toPartialObjectMetadata (meta.AsPartialObjectMetadata)', () => {
  it('keeps the whole ObjectMeta, managedFields included, in Go key order', () => {
    expect(JSON.stringify(toPartialObjectMetadata(svc('web', '7'), 'meta.k8s.io/v1'))).toBe(
      '{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"web","namespace":"default","uid":"uid-web","resourceVersion":"7",' +
        '"creationTimestamp":"2025-01-01T10:00:00Z","labels":{"a":"1","b":"2"},"finalizers":["example.com/keep"],' +
        '"managedFields":[{"manager":"m","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}}]}}',
    );
  });
});

describe('buildPartialObjectMetadataList (asPartialObjectMetadataList)', () => {
  it('items carry their own kind/apiVersion; ListMeta copied', () => {
    const list = buildPartialObjectMetadataList([svc('a', '5'), svc('b', '6')], { apiVersion: 'meta.k8s.io/v1beta1', resourceVersion: '9', continue: 'c' });
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(list.metadata).toEqual({ resourceVersion: '9', continue: 'c' });
    expect(list.items!.map((i) => [i.kind, i.apiVersion, i.metadata.name])).toEqual([
      ['PartialObjectMetadata', 'meta.k8s.io/v1beta1', 'a'],
      ['PartialObjectMetadata', 'meta.k8s.io/v1beta1', 'b'],
    ]);
  });

  it('an empty list renders items null (the Go slice is only appended to)', () => {
    expect(JSON.stringify(buildPartialObjectMetadataList([], { apiVersion: 'meta.k8s.io/v1', resourceVersion: '9' }))).toBe(
      '{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"9"},"items":null}',
    );
  });
});

describe('406 for a list/object mismatch', () => {
  it.each<[string, ApiError, string]>([
    ['PartialObjectMetadata of a list', partialObjectMetadataOfListError(), 'you requested PartialObjectMetadata, but the requested object is a list (*core.ServiceList)'],
    ['PartialObjectMetadataList of one object', partialObjectMetadataListOfObjectError(), 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.Service)'],
  ])('%s', (_name, error, message) => {
    expect([error.code, error.reason, error.message, error.details]).toEqual([406, 'NotAcceptable', message, undefined]);
  });
});
