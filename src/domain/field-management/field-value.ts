// Ordering, equality and printing of the plain JSON values that appear in an object and in
// list-map keys, as structured-merge-diff's value package defines them (value.Compare,
// value.Equals, value.ToString). Numbers are one class here: JS cannot tell 80 from 80.0, and
// SMD compares ints and floats numerically anyway.
import { strconvQuote } from '../codec/go-quote';
import { compareGoStrings } from '../go-string-order';
import { isJsonMap } from './go-json';

/** SMD's type rank: numbers < strings < bools < lists < maps < null. */
function rank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isJsonMap(v)) return 4;
  return 5;
}

/** A total order over JSON values (value.Compare). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) === (b as number) ? 0 : (a as number) < (b as number) ? -1 : 1;
    case 1:
      return compareGoStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a === false ? -1 : 1;
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; i < Math.min(la.length, lb.length); i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return la.length === lb.length ? 0 : la.length < lb.length ? -1 : 1;
    }
    case 4: {
      // value.MapCompare: entries in sorted key order, compared key then value.
      const ma = a as Record<string, unknown>;
      const mb = b as Record<string, unknown>;
      const ka = Object.keys(ma).sort(compareGoStrings);
      const kb = Object.keys(mb).sort(compareGoStrings);
      for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
        const ck = compareGoStrings(ka[i], kb[i]);
        if (ck !== 0) return ck;
        const cv = compareValues(ma[ka[i]], mb[kb[i]]);
        if (cv !== 0) return cv;
      }
      return ka.length === kb.length ? 0 : ka.length < kb.length ? -1 : 1;
    }
    default:
      return 0;
  }
}

/** Deep equality (value.Equals): maps compare as unordered key sets. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => valuesEqual(item, b[i]));
  }
  if (isJsonMap(a)) {
    if (!isJsonMap(b)) return false;
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && valuesEqual(a[k], b[k]));
  }
  return false;
}

/** Go's %v of a float64: integral values print without a fraction, like fmt does for 80. */
function goFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const s = String(n);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

/** value.ToString: how a key value prints in a conflict path (`[port=80,protocol="TCP"]`). */
export function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'string') return strconvQuote(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(valueToString).join(',') + ']';
  if (isJsonMap(v)) {
    return Object.keys(v)
      .sort(compareGoStrings)
      .map((k) => `${k}=${valueToString(v[k])}`)
      .join('');
  }
  return '{{undefined}}';
}
