import { retentionMs, retentionPeriodMs } from './retention-duration';

describe('retention durations', () => {
  it.each([
    ['3s', 3000],
    ['12h', 12 * 3_600_000],
    ['30d', 30 * 86_400_000],
    ['1h30m', 90 * 60_000],
  ])('given %s, it is %d ms', (text, ms) => {
    expect(retentionMs(text)).toBe(ms);
  });

  it.each(['', '0s', '3', 's', '1.5h', '-1d', '3 s', '3w', '1h-30m'])('given %j, it is no duration', (text) => {
    expect(retentionMs(text)).toBeUndefined();
  });

  it('compacts every tenth of the duration, at least hourly', () => {
    expect(retentionPeriodMs(3000)).toBe(300);
    expect(retentionPeriodMs(5 * 3_600_000)).toBe(30 * 60_000);
    expect(retentionPeriodMs(30 * 86_400_000)).toBe(3_600_000);
  });
});
