// What a request asks to do, in authorizer terms: k8s.io/apiserver RequestInfoFactory.NewRequestInfo
// with APIPrefixes {api, apis} and GrouplessAPIPrefixes {api}. Paths outside /api and /apis
// (and /api/<v>, /apis/<g>, /apis/<g>/<v> themselves) are non-resource requests whose verb is
// the lowercase HTTP method.
import { parseLabelSelector } from '../domain/selectors/label-selector';
import { parseFieldSelectorSyntax, requiredFieldValue } from '../domain/selectors/field-selector';
import { queryBool, queryInt64 } from '../kube-api/query-parameters';

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
  try {
    const watch = queryBool(query, 'watch');
    for (const key of ['timeoutSeconds', 'limit']) queryInt64(query, key);
    const labelSelector = query.get('labelSelector');
    if (labelSelector !== null) parseLabelSelector(labelSelector);
    const fieldSelector = query.get('fieldSelector');
    // fields.ParseSelector then RequiresExactMatch: the first `metadata.name=` term in sort order.
    return { watch, exactName: fieldSelector === null ? undefined : requiredFieldValue(parseFieldSelectorSyntax(fieldSelector), 'metadata.name') };
  } catch {
    // RequestInfo's own fallback reads watch with strings.ToLower, not EqualFold: "falſe" is true here.
    const first = query.get('watch');
    return { watch: first !== null && !['0', 'false'].includes(first.toLowerCase()) };
  }
}

/** apimachinery path.IsValidPathSegmentName. */
function isValidPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}
