// kube-apiserver's --authorization-policy-file format (pkg/auth/authorizer/abac NewFromFile): one
// JSON policy per line; blank lines and lines starting with "#" (after trimming) are skipped.
// A line is either a versioned v1beta1 Policy
//   {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{...}}
// or an unversioned (v0) policy with the fields at the top level, converted as upstream does
// (pkg/apis/abac/v0/conversion.go, v1beta1/conversion.go). Unlike upstream, unknown fields are an
// error: a misspelt "namespace" would otherwise silently change what a line grants.
import { ALL_AUTHENTICATED_GROUP } from '../auth/user-info';

export const ABAC_API_VERSION = 'abac.authorization.kubernetes.io/v1beta1';
const ABAC_V0_API_VERSION = 'abac.authorization.kubernetes.io/v0';

/** v1beta1 PolicySpec; "*" is a wildcard in every string field. */
export interface PolicySpec {
  user?: string;
  group?: string;
  /** Matches only get, list and watch when true. */
  readonly?: boolean;
  apiGroup?: string;
  /** `services`, or `services/status` for that subresource only (a svctrail extension). */
  resource?: string;
  /** "" matches cluster-scoped requests only; "*" matches every namespace and none. */
  namespace?: string;
  /** "*", an exact path, or a prefix ending in "*". */
  nonResourcePath?: string;
}

/** A policy line after conversion to the internal form that the authorizer matches. */
export interface PolicyRule {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
  /** 1-based line number in the file, for messages. */
  line: number;
}

export interface AbacPolicy {
  source: string;
  rules: readonly PolicyRule[];
  /** Lines that can never match anything, and unversioned lines (upstream warns about those). */
  warnings: string[];
}

export class PolicyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyFileError';
  }
}

const SPEC_FIELDS: Record<keyof PolicySpec, 'string' | 'boolean'> = {
  user: 'string',
  group: 'string',
  readonly: 'boolean',
  apiGroup: 'string',
  resource: 'string',
  namespace: 'string',
  nonResourcePath: 'string',
};
const V0_FIELDS: readonly (keyof PolicySpec)[] = ['user', 'group', 'readonly', 'resource', 'namespace'];

/** No rules: only system:masters and the built-in public and discovery paths are allowed. */
export function emptyPolicy(source: string): AbacPolicy {
  return { source, rules: [], warnings: [] };
}

/** NewFromFile's parsing; `source` names the file in messages. Throws PolicyFileError. */
export function parsePolicy(text: string, source: string): AbacPolicy {
  const rules: PolicyRule[] = [];
  const warnings: string[] = [];
  let unversionedLines = 0;
  // bufio.Scanner's ScanLines: split on "\n", drop one trailing "\r".
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, index) => {
    const line = index + 1;
    const data = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = data.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    let rule: PolicyRule;
    let versioned: boolean;
    try {
      ({ rule, versioned } = decodeLine(data, line));
    } catch (error) {
      // policyLoadError.Error()
      throw new PolicyFileError(`error reading policy file ${source}, line ${line}: ${data}: ${(error as Error).message}`);
    }
    if (!versioned) unversionedLines++;
    if (rule.user === '' && rule.group === '') warnings.push(`policy file ${source}, line ${line}: no user or group, so it matches no one`);
    rules.push(rule);
  });
  if (unversionedLines > 0) {
    warnings.push(`Policy file ${source} contained unversioned rules. See docs/admin/authorization.md#abac-mode for ABAC file format details.`);
  }
  return { source, rules, warnings };
}

/** One v1beta1 line, newline included, fields in the Go struct's order and omitempty. */
export function formatPolicyLine(spec: PolicySpec): string {
  const ordered: PolicySpec = {};
  for (const key of Object.keys(SPEC_FIELDS) as (keyof PolicySpec)[]) {
    const value = spec[key];
    if (value) (ordered as Record<string, unknown>)[key] = value;
  }
  return JSON.stringify({ apiVersion: ABAC_API_VERSION, kind: 'Policy', spec: ordered }) + '\n';
}

