import { timeBuckets } from './activity-buckets';

describe('timeBuckets', () => {
  it('covers the window with equal, contiguous buckets ending exactly at until', () => {
    const buckets = timeBuckets('2026-01-01T00:00:00.000Z', '2026-01-01T01:00:00.000Z', 4);
    expect(buckets.map((b) => [b.start.slice(11, 19), b.end.slice(11, 19)])).toEqual([
      ['00:00:00', '00:15:00'],
      ['00:15:00', '00:30:00'],
      ['00:30:00', '00:45:00'],
      ['00:45:00', '01:00:00'],
    ]);
  });

  it('rounds uneven widths to whole milliseconds without gaps', () => {
    const buckets = timeBuckets('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.010Z', 3);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i].start).toBe(buckets[i - 1].end);
    expect(buckets[2].end).toBe('2026-01-01T00:00:00.010Z');
  });
});
