// metav1.Time on the wire: UnmarshalJSON runs Go's time.Parse(time.RFC3339, s) and MarshalJSON
// writes t.UTC().Format(time.RFC3339) — whole seconds, `Z`. This mirrors Go's general parser
// (time/format.go `parse`) for the layout "2006-01-02T15:04:05Z07:00", including its error
// texts (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`).
// metav1.MicroTime (apimachinery micro_time.go) does the same with RFC3339Micro,
// "2006-01-02T15:04:05.000000Z07:00": exactly six fractional digits in and out.

export const RFC3339_LAYOUT = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';

export type GoTimeParseResult = { ok: true; seconds: number } | { ok: false; error: string };
export type GoMicroTimeParseResult = { ok: true; seconds: number; micros: number } | { ok: false; error: string };

/** time/format.go quote(): ASCII kept (with \" and \\), every other byte as \xNN. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0x80 || code < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += '\\x' + b.toString(16).padStart(2, '0');
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return out + '"';
}

function isDigitAt(s: string, i: number): boolean {
  return i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;
}

/** time.getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | null {
  if (!isDigitAt(s, 0)) return null;
  if (!isDigitAt(s, 1)) {
    if (fixed) return null;
    return { n: s.charCodeAt(0) - 0x30, rest: s.slice(1) };
  }
  return { n: (s.charCodeAt(0) - 0x30) * 10 + (s.charCodeAt(1) - 0x30), rest: s.slice(2) };
}

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysIn(month: number, year: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** Parses like time.Parse(time.RFC3339, value); returns Unix seconds (fraction dropped). */
export function parseRfc3339(value: string): GoTimeParseResult {
  const parsed = parseLayout(value, false);
  return parsed.ok ? { ok: true, seconds: parsed.seconds } : parsed;
}

/** Parses like time.Parse(RFC3339Micro, value) (MicroTime.UnmarshalJSON): Unix seconds and microseconds. */
export function parseRfc3339Micro(value: string): GoMicroTimeParseResult {
  return parseLayout(value, true);
}

/** MicroTime's `t.UTC().Format(RFC3339Micro)`. */
export function formatRfc3339Micro(seconds: number, micros: number): string {
  return `${formatRfc3339Utc(seconds).slice(0, -1)}.${String(micros).padStart(6, '0')}Z`;
}

/** time/format.go parse for RFC3339 (`micro`: RFC3339Micro, whose six fractional digits are required). */
function parseLayout(value: string, micro: boolean): GoMicroTimeParseResult {
  const layout = micro ? RFC3339_MICRO_LAYOUT : RFC3339_LAYOUT;
  const cannot = (valueElem: string, layoutElem: string): GoMicroTimeParseResult => ({
    ok: false,
    error: `parsing time ${timeQuote(value)} as ${timeQuote(layout)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`,
  });
  const outOfRange = (what: string): GoMicroTimeParseResult => ({
    ok: false,
    error: `parsing time ${timeQuote(value)}: ${what} out of range`,
  });
  let rest = value;
  const skip = (prefix: string): boolean => {
    if (rest.length === 0 || rest[0] !== prefix) return false;
    rest = rest.slice(1);
    return true;
  };

  // stdLongYear "2006": four bytes, the first a digit, all of them an integer.
  if (rest.length < 4 || !isDigitAt(rest, 0) || !/^\d{4}$/.test(rest.slice(0, 4))) return cannot(rest, '2006');
  const year = Number(rest.slice(0, 4));
  rest = rest.slice(4);

  if (!skip('-')) return cannot(rest, '-');
  const month = getnum(rest, true);
  if (!month) return cannot(rest, '01');
  if (month.n <= 0 || month.n > 12) return outOfRange('month');
  rest = month.rest;

  if (!skip('-')) return cannot(rest, '-');
  const day = getnum(rest, true);
  if (!day) return cannot(rest, '02');
  rest = day.rest;

  if (!skip('T')) return cannot(rest, 'T');
  const hour = getnum(rest, false);
  if (hour && hour.n >= 24) return outOfRange('hour');
  if (!hour) return cannot(rest, '15');
  rest = hour.rest;

  if (!skip(':')) return cannot(rest, ':');
  const minute = getnum(rest, true);
  if (minute && minute.n >= 60) return outOfRange('minute');
  if (!minute) return cannot(rest, '04');
  rest = minute.rest;

  if (!skip(':')) return cannot(rest, ':');
  const second = getnum(rest, true);
  if (!second) return cannot(rest, '05');
  if (second.n >= 60) return outOfRange('second');
  rest = second.rest;
  let micros = 0;
  if (micro) {
    // stdFracSecond0 ".000000": a separator and six characters for atoi; the value moves past
    // them before a bad one is reported (parseNanoseconds, then `value = value[ndigit:]`).
    if (rest.length < 7) return cannot(rest, '.000000');
    const separator = rest[0];
    const digits = rest.slice(1, 7);
    rest = rest.slice(7);
    if ((separator !== '.' && separator !== ',') || !/^[+-]?\d+$/.test(digits)) return cannot(rest, '.000000');
    micros = Number(digits);
    if (micros < 0) return outOfRange('fractional second');
    micros = Math.abs(micros);
  } else if (rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigitAt(rest, 1)) {
    // A fractional second not in the layout is still accepted after the seconds ('.' or ',').
    let n = 2;
    while (isDigitAt(rest, n)) n++;
    rest = rest.slice(n);
  }

  // stdISO8601ColonTZ "Z07:00".
  let offsetSeconds = 0;
  if (rest.length >= 1 && rest[0] === 'Z') {
    rest = rest.slice(1);
  } else {
    const hold = rest;
    if (rest.length < 6 || rest[3] !== ':') return cannot(hold, 'Z07:00');
    const hh = getnum(rest.slice(1, 3), true);
    const mm = hh ? getnum(rest.slice(4, 6), true) : null;
    // Go assigns the hour message first and lets the minute one overwrite it.
    if (mm && mm.n > 60) return outOfRange('time zone offset minute');
    if (hh && hh.n > 24) return outOfRange('time zone offset hour');
    if (!hh || !mm || (rest[0] !== '+' && rest[0] !== '-')) return cannot(hold, 'Z07:00');
    offsetSeconds = (hh.n * 60 + mm.n) * 60 * (rest[0] === '-' ? -1 : 1);
    rest = rest.slice(6);
  }
  if (rest.length > 0) return { ok: false, error: `parsing time ${timeQuote(value)}: extra text: ${timeQuote(rest)}` };
  if (day.n < 1 || day.n > daysIn(month.n, year)) return outOfRange('day');

  const local = daysFromCivil(year, month.n, day.n) * 86400 + hour.n * 3600 + minute.n * 60 + second.n;
  return { ok: true, seconds: local - offsetSeconds, micros };
}

