import { fitInstants, fitWindow, LAST_CHANGES, lastChangesStart, MIN_WINDOW_MS } from './fit-window';

const T = Date.parse('2026-03-01T00:00:00.000Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('fitWindow', () => {
  it('given a history of five seconds, when fitted, then the window is the minimum of two minutes around it, never hours', () => {
    const w = fitWindow(T, T + 5 * SECOND);
    expect(w.to - w.from).toBeGreaterThanOrEqual(MIN_WINDOW_MS);
    expect(w.to - w.from).toBeLessThanOrEqual(MIN_WINDOW_MS + 2 * SECOND);
    expect(w.from).toBeLessThan(T);
    expect(w.to).toBeGreaterThan(T + 5 * SECOND);
    // Centred: as much room before the first change as after the last.
    expect(Math.abs(T - w.from - (w.to - (T + 5 * SECOND)))).toBeLessThanOrEqual(SECOND);
  });

  it('given a history of three days, when fitted, then it spans the three days with 5% of room on each side', () => {
    expect(fitWindow(T, T + 3 * DAY)).toEqual({ from: T - 0.15 * DAY, to: T + 3.15 * DAY });
  });

  it('given a single change, when fitted, then the window is the minimum one centred on it', () => {
    expect(fitWindow(T, T)).toEqual({ from: T - MIN_WINDOW_MS / 2, to: T + MIN_WINDOW_MS / 2 });
  });

  it('given times off whole seconds, when fitted, then the window is rounded outwards to whole seconds', () => {
    const w = fitWindow(T + 10 * MINUTE + 123, T + 30 * MINUTE + 456);
    expect(w.from % SECOND).toBe(0);
    expect(w.to % SECOND).toBe(0);
    expect(w.from).toBeLessThanOrEqual(T + 9 * MINUTE);
    expect(w.to).toBeGreaterThanOrEqual(T + 31 * MINUTE);
  });

  it('given first and last swapped, when fitted, then the window is the same', () => {
    expect(fitWindow(T + HOUR, T)).toEqual(fitWindow(T, T + HOUR));
  });
});

describe('fitInstants', () => {
  it('given no instants, when fitted, then there is no window', () => {
    expect(fitInstants([])).toBeUndefined();
  });

  it('given a few instants in any order, when fitted, then the window covers all of them', () => {
    expect(fitInstants([T + 2 * HOUR, T, T + HOUR])).toEqual(fitWindow(T, T + 2 * HOUR));
  });

  it('given more instants than are kept, when fitted, then the window covers the newest ones only', () => {
    const instants = Array.from({ length: LAST_CHANGES + 10 }, (_, i) => T + i * HOUR);
    expect(fitInstants(instants)).toEqual(fitWindow(T + 10 * HOUR, T + (LAST_CHANGES + 9) * HOUR));
  });
});

describe('lastChangesStart', () => {
  const bucket = (hour: number, changes: number) => ({ start: new Date(T + hour * HOUR).toISOString(), changes });

  it('given no more changes than are kept, when asked, then the whole history fits (no start)', () => {
    expect(lastChangesStart([bucket(0, 1), bucket(1, 0), bucket(2, 3)], 4)).toBeUndefined();
  });

  it('given more changes than are kept, when asked, then the start of the bucket holding the keep-th newest change', () => {
    expect(lastChangesStart([bucket(0, 5), bucket(1, 2), bucket(2, 0), bucket(3, 2)], 3)).toBe(T + HOUR);
    expect(lastChangesStart([bucket(0, 5), bucket(1, 2), bucket(2, 0), bucket(3, 2)], 4)).toBe(T + HOUR);
    expect(lastChangesStart([bucket(0, 5), bucket(1, 2), bucket(2, 0), bucket(3, 2)], 5)).toBe(T);
  });

  it('given the newest bucket alone holding enough, when asked, then its own start', () => {
    expect(lastChangesStart([bucket(0, 100), bucket(1, 60)], LAST_CHANGES)).toBe(T + HOUR);
  });
});
