// Go's strconv.ParseInt(s, 10, 64), errors included: an optional sign, then decimal digits only
// (no spaces, no underscores, no 0x). The digits are read left to right and the first overflow
// of a uint64 is a range error at once, so "99999999999999999999x" is out of range, not invalid
// syntax (strconv/atoi.go ParseUint, then ParseInt's int64 bounds).
import { strconvQuote } from './go-quote';

export type ParseIntOutcome = { ok: true; value: number } | { ok: false; message: string };

const MAX_UINT64 = (1n << 64n) - 1n;
const INT64_CUTOFF = 1n << 63n;
/** Few enough digits that neither a uint64 nor a double can overflow: the common case, no BigInt. */
const SHORT = /^[+-]?\d{1,15}$/;

/**
 * The value (a double: beyond 2^53 it is rounded, which for a limit or a timeout changes
 * nothing), or the text of the *strconv.NumError.
 */
export function parseGoInt64(text: string): ParseIntOutcome {
  // `+ 0` turns "-0" into 0.
  if (SHORT.test(text)) return { ok: true, value: Number(text) + 0 };
  const fail = (reason: string): ParseIntOutcome => ({ ok: false, message: `strconv.ParseInt: parsing ${strconvQuote(text)}: ${reason}` });
  const negative = text.startsWith('-');
  const digits = text.startsWith('+') || negative ? text.slice(1) : text;
  if (digits === '') return fail('invalid syntax');
  let n = 0n;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return fail('invalid syntax');
    n = n * 10n + BigInt(d);
    if (n > MAX_UINT64) return fail('value out of range');
  }
  if (negative ? n > INT64_CUTOFF : n >= INT64_CUTOFF) return fail('value out of range');
  return { ok: true, value: Number(negative ? -n : n) + 0 };
}
