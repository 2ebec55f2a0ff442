import { type FieldError } from '../errors/field-error';
import { validateAnnotations, validateDNS1123Label, validateDNS1123Subdomain, validateLabels, validateQualifiedName } from './labels.validation';

const lines = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('label / annotation validators', () => {
  it.each<[string, FieldError[], string[]]>([
    ['labels ok', validateLabels('spec.selector', { 'app.kubernetes.io/name': 'web', empty: '' }), []],
    ['labels undefined', validateLabels('spec.selector', undefined), []],
    [
      'label key and value errors in key order, on the map path',
      validateLabels('metadata.labels', { '/a': 'v'.repeat(64) }),
      ['metadata.labels: Invalid value: "/a": prefix part must be non-empty', 'metadata.labels: Invalid value: "' + 'v'.repeat(64) + '": must be no more than 63 characters'],
    ],
    ['upper-case annotation prefix tolerated', validateAnnotations('metadata.annotations', { 'EXAMPLE.com/x': '' }), []],
    [
      'upper-case label prefix rejected',
      validateLabels('metadata.labels', { 'EXAMPLE.com/x': '' }),
      [
        "metadata.labels: Invalid value: \"EXAMPLE.com/x\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    ['annotation size counts bytes', validateAnnotations('metadata.annotations', { k: 'é'.repeat(131072) }), ['metadata.annotations: Too long: may not be more than 262144 bytes']],
    ['qualified name', validateQualifiedName('f', 'kubernetes.io/h2c'), []],
    ['DNS-1123 label', validateDNS1123Label('f', 'a.b'), ['f: Invalid value: "a.b": must not contain dots']],
    ['DNS-1123 subdomain', validateDNS1123Subdomain('f', 'a.b'), []],
  ])('%s', (_name, errs, expected) => {
    expect(lines(errs)).toEqual(expected);
  });
});
