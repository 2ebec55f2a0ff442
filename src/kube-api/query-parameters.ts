// Query parameters as kube-apiserver reads them. Its option structs (ListOptions, DeleteOptions,
// PatchOptions, ...) are decoded from url.Values by generated conversions that call apimachinery's
// pkg/runtime/conversion.go on the FIRST value of a parameter, and only when it is present:
//   Convert_Slice_string_To_bool         "0" and "false" (any case, strings.EqualFold) are false;
//                                        anything else, the empty string of `?watch` too, is true
//   Convert_Slice_string_To_Pointer_bool the same, nil when absent
//   Convert_Slice_string_To_(Pointer_)int64  strconv.ParseInt(first, 10, 64); its error is the
//                                        handler's 400 BadRequest text, `?limit=` included
// Every reader of a boolean or integer query parameter goes through here, so that the handler,
// the authorizer, the metrics and the history API agree on what `?watch=True` means.
import { parseGoInt64 } from '../domain/codec/go-parse-int';
import { BadRequestError } from '../domain/errors/domain-errors';

/** Fastify's parsed query: one string, or an array when the parameter is repeated. */
export type QueryParams = Record<string, string | string[] | undefined>;

/** A parsed query as the router gives it, or as the authorizer parses a raw URL. */
type AnyQuery = QueryParams | URLSearchParams | null | undefined;

/** Every value of a parameter, in order (url.Values[key]); undefined when absent. */
export function queryValues(query: AnyQuery, key: string): string[] | undefined {
  if (query instanceof URLSearchParams) {
    const all = query.getAll(key);
    return all.length ? all : undefined;
  }
  const v = query?.[key];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v : [v];
}

/** The first value (Convert_Slice_string_To_string). */
export function queryValue(query: AnyQuery, key: string): string | undefined {
  if (query instanceof URLSearchParams) return query.get(key) ?? undefined;
  const v = query?.[key];
  return Array.isArray(v) ? v[0] : v;
}

/** The rule of Convert_Slice_string_To_bool for a parameter that is present, given its first value. */
export function isTrueValue(first: string): boolean {
  // The `u` flag folds case as strings.EqualFold does: "falſe" (long s) is false too.
  return first !== '0' && !/^false$/iu.test(first);
}

/** Convert_Slice_string_To_bool: a plain bool field (watch, allowWatchBookmarks); absent is false. */
export function queryBool(query: AnyQuery, key: string): boolean {
  const first = queryValue(query, key);
  return first !== undefined && isTrueValue(first);
}

/** Convert_Slice_string_To_Pointer_bool: a *bool field (force, orphanDependents); absent is nil. */
export function queryOptionalBool(query: AnyQuery, key: string): boolean | undefined {
  const first = queryValue(query, key);
  return first === undefined ? undefined : isTrueValue(first);
}

/**
 * Convert_Slice_string_To_int64 and _Pointer_int64 (limit, timeoutSeconds, gracePeriodSeconds):
 * undefined when absent, else the first value parsed, or the 400 the handler answers when
 * DecodeParameters fails (`strconv.ParseInt: parsing "abc": invalid syntax`).
 */
export function queryInt64(query: AnyQuery, key: string): number | undefined {
  const first = queryValue(query, key);
  if (first === undefined) return undefined;
  const parsed = parseGoInt64(first);
  if (!parsed.ok) throw new BadRequestError(parsed.message);
  return parsed.value;
}