function decodeLine(data: string, line: number): { rule: PolicyRule; versioned: boolean } {
  const object = asObject(JSON.parse(data), 'a policy line');
  const apiVersion = optionalString(object, 'apiVersion');
  const kind = optionalString(object, 'kind');
  if (apiVersion === ABAC_API_VERSION) {
    requirePolicyKind(kind, apiVersion);
    rejectUnknown(object, ['apiVersion', 'kind', 'spec'], '');
    const spec = readSpec(asObject(object.spec ?? {}, 'spec'), Object.keys(SPEC_FIELDS) as (keyof PolicySpec)[], 'spec.');
    return { rule: fromV1beta1(spec, line), versioned: true };
  }
  if (apiVersion !== undefined && apiVersion !== ABAC_V0_API_VERSION) {
    throw new Error(`no kind ${JSON.stringify(kind ?? '')} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  // Pre-v0 files used "kind" for the resource ({"kind":"pods"}); reading that as a v0 line
  // with no resource would grant every resource.
  if (apiVersion !== undefined || kind !== undefined) requirePolicyKind(kind, apiVersion ?? '');
  const fields = Object.fromEntries(Object.entries(object).filter(([key]) => key !== 'apiVersion' && key !== 'kind'));
  return { rule: fromV0(readSpec(fields, V0_FIELDS, ''), line), versioned: apiVersion !== undefined };
}

/** v1beta1 conversion: a "*" user or group means every authenticated user. */
function fromV1beta1(spec: PolicySpec, line: number): PolicyRule {
  const rule: PolicyRule = {
    user: spec.user ?? '',
    group: spec.group ?? '',
    readonly: spec.readonly ?? false,
    apiGroup: spec.apiGroup ?? '',
    resource: spec.resource ?? '',
    namespace: spec.namespace ?? '',
    nonResourcePath: spec.nonResourcePath ?? '',
    line,
  };
  if (rule.user === '*' || rule.group === '*') return { ...rule, user: '', group: ALL_AUTHENTICATED_GROUP };
  return rule;
}

/**
 * v0 conversion: no subject or a "*" subject is every authenticated user, an empty namespace
 * or resource is "*", every API group matches, and leaving both empty also opens every
 * non-resource path.
 */
function fromV0(spec: PolicySpec, line: number): PolicyRule {
  const namespace = spec.namespace ?? '';
  const resource = spec.resource ?? '';
  let user = spec.user ?? '';
  let group = spec.group ?? '';
  if (user === '' && group === '') group = ALL_AUTHENTICATED_GROUP;
  if (user === '*' || group === '*') {
    group = ALL_AUTHENTICATED_GROUP;
    user = '';
  }
  return {
    user,
    group,
    readonly: spec.readonly ?? false,
    apiGroup: '*',
    resource: resource || '*',
    namespace: namespace || '*',
    nonResourcePath: namespace === '' && resource === '' ? '*' : '',
    line,
  };
}

function readSpec(object: Record<string, unknown>, allowed: readonly (keyof PolicySpec)[], prefix: string): PolicySpec {
  rejectUnknown(object, allowed, prefix);
  const spec: Record<string, unknown> = {};
  for (const key of allowed) {
    const value = object[key];
    // Go decodes null into the zero value.
    if (value === undefined || value === null) continue;
    if (typeof value !== SPEC_FIELDS[key]) throw new Error(`${prefix}${key} must be a ${SPEC_FIELDS[key]}, got ${JSON.stringify(value)}`);
    spec[key] = value;
  }
  return spec;
}

function rejectUnknown(object: Record<string, unknown>, allowed: readonly string[], prefix: string): void {
  const unknown = Object.keys(object).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw new Error(`unknown field ${JSON.stringify(prefix + unknown)}`);
}

function requirePolicyKind(kind: string | undefined, apiVersion: string): void {
  if (kind !== 'Policy') throw new Error(`no kind ${JSON.stringify(kind ?? '')} is registered for version ${JSON.stringify(apiVersion)}`);
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function optionalString(object: Record<string, unknown>, key: string): string | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new Error(`${key} must be a string`);
  return value;
}
