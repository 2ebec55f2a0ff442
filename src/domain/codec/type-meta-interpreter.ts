// The first look kube-apiserver takes at a body: json.SimpleMetaFactory.Interpret
// (apimachinery runtime/serializer/json/meta.go) unmarshals it with the *standard* encoding/json
// into `struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string ... }` — so keys
// match case-insensitively, the last match wins, and any non-object body fails here — then
// schema.ParseGroupVersion splits apiVersion.
import { type JsonValue, jsonKindName } from './json-value';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** encoding/json's case-insensitive key match (Unicode simple folding; K and ſ fold too). */
function foldKey(key: string): string {
  return key
    .replace(/\u212a/g, 'k')
    .replace(/\u017f/g, 's')
    .toLowerCase();
}

/** Returns the group/version/kind in the body, or the error text Interpret would return. */
export function interpretTypeMeta(json: JsonValue): { ok: true; gvk: GroupVersionKind } | { ok: false; error: string } {
  let apiVersion = '';
  let kind = '';
  if (json.kind === 'object') {
    let firstError: string | undefined;
    for (const member of json.members) {
      const folded = foldKey(member.key);
      const name = folded === 'apiversion' ? 'apiVersion' : folded === 'kind' ? 'kind' : undefined;
      if (!name) continue;
      const v = member.value;
      if (v.kind === 'null') continue;
      if (v.kind !== 'string') {
        // The anonymous struct has an empty Name(), hence `Go struct field .kind`.
        firstError ??= `json: cannot unmarshal ${jsonKindName(v)} into Go struct field .${name} of type string`;
        continue;
      }
      if (name === 'apiVersion') apiVersion = v.value;
      else kind = v.value;
    }
    if (firstError) return { ok: false, error: `couldn't get version/kind; json parse error: ${firstError}` };
  } else if (json.kind !== 'null') {
    return {
      ok: false,
      error: `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKindName(json)} into Go value of type ${FIND_KIND_TYPE}`,
    };
  }
  const gv = parseGroupVersion(apiVersion);
  if (!gv.ok) return gv;
  return { ok: true, gvk: { group: gv.group, version: gv.version, kind } };
}

/** schema.ParseGroupVersion. */
export function parseGroupVersion(gv: string): { ok: true; group: string; version: string } | { ok: false; error: string } {
  if (gv === '' || gv === '/') return { ok: true, group: '', version: '' };
  const slashes = gv.split('/').length - 1;
  if (slashes === 0) return { ok: true, group: '', version: gv };
  if (slashes === 1) {
    const i = gv.indexOf('/');
    return { ok: true, group: gv.slice(0, i), version: gv.slice(i + 1) };
  }
  return { ok: false, error: `unexpected GroupVersion string: ${gv}` };
}

/** json.gvkWithDefaults: fills what the body left out from the request's (or target's) defaults. */
export function gvkWithDefaults(actual: GroupVersionKind, defaults: GroupVersionKind): GroupVersionKind {
  const out = { ...actual };
  if (!out.kind) out.kind = defaults.kind;
  if (!out.version && !out.group) {
    out.group = defaults.group;
    out.version = defaults.version;
  }
  if (!out.version && out.group === defaults.group) out.version = defaults.version;
  return out;
}
