// Reading a PATCH body the way the apiserver's decoders see it: Go's exact syntax-error texts
// (via the codec's Go-faithful reader), Go's UnmarshalTypeError text for a body of the wrong JSON
// kind, and the strict decoder's `duplicate field "a.b"` findings (sigs.k8s.io/json UnmarshalStrict).
import { strconvQuote } from '../domain/codec/go-quote';
import { duplicateKeyPaths, readJson } from '../domain/codec/json-reader';
import { JsonSyntaxError } from '../domain/codec/json-syntax-error';
import { jsonKindName, type JsonValue } from '../domain/codec/json-value';

/** encoding/json's own nesting limit (scanner.go maxNestingDepth). */
// Go allows 10000; the recursive merge code here would exhaust the stack long before that, and no
// Service patch needs more than a few levels.
const GO_MAX_JSON_DEPTH = 1000;

export type ReadBodyResult = { ok: true; json: JsonValue } | { ok: false; error: string };

export function readPatchBody(body: string): ReadBodyResult {
  try {
    // Room for more than 10000 JSON patch operations, so that limit answers its own 413.
    return { ok: true, json: readJson(body, { maxDepth: GO_MAX_JSON_DEPTH, maxArrayLength: 100_000 }) };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { ok: false, error: e.message };
    throw e;
  }
}

/** `json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp` */
export function unmarshalTypeError(json: JsonValue, goType: string): string {
  return `json: cannot unmarshal ${jsonKindName(json)} into Go value of type ${goType}`;
}

/** Strict-decoding findings for repeated keys, de-duplicated, in document order. */
export function duplicateFieldErrors(json: JsonValue, prefix = ''): string[] {
  const paths = duplicateKeyPaths(json, prefix);
  return [...new Set(paths)].map((path) => `duplicate field ${strconvQuote(path)}`);
}