/** Go's Time.Format(time.RFC3339) of a UTC instant with whole seconds. */
export function formatRfc3339Utc(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const secOfDay = seconds - days * 86400;
  const [y, m, d] = civilFromDays(days);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  // Go's appendInt(year, 4): zero-padded to 4 digits after an optional minus sign.
  const year = y < 0 ? '-' + String(-y).padStart(4, '0') : String(y).padStart(4, '0');
  return `${year}-${p2(m)}-${p2(d)}T${p2(Math.floor(secOfDay / 3600))}:${p2(Math.floor((secOfDay % 3600) / 60))}:${p2(secOfDay % 60)}Z`;
}

/** The Unix time of Go's zero time.Time (0001-01-01T00:00:00Z): metav1.Time renders it as null. */
export const GO_ZERO_TIME_SECONDS = daysFromCivil(1, 1, 1) * 86400;

/** Go's zero time as metav1.Time would write it, were it not null. */
const GO_ZERO_TIME_TEXT = '0001-01-01T00:00:00Z';

/** The two digits at `at` as a number, or -1. */
function twoDigits(s: string, at: number): number {
  return isDigitAt(s, at) && isDigitAt(s, at + 1) ? (s.charCodeAt(at) - 0x30) * 10 + (s.charCodeAt(at + 1) - 0x30) : -1;
}

/**
 * Whether `value` already is metav1.Time's own text of a valid instant (`YYYY-MM-DDTHH:MM:SSZ`, a
 * four-digit year): then parsing and formatting it gives it back unchanged. Almost every time a
 * write decodes or encodes is one (the stored object's own, a controller echoing it), and this
 * check allocates nothing where the parse allocates a dozen strings.
 */
export function isCanonicalTimeText(value: string): boolean {
  if (value.length !== 20 || value[4] !== '-' || value[7] !== '-' || value[10] !== 'T' || value[13] !== ':' || value[16] !== ':' || value[19] !== 'Z') return false;
  const century = twoDigits(value, 0);
  const yearOfCentury = twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  if (century < 0 || yearOfCentury < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(month, century * 100 + yearOfCentury)) return false;
  const hour = twoDigits(value, 11);
  const minute = twoDigits(value, 14);
  const second = twoDigits(value, 17);
  return hour >= 0 && hour < 24 && minute >= 0 && minute < 60 && second >= 0 && second < 60;
}

/** Canonical metav1.Time text for a valid RFC 3339 input, `null` for the zero time, else undefined. */
export function canonicalTime(value: string): string | null | undefined {
  if (isCanonicalTimeText(value)) return value === GO_ZERO_TIME_TEXT ? null : value;
  const parsed = parseRfc3339(value);
  if (!parsed.ok) return undefined;
  if (parsed.seconds === GO_ZERO_TIME_SECONDS) return null;
  return formatRfc3339Utc(parsed.seconds);
}
