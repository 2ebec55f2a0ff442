import { maxWithin, summarizeConditions, type SummaryTransition } from './condition-summary';

const t = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
const row = (minute: number, from: string | null, to: string | null, type = 'Ready'): SummaryTransition => ({
  conditionType: type,
  fromStatus: from,
  toStatus: to,
  recordedAt: t(minute),
});

describe('summarizeConditions', () => {
  const base = { start: Date.parse(t(0)), end: Date.parse(t(60)), flapThreshold: 3, flapWindowMs: 10 * 60_000 };

  it('adds up the time in each status until the end of the window', () => {
    const [ready] = summarizeConditions([row(0, null, 'False'), row(10, 'False', 'True'), row(40, 'True', 'False')], base);
    expect(ready).toEqual({
      type: 'Ready',
      status: 'False',
      transitions: 3,
      secondsInStatus: { False: 30 * 60, True: 30 * 60 },
      lastTransitionTime: t(40),
      maxTransitionsInFlapWindow: 1,
      flapping: false,
    });
  });

  it('clips to the window and ignores reason-only changes', () => {
    const rows = [row(0, null, 'True'), row(5, 'True', 'True'), row(30, 'True', 'False')];
    const [ready] = summarizeConditions(rows, { ...base, start: Date.parse(t(20)), end: Date.parse(t(50)) });
    expect(ready.secondsInStatus).toEqual({ True: 600, False: 1200 });
    expect(ready.transitions).toBe(1);
  });

  it('flaps when more than N transitions fall within the flap window', () => {
    const rows = [row(0, null, 'True'), row(1, 'True', 'False'), row(2, 'False', 'True'), row(3, 'True', 'False'), row(30, 'False', 'True')];
    const [ready] = summarizeConditions(rows, base);
    expect(ready.maxTransitionsInFlapWindow).toBe(4);
    expect(ready.flapping).toBe(true);
    expect(summarizeConditions(rows, { ...base, flapThreshold: 4 })[0].flapping).toBe(false);
  });

  it('a removed condition has no status and stops accruing time', () => {
    const [ready] = summarizeConditions([row(0, null, 'True'), row(15, 'True', null)], base);
    expect(ready.status).toBeUndefined();
    expect(ready.secondsInStatus).toEqual({ True: 900 });
  });

  it('one summary per type, sorted', () => {
    expect(summarizeConditions([row(0, null, 'True', 'Ready'), row(1, null, 'True', 'Degraded')], base).map((s) => s.type)).toEqual(['Degraded', 'Ready']);
  });
});

describe('maxWithin', () => {
  it('counts times in half-open windows', () => {
    expect(maxWithin([], 10)).toBe(0);
    expect(maxWithin([0, 5, 10, 11], 10)).toBe(3);
    expect(maxWithin([0, 10, 20], 10)).toBe(1);
  });
});
