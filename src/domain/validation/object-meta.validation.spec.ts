import { type FieldError } from '../errors/field-error';
import { type ObjectMeta } from '../service.types';
import { validatePathSegmentName } from './name-validation';
import { validateGenericObjectMeta, validateGenericObjectMetaUpdate, validateObjectMetaCreate, validateObjectMetaUpdate } from './object-meta.validation';

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QNAME_NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const meta = (m: Partial<ObjectMeta> = {}): ObjectMeta => ({ name: 'web', namespace: 'default', ...m });
const stored = (m: Partial<ObjectMeta> = {}): ObjectMeta => meta({ uid: 'uid-1', resourceVersion: '7', creationTimestamp: '2025-01-02T03:04:05Z', ...m });
const lines = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('validateObjectMetaCreate (core ValidateObjectMeta, Service name rules)', () => {
  it.each<[string, Partial<ObjectMeta>, string[]]>([
    ['valid', {}, []],
    // §8 case 6
    ['DNS-1035 name', { name: '1web' }, [`metadata.name: Invalid value: "1web": ${DNS1035}`]],
    // §8 case 7
    ['no name', { name: undefined }, ['metadata.name: Required value: name or generateName is required']],
    ['generateName ok (trailing dash masked)', { generateName: 'web-' }, []],
    ['bad generateName', { generateName: '9web-', name: '' }, [`metadata.generateName: Invalid value: "9web-": ${DNS1035}`, 'metadata.name: Required value: name or generateName is required']],
    ['no namespace', { namespace: '' }, ['metadata.namespace: Required value']],
    ['bad namespace', { namespace: 'Default' }, [`metadata.namespace: Invalid value: "Default": ${DNS1123_LABEL}`]],
    ['negative generation', { generation: -1 }, ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
    [
      'labels (path is the map)',
      { labels: { 'bad key!': 'ok', ok: 'bad value!' } },
      [`metadata.labels: Invalid value: "bad key!": ${QNAME_NAME_PART}`, `metadata.labels: Invalid value: "bad value!": ${LABEL_VALUE}`],
    ],
    ['annotation keys are lower-cased first', { annotations: { 'Example.COM/Key': 'v' } }, []],
    ['bad annotation key', { annotations: { 'a b': 'v' } }, [`metadata.annotations: Invalid value: "a b": ${QNAME_NAME_PART}`]],
    ['annotations over 256 KiB', { annotations: { a: 'x'.repeat(262144) } }, ['metadata.annotations: Too long: may not be more than 262144 bytes']],
    ['annotations exactly 256 KiB', { annotations: { a: 'x'.repeat(262143) } }, []],
    [
      'owner reference fields',
      { ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] },
      [
        'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
        'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
        'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
      ],
    ],
    [
      'two controllers',
      {
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'a', uid: '1', controller: true },
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'b', uid: '2', controller: true },
        ],
      },
      [
        'metadata.ownerReferences: Invalid value: []v1.OwnerReference{v1.OwnerReference{APIVersion:"apps/v1", Kind:"Deployment", Name:"a", UID:"1", Controller:(*bool)(true), BlockOwnerDeletion:(*bool)(nil)}, v1.OwnerReference{APIVersion:"apps/v1", Kind:"Deployment", Name:"b", UID:"2", Controller:(*bool)(true), BlockOwnerDeletion:(*bool)(nil)}}: Only one reference can have Controller set to true. Found "true" in references for Deployment/a and Deployment/b',
      ],
    ],
    // §8 case 34
    ['non-standard unqualified finalizer', { finalizers: ['foo'] }, ['metadata.finalizers[0]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified']],
    ['standard and qualified finalizers', { finalizers: ['kubernetes', 'service.kubernetes.io/load-balancer-cleanup'] }, []],
    [
      'orphan with foregroundDeletion',
      { finalizers: ['orphan', 'foregroundDeletion'] },
      ['metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set'],
    ],
    [
      'bad finalizer: qualified-name error first, kube rule last',
      { finalizers: ['a b'], labels: { ok: 'x' } },
      [`metadata.finalizers: Invalid value: "a b": ${QNAME_NAME_PART}`, 'metadata.finalizers[0]: Invalid value: "a b": name is neither a standard finalizer name nor is it fully qualified'],
    ],
    [
      'managed fields',
      { managedFields: [{ manager: 'x\u0001', operation: 'Patch', fieldsType: 'FieldsV2', subresource: 's'.repeat(257) }] },
      [
        'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
        'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
        'metadata.managedFields[0].manager: Invalid value: "x\\x01": invalid character U+0001 (at position 1)',
        'metadata.managedFields[0].subresource: Too long: may not be more than 256 bytes',
      ],
    ],
  ])('%s', (_name, m, expected) => {
    expect(lines(validateObjectMetaCreate(meta(m)))).toEqual(expected);
  });

  it('generic pass uses path-segment names and no kube finalizer rule', () => {
    const errs = validateGenericObjectMeta(meta({ name: '1web', finalizers: ['foo'] }), { nameFn: validatePathSegmentName, namespaced: true });
    expect(errs).toEqual([]);
  });
});

