// What a request asks to do, in authorizer terms: k8s.io/apiserver RequestInfoFactory.NewRequestInfo
// with APIPrefixes {api, apis} and GrouplessAPIPrefixes {api}. Paths outside /api and /apis
// (and /api/<v>, /apis/<g>, /apis/<g>/<v> themselves) are non-resource requests whose verb is
// the lowercase HTTP method.
import { parseLabelSelector } from '../domain/selectors/label-selector';
import { compareGoStrings } from '../domain/go-string-order';

export interface RequestAttributes {
  isResourceRequest: boolean;
  /** The decoded URL path, as matched by nonResourcePath rules. */
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; or the HTTP method. */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

const API_PREFIXES = new Set(['api', 'apis']);
const GROUPLESS_API_PREFIXES = new Set(['api']);
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
const SPECIAL_VERBS_NO_SUBRESOURCES = new Set(['proxy']);
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const VERB_BY_METHOD: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * NewRequestInfo for `method` and the raw request URL (path and query). Segments are decoded
 * one by one, as the router decodes path parameters, so `%2F` inside a name stays in that name
 * (Go would split on it, but then the authorizer and the handler would disagree on the target).
 */
/** The attributes of a request for a path that names no resource (or of a review asking about one). */
export function nonResourceAttributes(path: string, verb: string): RequestAttributes {
  return { isResourceRequest: false, path, verb, apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' };
}

export function requestAttributes(method: string, url: string): RequestAttributes {
  const queryAt = url.indexOf('?');
  const rawPath = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1));
  const attributes = nonResourceAttributes(decodeOr(rawPath), method.toLowerCase());

  let parts = splitPath(rawPath).map(decodeOr);
  if (parts.length < 3 || !API_PREFIXES.has(parts[0])) return attributes;
  const apiPrefix = parts[0];
  parts = parts.slice(1);
  let apiGroup = '';
  if (!GROUPLESS_API_PREFIXES.has(apiPrefix)) {
    // /apis/<group>/<version> is still discovery: a resource request needs a fourth part.
    if (parts.length < 3) return attributes;
    apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  attributes.isResourceRequest = true;
  attributes.apiPrefix = apiPrefix;
  attributes.apiGroup = apiGroup;
  attributes.apiVersion = parts[0]!;
  parts = parts.slice(1);

  // Deprecated /watch/... and /proxy/... prefixes name the verb in the path.
  if (SPECIAL_VERBS.has(parts[0])) {
    // Upstream fails here (a 500) with what it knew so far; svctrail authorizes that partial
    // answer, a resource request with no resource, which only a `resource: "*"` rule allows.
    if (parts.length < 2) return attributes;
    attributes.verb = parts[0]!;
    parts = parts.slice(1);
  } else {
    attributes.verb = VERB_BY_METHOD[method.toUpperCase()] ?? '';
  }

  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      attributes.namespace = parts[1]!;
      // /namespaces/<ns>/status is the namespace's own subresource, not a resource named status.
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) parts = parts.slice(2);
    }
  }

  // parts: resource/name/subresource/anything-else
  if (parts.length >= 3 && !SPECIAL_VERBS_NO_SUBRESOURCES.has(attributes.verb)) attributes.subresource = parts[2]!;
  if (parts.length >= 2) attributes.name = parts[1]!;
  if (parts.length >= 1) attributes.resource = parts[0]!;

  if (attributes.name === '' && attributes.verb === 'get') {
    const options = listOptionsOf(query);
    attributes.verb = options.watch ? 'watch' : 'list';
    if (options.exactName !== undefined && isValidPathSegmentName(options.exactName)) attributes.name = options.exactName;
  }
  if (attributes.name === '' && attributes.verb === 'delete') attributes.verb = 'deletecollection';
  return attributes;
}

/** strings.Trim(path, "/") then Split; inner empty segments are kept. */
function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

function decodeOr(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The part of ListOptions decoding (ParameterCodec.DecodeParameters) that matters here: watch,
 * and the name a `metadata.name=` field selector pins. When decoding fails (a malformed
 * selector or integer) upstream keeps only `watch` and drops the name.
 */
function listOptionsOf(query: URLSearchParams): { watch: boolean; exactName?: string } {
  const watchValue = query.get('watch');
  // Convert_Slice_string_To_bool: only absent, "0" and "false" (any case) are false.
  const watch = watchValue !== null && watchValue !== '0' && watchValue.toLowerCase() !== 'false';
  try {
    const labelSelector = query.get('labelSelector');
    if (labelSelector !== null) parseLabelSelector(labelSelector);
    for (const key of ['timeoutSeconds', 'limit']) {
      const value = query.get(key);
      if (value !== null && value !== '' && !/^[+-]?\d+$/.test(value)) return { watch };
    }
    const fieldSelector = query.get('fieldSelector');
    return { watch, exactName: fieldSelector === null ? undefined : exactMatch(fieldSelector, 'metadata.name') };
  } catch {
    return { watch };
  }
}

/**
 * fields.ParseSelector then RequiresExactMatch(field): the value of the first `field=` or
 * `field==` term. Throws on a term without an operator or a bad escape, as ParseSelector fails.
 */
function exactMatch(selector: string, field: string): string | undefined {
  let found: string | undefined;
  // ParseSelector sorts the terms, so of two `field=` terms the one sorting first wins.
  for (const term of splitTerms(selector).sort(compareGoStrings)) {
    if (term === '') continue;
    const op = /!=|==|=/.exec(term);
    if (!op) throw new Error(`invalid selector term ${term}`);
    const value = unescapeValue(term.slice(op.index + op[0].length));
    if (found === undefined && op[0] !== '!=' && term.slice(0, op.index) === field) found = value;
  }
  return found;
}

/** splitTerms: commas not preceded by an escaping backslash. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < selector.length; i++) {
    if (escaped) escaped = false;
    else if (selector[i] === '\\') escaped = true;
    else if (selector[i] === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** fields.UnescapeValue: `\\`, `\,` and `\=` are the only escapes; bare `,` and `=` are errors. */
function unescapeValue(value: string): string {
  let out = '';
  let escaped = false;
  for (const c of value) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') throw new Error(`invalid escape sequence \\${c}`);
      out += c;
      escaped = false;
    } else if (c === '\\') escaped = true;
    else if (c === ',' || c === '=') throw new Error(`unescaped ${c}`);
    else out += c;
  }
  if (escaped) throw new Error('invalid escape sequence');
  return out;
}

/** apimachinery path.IsValidPathSegmentName. */
function isValidPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}
