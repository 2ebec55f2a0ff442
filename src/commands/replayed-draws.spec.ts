import { ReplayedDraws } from './replayed-draws';
import type { IdFactory } from '../shared/ids';

/** A source whose every draw is new: 1, 2, 3… */
function counting(): IdFactory {
  let n = 0;
  return { newUid: () => `uid-${++n}`, newRequestId: () => `req-${++n}`, random: () => ++n / 1000 };
}

describe('ReplayedDraws: a write step draws the same on every run', () => {
  it('given a first run that drew, when the step runs again, then it gets the same uids and numbers in the same order', () => {
    const draws = new ReplayedDraws(counting());
    const first = [draws.rewind().random(), draws.newUid(), draws.random()];
    const second = [draws.rewind().random(), draws.newUid(), draws.random()];
    expect(second).toEqual(first);
  });

  it('given a rerun that goes further than the first, when it draws past what was drawn, then it gets new values and keeps them for the next run', () => {
    const draws = new ReplayedDraws(counting());
    const first = draws.rewind().random();
    const longer = [draws.rewind().random(), draws.random(), draws.random()];
    expect(longer[0]).toBe(first);
    expect(new Set(longer).size).toBe(3);
    expect([draws.rewind().random(), draws.random(), draws.random()]).toEqual(longer);
  });
});
