import { Backoff } from './backoff';

describe('Backoff', () => {
  it('doubles from the initial wait up to the cap, each wait between half and all of its step', () => {
    const low = new Backoff({ initialMs: 800, maxMs: 30_000, random: () => 0 });
    const high = new Backoff({ initialMs: 800, maxMs: 30_000, random: () => 0.999999 });
    const lows = Array.from({ length: 8 }, () => low.next());
    const highs = Array.from({ length: 8 }, () => high.next());
    expect(lows).toEqual([400, 800, 1600, 3200, 6400, 12800, 15000, 15000]);
    expect(highs).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
  });

  it('never waits zero (no busy loop), and starts over after a reset', () => {
    const backoff = new Backoff({ initialMs: 100, maxMs: 1000, random: () => 0 });
    backoff.next();
    backoff.next();
    backoff.reset();
    expect(backoff.next()).toBe(50);
  });
});
