// The string validators of k8s.io/apimachinery pkg/util/validation/validation.go and the name
// functions of pkg/api/validation/generic.go + path/name.go. Each returns the list of messages
// upstream returns (one field error per message), in upstream order.

/** validation.MaxLenError */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** validation.EmptyError */
export function emptyError(): string {
  return 'must be non-empty';
}

/** validation.InclusiveRangeError */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** validation.RegexError: note the `', ` after every example, which yields `',  or '`. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((example, i) => {
    if (i > 0) out += ' or ';
    out += `'${example}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

/** Byte length, as Go's len(string). */
function byteLen(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_ERR = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
export const DNS1123_LABEL_MAX_LENGTH = 63;

const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_ERR = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);
export const DNS1035_LABEL_MAX_LENGTH = 63;

const QNAME_CHAR_FMT = '[A-Za-z0-9]';
const QNAME_EXT_CHAR_FMT = '[-A-Za-z0-9_.]';
const QUALIFIED_NAME_FMT = `(${QNAME_CHAR_FMT}${QNAME_EXT_CHAR_FMT}*)?${QNAME_CHAR_FMT}`;
const QUALIFIED_NAME_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MAX_LENGTH = 63;

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_ERR = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
export const LABEL_VALUE_MAX_LENGTH = 63;

/** validation.IsDNS1123Label */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1123_LABEL_RE.test(value)) {
    // A valid subdomain that is not a label can only be failing because of dots.
    if (DNS1123_SUBDOMAIN_RE.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

/** validation.IsDNS1123Subdomain */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  }
  return errs;
}

/** validation.IsDNS1035Label */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1035_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1035_LABEL_MAX_LENGTH));
  if (!DNS1035_LABEL_RE.test(value)) {
    errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  }
  return errs;
}

/** validation.IsQualifiedName: `[prefix/]name`, prefix a DNS-1123 subdomain, name ≤ 63. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [`a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}` + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLen(name) > QUALIFIED_NAME_MAX_LENGTH) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/** validation.IsValidLabelValue */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

/** validation.IsValidPortNum */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** validation.IsValidPortName (IANA_SVC_NAME, RFC 6335 §5.1): every failing rule is reported. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLen(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** A ValidateNameFunc: (name, prefix) → messages; prefix means a suffix will be appended. */
export type NameValidator = (name: string, prefix: boolean) => string[];

/**
 * generic.go maskTrailingDash, quirk included: a trailing dash replaces the last *two*
 * characters with "a" (`name[:len(name)-2] + "a"`).
 */
export function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return `${name.slice(0, name.length - 2)}a`;
  return name;
}

/** apimachineryvalidation.NameIsDNS1035Label (= core ValidateServiceName). */
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** apimachineryvalidation.NameIsDNSLabel (= ValidateNamespaceName). */
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** apimachineryvalidation.NameIsDNSSubdomain (events.k8s.io/v1 Event names). */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** path.ValidatePathSegmentName: the generic registry's name check. */
export const validatePathSegmentName: NameValidator = (name, prefix) => {
  if (!prefix) {
    for (const illegal of ['.', '..']) if (name === illegal) return [`may not be '${illegal}'`];
  }
  const errs: string[] = [];
  for (const illegal of ['/', '%']) if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs;
};
