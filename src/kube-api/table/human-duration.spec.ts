import { humanDuration, translateTimestampSince } from './human-duration';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;

describe('humanDuration (duration.HumanDuration)', () => {
  it.each<[string, number, string]>([
    ['-2s is clock skew too large', -2 * s, '<invalid>'],
    ['-1.999s truncates to -1', -1999, '0s'],
    ['-1s', -1 * s, '0s'],
    ['-0.5s truncates to 0', -500, '0s'],
    ['zero', 0, '0s'],
    ['0.999s', 999, '0s'],
    ['1s', 1 * s, '1s'],
    ['119.999s', 2 * m - 1, '119s'],
    ['2m', 2 * m, '2m'],
    ['2m1s', 2 * m + s, '2m1s'],
    ['9m59s', 10 * m - s, '9m59s'],
    ['10m', 10 * m, '10m'],
    ['10m30s drops seconds', 10 * m + 30 * s, '10m'],
    ['179m59s', 3 * h - s, '179m'],
    ['3h', 3 * h, '3h'],
    ['3h1m', 3 * h + m, '3h1m'],
    ['7h59m59s', 8 * h - s, '7h59m'],
    ['8h', 8 * h, '8h'],
    ['8h59m drops minutes', 8 * h + 59 * m, '8h'],
    ['47h59m', 48 * h - m, '47h'],
    ['48h', 48 * h, '2d'],
    ['49h', 49 * h, '2d1h'],
    ['7d23h59m', 8 * d - m, '7d23h'],
    ['8d', 8 * d, '8d'],
    ['8d23h drops hours', 8 * d + 23 * h, '8d'],
    ['729d23h', 2 * y - h, '729d'],
    ['2y', 2 * y, '2y'],
    ['2y1d', 2 * y + d, '2y1d'],
    ['7y364d', 8 * y - h, '7y364d'],
    ['8y', 8 * y, '8y'],
    ['8y200d drops days', 8 * y + 200 * d, '8y'],
    ['25y', 25 * y, '25y'],
  ])('%s', (_name, ms, expected) => {
    expect(humanDuration(ms)).toBe(expected);
  });
});

describe('translateTimestampSince', () => {
  const now = new Date('2025-01-01T12:00:00.750Z');

  it.each<[string, string | null | undefined, string]>([
    ['absent', undefined, '<unknown>'],
    ['null (the zero metav1.Time on the wire)', null, '<unknown>'],
    ['empty', '', '<unknown>'],
    ['the Go zero time', '0001-01-01T00:00:00Z', '<unknown>'],
    ['unparseable', 'yesterday', '<unknown>'],
    ['just created', '2025-01-01T12:00:00Z', '0s'],
    ['two hours ago', '2025-01-01T10:00:00Z', '120m'],
    ['a numeric offset', '2025-01-01T13:00:00+02:00', '60m'],
    ['one second ahead (skew tolerated)', '2025-01-01T12:00:01Z', '0s'],
    ['two seconds ahead', '2025-01-01T12:00:03Z', '<invalid>'],
    ['a year and a half', '2023-07-01T00:00:00Z', '550d'],
  ])('%s', (_name, ts, expected) => {
    expect(translateTimestampSince(ts, now)).toBe(expected);
  });
});
