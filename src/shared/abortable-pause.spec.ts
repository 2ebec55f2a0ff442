import { pause, whenAborted } from './abortable-pause';

describe('pause', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const settled = async (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    await Promise.resolve();
    await Promise.resolve();
    return done;
  };

  it('given a live signal, when the time passes, then it resolves, and not before', async () => {
    const waiting = pause(1_000, new AbortController().signal);
    jest.advanceTimersByTime(999);
    expect(await settled(waiting)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await settled(waiting)).toBe(true);
  });

  it('given a live signal, when it aborts, then it resolves without waiting for the time', async () => {
    const stop = new AbortController();
    const waiting = pause(60_000, stop.signal);
    stop.abort();
    expect(await settled(waiting)).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('given a signal that aborted before the call, then it resolves at once and sets no timer', async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await settled(pause(60_000, stop.signal))).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('whenAborted', () => {
  it('given a live signal, then it waits for the abort', async () => {
    const stop = new AbortController();
    let done = false;
    const waiting = whenAborted(stop.signal).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    stop.abort();
    await waiting;
    expect(done).toBe(true);
  });

  it('given a signal that aborted before the call (its event already fired), then it resolves', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(whenAborted(stop.signal)).resolves.toBeUndefined();
  });
});
