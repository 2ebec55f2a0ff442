// A revision's object and patch as stored (stored-text-codec.ts): each with its resourceVersion
// as the WITH_TAIL span, where PostgreSQL's append writes the digits it hands out under its lock
// (pg-service-write-store.ts), so both engines store a revision as the same bytes. Where the
// resourceVersion is follows from how the texts are written: a stored object is JSON.stringify of
// a Service whose keys are in Go's order (kind, apiVersion, then metadata, whose resourceVersion
// comes before any map a user fills), so its first "resourceVersion" key is metadata's; a patch
// replaces /metadata/resourceVersion in one operation, or (a create) adds the whole object.
import { encodeStoredText, type StoredText, type TextSpan } from './stored-text-codec';

const OBJECT_KEY = '"resourceVersion":"';
const PATCH_OPERATION = '"path":"/metadata/resourceVersion","value":"';
const CREATE_PATCH = '[{"op":"add","path":"","value":';

function valueAfter(text: string, marker: string, from = 0): TextSpan | undefined {
  const at = text.indexOf(marker, from);
  if (at < 0) return undefined;
  const start = at + marker.length;
  // A resourceVersion (digits, or PostgreSQL's stand-in token) holds no quote nor escape.
  const end = text.indexOf('"', start);
  return end < 0 ? undefined : { start, end };
}

/** Where a stored object's metadata.resourceVersion value is (undefined: it has none). */
export function objectResourceVersion(json: string): TextSpan | undefined {
  return valueAfter(json, OBJECT_KEY);
}

/** Where the new resourceVersion is in a revision's patch (undefined: the patch does not set it). */
export function patchResourceVersion(patch: string): TextSpan | undefined {
  return valueAfter(patch, PATCH_OPERATION) ?? (patch.startsWith(CREATE_PATCH) ? valueAfter(patch, OBJECT_KEY, CREATE_PATCH.length) : undefined);
}

/** A revision's object, as stored. */
export function encodeRevisionObject(json: string): Buffer {
  return encodeStoredText(json, objectResourceVersion(json));
}

/** A revision's patch, as stored. */
export function encodeRevisionPatch(patch: string): Buffer {
  return encodeStoredText(patch, patchResourceVersion(patch));
}

/** How a fold writes a revision's object and patch. */
export interface RevisionTextForm {
  object(json: string): StoredText;
  patch(patch: string): StoredText;
}

/** As every store holds them (deflated: a text's bytes are the same on both engines). */
export const STORED_REVISION_TEXTS: RevisionTextForm = { object: encodeRevisionObject, patch: encodeRevisionPatch };

/**
 * The plain text (a stored text may be a string): for a fold that is only ever compared by the
 * text it holds and then thrown away (verify's scratch), which need not spend the deflate, most
 * of a fold's time.
 */
export const PLAIN_REVISION_TEXTS: RevisionTextForm = { object: (json) => json, patch: (patch) => patch };
