// A deep copy of JSON-shaped data (what a decoded Service and its events are: plain objects,
// arrays, strings, numbers, booleans, null). structuredClone gives the same result but goes
// through V8's serializer: about 10× slower, and a status write copied its object a dozen times.

/** A deep copy of `value`, which holds only plain objects, arrays and primitives (undefined kept). */
export function jsonCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = jsonCopy(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = jsonCopy((value as Record<string, unknown>)[key]);
    // JSON.parse makes "__proto__" an own key; assigning it would set the prototype instead.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}
