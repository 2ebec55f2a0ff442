import { canonicalTime, formatRfc3339Utc, parseRfc3339 } from './go-time';

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
});
