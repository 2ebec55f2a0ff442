import { pauseAfterHold, WriteLockPacing } from './write-lock-pacing';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('leaving the write lock free between a command’s transactions', () => {
  it('given a short transaction, the lock stays free as long again, plus the busy handler’s slack', () => {
    expect(pauseAfterHold(20)).toBe(30);
  });

  it('given a long transaction, the pause is capped where a waiting writer’s retries are (100 ms apart)', () => {
    expect(pauseAfterHold(750)).toBe(110);
  });

  it('given a transaction just ended, the next one starts no sooner than the pause it owes', async () => {
    const pacing = new WriteLockPacing();
    let firstEnded = 0;
    await pacing.hold(() => {
      busy(20);
      firstEnded = performance.now();
    });
    const secondStarted = await pacing.hold(() => performance.now());
    expect(secondStarted - firstEnded).toBeGreaterThanOrEqual(29);
  });

  it('given a transaction that first waits for the lock, its hold counts from when it has it', async () => {
    const pacing = new WriteLockPacing();
    await pacing.hold((acquired) => {
      busy(600); // waiting behind another writer
      acquired();
      busy(10);
    });
    // Far below the wait, whatever a loaded machine adds to the 10 ms held.
    expect(pacing.longestMs).toBeGreaterThanOrEqual(10);
    expect(pacing.longestMs).toBeLessThan(300);
  });

  it('given a transaction that throws, its hold still counts and the error reaches the caller', async () => {
    const pacing = new WriteLockPacing();
    await expect(
      pacing.hold(() => {
        throw new Error('SQLITE_BUSY');
      }),
    ).rejects.toThrow('SQLITE_BUSY');
  });
});
