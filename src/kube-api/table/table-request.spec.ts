import { BadRequestError } from '../../domain/errors/domain-errors';
import { type ConversionRequest, parseIncludeObject, parseTableRequest } from './table-request';

const KUBECTL_GET = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const table = (version: 'v1' | 'v1beta1', format: 'json' | 'yaml' = 'json'): ConversionRequest => ({ as: 'Table', version, format });

describe('parseTableRequest (Accept negotiation of as=/g=/v=)', () => {
  it.each<[string, string | undefined, ConversionRequest | undefined]>([
    ['kubectl get', KUBECTL_GET, table('v1')],
    ['v1beta1 first', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io', table('v1beta1')],
    ['v1beta1 only', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io', table('v1beta1')],
    ['parameter order and spaces do not matter', 'application/json; g=meta.k8s.io ; v=v1; as=Table', table('v1')],
    ['no header', undefined, undefined],
    ['empty header', '', undefined],
    ['plain json', 'application/json', undefined],
    ['a plain range first wins over a later Table range', 'application/json,application/json;as=Table;v=v1;g=meta.k8s.io', undefined],
    ['kubectl -o yaml / create / apply', 'application/json', undefined],
    ['kubectl describe (protobuf is not offered, json plain)', 'application/vnd.kubernetes.protobuf,application/json', undefined],
    ['client-node', 'application/json, */*;q=0.8', undefined],
    ['an unknown as= is skipped', 'application/json;as=Foo;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io', table('v1')],
    ['discovery ranges are skipped', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;as=Table;v=v1;g=meta.k8s.io', table('v1')],
    ['as=Table without g is skipped', 'application/json;as=Table;v=v1,application/json', undefined],
    ['as=Table in another version is skipped', 'application/json;as=Table;v=v2;g=meta.k8s.io', undefined],
    ['g/v without as is still a conversion request, and skipped', 'application/json;v=v1,application/json;as=Table;v=v1;g=meta.k8s.io', table('v1')],
    ['Table in protobuf is skipped', 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json', undefined],
    ['Table in YAML', 'application/yaml;as=Table;v=v1;g=meta.k8s.io', table('v1', 'yaml')],
    ['*/* with as=Table picks JSON', '*/*;as=Table;v=v1;g=meta.k8s.io', table('v1')],
    ['application/* with as=Table picks JSON', 'application/*;as=Table;v=v1;g=meta.k8s.io', table('v1')],
    ['higher q wins regardless of position', 'application/json;q=0.5,application/json;as=Table;v=v1;g=meta.k8s.io', table('v1')],
    ['a more specific range sorts before */*', '*/*,application/json;as=Table;v=v1;g=meta.k8s.io', table('v1')],
    ['an unparseable q is 0', 'application/json;as=Table;v=v1;g=meta.k8s.io;q= 1,application/json', undefined],
    ['stream=watch is allowed on JSON', 'application/json;stream=watch;as=Table;v=v1;g=meta.k8s.io', table('v1')],
    ['another stream is skipped', 'application/json;stream=chunks;as=Table;v=v1;g=meta.k8s.io,application/json', undefined],
    ['params are case-sensitive (as goautoneg)', 'application/json;AS=Table;v=v1;g=meta.k8s.io,application/json;as=table;v=v1;g=meta.k8s.io', undefined],
    ['PartialObjectMetadata', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json', { as: 'PartialObjectMetadata', version: 'v1', format: 'json' }],
    ['PartialObjectMetadataList v1beta1', 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1', { as: 'PartialObjectMetadataList', version: 'v1beta1', format: 'json' }],
  ])('%s', (_name, accept, expected) => {
    expect(parseTableRequest(accept)).toEqual(expected);
  });
});

describe('parseIncludeObject (TableOptions.includeObject)', () => {
  it.each<[string | undefined, string]>([
    [undefined, 'Metadata'],
    ['', 'Metadata'],
    ['Metadata', 'Metadata'],
    ['None', 'None'],
    ['Object', 'Object'],
  ])('%j -> %s', (value, expected) => {
    expect(parseIncludeObject(value)).toBe(expected);
  });

  it.each<[string, string]>([
    ['object', `Unable to convert to Table as requested: includeObject: Invalid value: "object": must be 'Metadata', 'Object', 'None', or empty`],
    ['a"b\\c', `Unable to convert to Table as requested: includeObject: Invalid value: "a\\"b\\\\c": must be 'Metadata', 'Object', 'None', or empty`],
  ])('%j is a 400 BadRequest', (value, message) => {
    expect(() => parseIncludeObject(value)).toThrow(BadRequestError);
    expect(() => parseIncludeObject(value)).toThrow(message);
  });
});