describe('validateObjectMetaUpdate (core ValidateObjectMetaUpdate)', () => {
  it.each<[string, Partial<ObjectMeta>, Partial<ObjectMeta>, string[]]>([
    ['unchanged', {}, {}, []],
    [
      'immutable fields',
      {},
      {
        name: 'other',
        namespace: 'ns2',
        uid: 'uid-2',
        creationTimestamp: '2025-01-02T03:04:06Z',
        deletionTimestamp: '2025-02-03T04:05:06Z',
        deletionGracePeriodSeconds: 0,
      },
      [
        'metadata.name: Invalid value: "other": field is immutable',
        'metadata.namespace: Invalid value: "ns2": field is immutable',
        'metadata.uid: Invalid value: "uid-2": field is immutable',
        'metadata.creationTimestamp: Invalid value: 2025-01-02 03:04:06 +0000 UTC: field is immutable',
        'metadata.deletionTimestamp: Invalid value: 2025-02-03 04:05:06 +0000 UTC: field is immutable',
        'metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable',
      ],
    ],
    [
      'clearing deletion fields prints "null"',
      { deletionTimestamp: '2025-02-03T04:05:06Z', deletionGracePeriodSeconds: 0 },
      { deletionTimestamp: undefined, deletionGracePeriodSeconds: undefined },
      ['metadata.deletionTimestamp: Invalid value: "null": field is immutable', 'metadata.deletionGracePeriodSeconds: Invalid value: "null": field is immutable'],
    ],
    ['generation decremented', { generation: 3 }, { generation: 2 }, ['metadata.generation: Invalid value: 2: must not be decremented']],
    ['missing resourceVersion', {}, { resourceVersion: '' }, ['metadata.resourceVersion: Invalid value: "": must be specified for an update']],
    // §8 case 52
    [
      'new finalizers while deleting',
      { deletionTimestamp: '2025-02-03T04:05:06Z', deletionGracePeriodSeconds: 0, finalizers: ['a.io/y'] },
      { deletionTimestamp: '2025-02-03T04:05:06Z', deletionGracePeriodSeconds: 0, finalizers: ['example.com/x', 'a.io/y', 'b.io/z'] },
      ['metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b.io/z", "example.com/x"}'],
    ],
    ['removing finalizers while deleting is fine', { deletionTimestamp: '2025-02-03T04:05:06Z', finalizers: ['a.io/y'] }, { deletionTimestamp: '2025-02-03T04:05:06Z' }, []],
    [
      'kube finalizer rule applies on update, generic finalizer rule does not',
      {},
      { finalizers: ['foo'] },
      ['metadata.finalizers[0]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified'],
    ],
    ['labels re-validated', {}, { labels: { a: 'bad value!' } }, [`metadata.labels: Invalid value: "bad value!": ${LABEL_VALUE}`]],
  ])('%s', (_name, oldM, newM, expected) => {
    expect(lines(validateObjectMetaUpdate(stored(newM), stored(oldM)))).toEqual(expected);
  });

  it('generic update omits the kube finalizer rule', () => {
    expect(validateGenericObjectMetaUpdate(stored({ finalizers: ['foo'] }), stored())).toEqual([]);
  });

  it('reasons', () => {
    const errs = validateObjectMetaUpdate(stored({ deletionTimestamp: 'x', finalizers: ['a.io/b'], name: 'n' }), stored({ deletionTimestamp: '2025-02-03T04:05:06Z' }));
    expect(errs.map((e) => e.reason)).toEqual(['FieldValueForbidden', 'FieldValueInvalid', 'FieldValueInvalid']);
  });
});
