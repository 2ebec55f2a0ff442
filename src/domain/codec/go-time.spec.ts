import fc from 'fast-check';
import { canonicalTime, formatRfc3339Micro, formatRfc3339Utc, GO_ZERO_TIME_SECONDS, isCanonicalTimeText, parseRfc3339, parseRfc3339Micro } from './go-time';

/** canonicalTime by the parse and the format alone (what the fast path must agree with). */
function parsedAndFormatted(value: string): string | null | undefined {
  const parsed = parseRfc3339(value);
  if (!parsed.ok) return undefined;
  return parsed.seconds === GO_ZERO_TIME_SECONDS ? null : formatRfc3339Utc(parsed.seconds);
}

const L = '"2006-01-02T15:04:05Z07:00"';

function parseError(value: string): string {
  const r = parseRfc3339(value);
  if (r.ok) throw new Error(`expected ${value} to fail`);
  return r.error;
}

describe('metav1.Time parsing and formatting', () => {
  it.each([
    ['2025-01-02T03:04:05Z', '2025-01-02T03:04:05Z'],
    ['2025-01-02T03:04:05.999Z', '2025-01-02T03:04:05Z'],
    ['2025-01-02T03:04:05,5Z', '2025-01-02T03:04:05Z'],
    ['2025-01-02T03:04:05.123456789123+00:00', '2025-01-02T03:04:05Z'],
    ['2025-01-02T05:04:05+02:00', '2025-01-02T03:04:05Z'],
    ['2025-01-01T22:34:05-04:30', '2025-01-02T03:04:05Z'],
    ['2024-02-29T23:59:59-00:01', '2024-03-01T00:00:59Z'],
    ['2025-01-02T3:04:05Z', '2025-01-02T03:04:05Z'],
    ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00Z'],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00Z'],
    ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59Z'],
  ])('normalises %s to %s', (input, output) => {
    expect(canonicalTime(input)).toBe(output);
  });

  it("treats Go's zero time as null and rejects garbage", () => {
    expect(canonicalTime('0001-01-01T00:00:00Z')).toBeNull();
    expect(canonicalTime('nope')).toBeUndefined();
  });

  it('formats negative and 5-digit years as Go does', () => {
    expect(formatRfc3339Utc(-62167219200 - 3600)).toBe('-0001-12-31T23:00:00Z');
    expect(formatRfc3339Utc(253402300800)).toBe('10000-01-01T00:00:00Z');
  });

  it.each([
    ['garbage', `parsing time "garbage" as ${L}: cannot parse "garbage" as "2006"`],
    ['', `parsing time "" as ${L}: cannot parse "" as "2006"`],
    ['2025', `parsing time "2025" as ${L}: cannot parse "" as "-"`],
    ['2025/01/02T03:04:05Z', `parsing time "2025/01/02T03:04:05Z" as ${L}: cannot parse "/01/02T03:04:05Z" as "-"`],
    ['2025-1-02T03:04:05Z', `parsing time "2025-1-02T03:04:05Z" as ${L}: cannot parse "1-02T03:04:05Z" as "01"`],
    ['2025-01-02', `parsing time "2025-01-02" as ${L}: cannot parse "" as "T"`],
    ['2025-01-02 03:04:05Z', `parsing time "2025-01-02 03:04:05Z" as ${L}: cannot parse " 03:04:05Z" as "T"`],
    ['2025-01-02T03:04:05', `parsing time "2025-01-02T03:04:05" as ${L}: cannot parse "" as "Z07:00"`],
    ['2025-01-02T03:04:05+0100', `parsing time "2025-01-02T03:04:05+0100" as ${L}: cannot parse "+0100" as "Z07:00"`],
    ['2025-01-02T03:04:05z', `parsing time "2025-01-02T03:04:05z" as ${L}: cannot parse "z" as "Z07:00"`],
    ['2025-13-02T03:04:05Z', 'parsing time "2025-13-02T03:04:05Z": month out of range'],
    ['2025-02-30T03:04:05Z', 'parsing time "2025-02-30T03:04:05Z": day out of range'],
    ['2025-01-02T24:04:05Z', 'parsing time "2025-01-02T24:04:05Z": hour out of range'],
    ['2025-01-02T03:60:05Z', 'parsing time "2025-01-02T03:60:05Z": minute out of range'],
    ['2025-01-02T03:04:60Z', 'parsing time "2025-01-02T03:04:60Z": second out of range'],
    ['2025-01-02T03:04:05+25:00', 'parsing time "2025-01-02T03:04:05+25:00": time zone offset hour out of range'],
    ['2025-01-02T03:04:05Zjunk', 'parsing time "2025-01-02T03:04:05Zjunk": extra text: "junk"'],
    ['2025-01-02T03:04:05Zé', 'parsing time "2025-01-02T03:04:05Z\\xc3\\xa9": extra text: "\\xc3\\xa9"'],
  ])("rejects %j with Go's error", (value, message) => {
    expect(parseError(value)).toBe(message);
  });

  // Digits 0-9 mostly, with the separators and a few near-misses in every position.
  const timeLike = fc
    .tuple(
      ...Array.from({ length: 20 }, (_, i) =>
        fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(...(i === 4 || i === 7 ? '-' : i === 10 ? 'T' : i === 13 || i === 16 ? ':' : i === 19 ? 'Z' : '0123456789')) },
          { weight: 1, arbitrary: fc.constantFrom(...'0123456789-T:Z z/+.') },
        ),
      ),
    )
    .map((chars) => chars.join(''));

  // Every field in and just past its range, written with two (four) digits.
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const nearCanonical = fc
    .record({
      y: fc.integer({ min: 0, max: 9999 }),
      mo: fc.integer({ min: 0, max: 13 }),
      d: fc.integer({ min: 0, max: 32 }),
      h: fc.integer({ min: 0, max: 25 }),
      mi: fc.integer({ min: 0, max: 61 }),
      s: fc.integer({ min: 0, max: 61 }),
    })
    .map(({ y, mo, d, h, mi, s }) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}Z`);

  it('given any 20-character time-like text, when made canonical, then the fast path answers what parsing and formatting answer', () => {
    fc.assert(
      fc.property(fc.oneof(nearCanonical, timeLike, fc.string(), fc.constant('0001-01-01T00:00:00Z')), (value) => {
        expect(canonicalTime(value)).toBe(parsedAndFormatted(value));
        // Only a text that is its own canonical form takes the fast path.
        if (isCanonicalTimeText(value)) expect(formatRfc3339Utc((parseRfc3339(value) as { seconds: number }).seconds)).toBe(value);
      }),
      { numRuns: 20_000 },
    );
  });

  it.each(['2024-02-29T23:59:59Z', '0000-02-29T00:00:00Z', '9999-12-31T23:59:59Z', '2026-12-04T23:45:00Z'])('takes %s as already canonical', (value) => {
    expect(isCanonicalTimeText(value)).toBe(true);
    expect(canonicalTime(value)).toBe(value);
  });

  it.each(['2025-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2025-00-01T00:00:00Z', '2025-01-01T24:00:00Z', '2025-01-01T00:00:00z', '2025-01-01T00:00:00.5Z', '2025-1-01T00:00:00Z'])(
    'does not take %s as canonical',
    (value) => {
      expect(isCanonicalTimeText(value)).toBe(false);
    },
  );
});

// metav1.MicroTime: time.Parse(RFC3339Micro) needs exactly six fractional digits (stdFracSecond0),
// and MarshalJSON writes them all, in UTC.
describe('metav1.MicroTime parsing and formatting', () => {
  const micro = (value: string): string => {
    const r = parseRfc3339Micro(value);
    if (!r.ok) throw new Error(r.error);
    return formatRfc3339Micro(r.seconds, r.micros);
  };
  const microError = (value: string): string => {
    const r = parseRfc3339Micro(value);
    if (r.ok) throw new Error(`expected ${value} to fail`);
    return r.error;
  };
  const M = '"2006-01-02T15:04:05.000000Z07:00"';

  it.each([
    ['2026-12-07T10:00:00.123456Z', '2026-12-07T10:00:00.123456Z'],
    ['2026-12-07T10:00:00.000000Z', '2026-12-07T10:00:00.000000Z'],
    ['2026-12-07T12:00:00.000042+02:00', '2026-12-07T10:00:00.000042Z'],
    ['2026-12-07T10:00:00,999999Z', '2026-12-07T10:00:00.999999Z'],
    // atoi takes a sign: "+12345" is 12345 µs.
    ['2026-12-07T10:00:00.+12345Z', '2026-12-07T10:00:00.012345Z'],
  ])('normalises %s to %s', (input, output) => {
    expect(micro(input)).toBe(output);
  });

  it.each([
    ['2026-12-07T10:00:00Z', `parsing time "2026-12-07T10:00:00Z" as ${M}: cannot parse "Z" as ".000000"`],
    ['2026-12-07T10:00:00.5Z', `parsing time "2026-12-07T10:00:00.5Z" as ${M}: cannot parse ".5Z" as ".000000"`],
    ['2026-12-07T10:00:00.123456789Z', `parsing time "2026-12-07T10:00:00.123456789Z" as ${M}: cannot parse "789Z" as "Z07:00"`],
    ['2026-12-07T10:00:00.12a456Z', `parsing time "2026-12-07T10:00:00.12a456Z" as ${M}: cannot parse "Z" as ".000000"`],
    ['2026-12-07T10:00:00x123456Z', `parsing time "2026-12-07T10:00:00x123456Z" as ${M}: cannot parse "Z" as ".000000"`],
    ['2026-12-07T10:00:00.-12345Z', 'parsing time "2026-12-07T10:00:00.-12345Z": fractional second out of range'],
    ['2026-13-07T10:00:00.000000Z', 'parsing time "2026-13-07T10:00:00.000000Z": month out of range'],
  ])('rejects %s as Go does', (input, error) => {
    expect(microError(input)).toBe(error);
  });

  it('given any instant in microseconds, when formatted and parsed again, then it is the same', () => {
    fc.assert(
      fc.property(fc.integer({ min: GO_ZERO_TIME_SECONDS, max: 253402300799 }), fc.integer({ min: 0, max: 999_999 }), (seconds, micros) => {
        expect(parseRfc3339Micro(formatRfc3339Micro(seconds, micros))).toEqual({ ok: true, seconds, micros });
      }),
    );
  });
});
