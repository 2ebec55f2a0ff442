// Whether two JSON-shaped values encode to the same JSON text, without encoding them. The
// decider compares a Service's parts and guards its fold this way on every write; two
// JSON.stringify calls per comparison were a third of a status write's decide.

/**
 * `JSON.stringify(a) === JSON.stringify(b)`, for values holding plain objects, arrays, strings,
 * numbers, booleans, null and undefined. Key order counts, as it does in the text; a key whose
 * value is undefined is absent, an undefined array element is null. Anything else (a class
 * instance, a toJSON method) is compared through JSON.stringify itself.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ta = typeof a;
  if ((ta === 'string' || ta === 'boolean') && typeof b === ta) return false;
  // Mixed types, numbers (NaN and ±Infinity are null), null, functions: rare, so by the text.
  if (ta !== 'object' || typeof b !== 'object' || a === null || b === null) return textOf(a) === textOf(b);
  if (!isPlain(a as object) || !isPlain(b)) return textOf(a) === textOf(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameElement(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  return sameMembers(a as Record<string, unknown>, b as Record<string, unknown>);
}

/** An array element: what JSON.stringify writes as null (undefined, a function) is null. */
function sameElement(a: unknown, b: unknown): boolean {
  return sameJson(omitted(a) ? null : a, omitted(b) ? null : b);
}

/** The members JSON.stringify writes, pairwise in order. */
function sameMembers(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < ka.length && omitted(a[ka[i]])) i++;
    while (j < kb.length && omitted(b[kb[j]])) j++;
    if (i === ka.length || j === kb.length) return i === ka.length && j === kb.length;
    if (ka[i] !== kb[j] || !sameJson(a[ka[i]], b[kb[j]])) return false;
    i++;
    j++;
  }
}

/** JSON.stringify leaves these out of an object (and writes null for them in an array). */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === Array.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

function textOf(v: unknown): string | undefined {
  return JSON.stringify(v);
}
