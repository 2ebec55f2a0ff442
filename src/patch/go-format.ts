// Go's fmt rendering of decoded JSON values, for error texts that embed them:
// `%v` (and `%+v`, identical for maps/slices/scalars) as in
// `map: map[status:True] does not contain declared merge key: type`, and `%s` as in
// `unknown patch type: %s in map: %v`. Maps print with keys sorted (fmt sorts map keys since Go 1.12).
import { goTypeOf, isMap, type JsonTree } from './json-tree';
import { compareGoStrings } from '../domain/go-string-order';

/** strconv.FormatFloat(f, 'g', -1, 64), what `%v` prints: shortest digits, exponent when exp < -4 || exp >= 6. */
function formatFloatG(value: number): string {
  const [mantissa, expText] = value.toExponential().split('e');
  const exp = Number(expText);
  if (exp >= -4 && exp < 6) return String(value);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

function formatNumber(value: number, verb: 'v' | 's'): string {
  const isInt = goTypeOf(value) === 'int64';
  const text = isInt ? BigInt(value).toString() : formatFloatG(value);
  if (verb === 'v') return text;
  return `%!s(${isInt ? 'int64' : 'float64'}=${text})`;
}

function format(value: JsonTree, verb: 'v' | 's'): string {
  if (value === null) return verb === 'v' ? '<nil>' : '%!s(<nil>)';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return verb === 'v' ? String(value) : `%!s(bool=${value})`;
  if (typeof value === 'number') return formatNumber(value, verb);
  if (Array.isArray(value)) return `[${value.map((item) => format(item, verb)).join(' ')}]`;
  if (isMap(value)) {
    const keys = Object.keys(value).sort(compareGoStrings);
    return `map[${keys.map((k) => `${k}:${format(value[k], verb)}`).join(' ')}]`;
  }
  return '';
}

/** fmt `%v` / `%+v` of a decoded JSON value. */
export function goSprintV(value: JsonTree): string {
  return format(value, 'v');
}

/** fmt `%s` of a decoded JSON value (non-strings print as `%!s(int64=1)`). */
export function goSprintS(value: JsonTree): string {
  return format(value, 's');
}
