// The stored JSON text an object was parsed from, kept beside it, so a JSON watch frame splices
// that text instead of encoding the object again (a resumed watch reads every write's object from
// the log: parsed once for the watcher's selectors, never re-encoded). Only for objects nobody
// mutates after: the text must stay what JSON.stringify of the object gives.
const texts = new WeakMap<object, string>();

/** Marks `object` (just parsed from `json`, a JSON.stringify output) as having that text. */
export function withStoredJson<T extends object>(object: T, json: string): T {
  texts.set(object, json);
  return object;
}

/** The text `object` was parsed from, if it was marked. */
export function storedJsonOf(object: unknown): string | undefined {
  return typeof object === 'object' && object !== null ? texts.get(object) : undefined;
}
