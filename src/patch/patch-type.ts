// Which patch mechanism a PATCH request asks for, from its Content-Type. Mirrors
// apiserver handlers/patch.go PatchResource: the `; charset=…` suffix is cut at the first ';',
// then the media type must be exactly one of the installer's patch types (else 415). The match is
// case-sensitive, as are go-restful's route match and the handler's sets.String lookup.
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

const PATCH_TYPES: Readonly<Record<string, PatchType>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** `undefined` means 415 Unsupported Media Type; 'apply' is server-side apply (not served yet). */
export function patchTypeOf(contentType: string | undefined): PatchType | undefined {
  if (contentType === undefined) return undefined;
  const semicolon = contentType.indexOf(';');
  // Go only cuts when ';' is not the first byte (`idx > 0`).
  const mediaType = semicolon > 0 ? contentType.slice(0, semicolon) : contentType;
  return Object.prototype.hasOwnProperty.call(PATCH_TYPES, mediaType) ? PATCH_TYPES[mediaType] : undefined;
}
