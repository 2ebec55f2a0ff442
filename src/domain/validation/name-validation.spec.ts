import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  isValidPortNum,
  maskTrailingDash,
  nameIsDNS1035Label,
  regexError,
  validatePathSegmentName,
} from './name-validation';

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QNAME_NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('name validators (apimachinery validation.go)', () => {
  it.each<[string, (v: string) => string[], string, string[]]>([
    ['DNS-1035 ok', isDNS1035Label, 'web', []],
    ['DNS-1035 leading digit', isDNS1035Label, '1web', [DNS1035]],
    ['DNS-1035 too long and bad', isDNS1035Label, 'a'.repeat(63) + '-', ['must be no more than 63 characters', DNS1035]],
    ['DNS-1123 label ok', isDNS1123Label, '123-abc', []],
    ['DNS-1123 label with dots', isDNS1123Label, 'a.b', ['must not contain dots']],
    ['DNS-1123 label upper case', isDNS1123Label, 'Http', [DNS1123_LABEL]],
    ['DNS-1123 subdomain ok', isDNS1123Subdomain, 'example.com', []],
    ['DNS-1123 subdomain bad', isDNS1123Subdomain, 'example.com.', [DNS1123_SUBDOMAIN]],
    ['DNS-1123 subdomain too long', isDNS1123Subdomain, `${'a'.repeat(63)}.`.repeat(4) + 'a', ['must be no more than 253 characters']],
    ['qualified name ok', isQualifiedName, 'example.com/My_name.1', []],
    ['qualified name empty', isQualifiedName, '', ['name part must be non-empty', QNAME_NAME_PART]],
    ['qualified name empty prefix', isQualifiedName, '/x', ['prefix part must be non-empty']],
    ['qualified name bad prefix', isQualifiedName, 'Example.com/x', [`prefix part ${DNS1123_SUBDOMAIN}`]],
    ['qualified name long', isQualifiedName, 'a'.repeat(64), ['name part must be no more than 63 characters']],
    [
      'qualified name two slashes',
      isQualifiedName,
      'a/b/c',
      [
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    ],
    ['label value empty ok', isValidLabelValue, '', []],
    ['label value bad', isValidLabelValue, 'bad value!', [LABEL_VALUE]],
    ['label value long', isValidLabelValue, 'a'.repeat(64), ['must be no more than 63 characters']],
    ['port name ok', isValidPortName, 'http-alt', []],
    [
      'port name everything wrong',
      isValidPortName,
      '-A--123456789012-',
      [
        'must be no more than 15 characters',
        'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'must contain at least one letter (a-z)',
        'must not contain consecutive hyphens',
        'must not begin or end with a hyphen',
      ],
    ],
    ['port name digits only', isValidPortName, '80', ['must contain at least one letter (a-z)']],
  ])('%s', (_name, fn, value, expected) => {
    expect(fn(value)).toEqual(expected);
  });

  it.each([
    [0, ['must be between 1 and 65535, inclusive']],
    [1, []],
    [65535, []],
    [65536, ['must be between 1 and 65535, inclusive']],
  ])('port number %p', (port, expected) => {
    expect(isValidPortNum(port)).toEqual(expected);
  });

  it('renders RegexError with the upstream double space', () => {
    expect(regexError('m', 'f', 'a', 'b')).toBe("m (e.g. 'a',  or 'b', regex used for validation is 'f')");
    expect(regexError('m', 'f')).toBe("m (regex used for validation is 'f')");
  });

  it.each([
    ['web-', 'wea'],
    ['-', '-'],
    ['web', 'web'],
  ])('maskTrailingDash(%p) = %p (drops two characters, upstream quirk)', (input, expected) => {
    expect(maskTrailingDash(input)).toBe(expected);
  });

  it('validates generateName prefixes with the trailing dash masked', () => {
    expect(nameIsDNS1035Label('web-', true)).toEqual([]);
    expect(nameIsDNS1035Label('web-', false)).toEqual([DNS1035]);
  });

  it.each<[string, boolean, string[]]>([
    ['.', false, ["may not be '.'"]],
    ['..', false, ["may not be '..'"]],
    ['a/b%', false, ["may not contain '/'", "may not contain '%'"]],
    ['.', true, []],
  ])('ValidatePathSegmentName(%p, prefix=%p)', (name, prefix, expected) => {
    expect(validatePathSegmentName(name, prefix)).toEqual(expected);
  });
});
