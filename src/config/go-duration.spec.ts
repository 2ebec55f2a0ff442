import { parseGoDuration } from './go-duration';

describe('parseGoDuration (time.ParseDuration)', () => {
  it.each([
    ['1h', 3_600_000],
    ['30m', 1_800_000],
    ['1h30m', 5_400_000],
    ['1h0m0s', 3_600_000],
    ['90s', 90_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    ['0', 0],
    ['0s', 0],
    ['+2s', 2000],
  ])('given %s, then %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each(['', '1', 'h', '1d', '1x', '.s', '1h 30m', 'abc'])('given %j, then it is no duration', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});
