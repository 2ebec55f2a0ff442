import { Logger } from '@nestjs/common';
import type { CommittedWrite } from '../store/ports/committed-write';
import { ChangeFeed } from './change-feed';

const write = (resourceVersion: number) => ({ resourceVersion }) as CommittedWrite;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('ChangeFeed', () => {
  it('delivers after the publishing turn, in commit order', async () => {
    const feed = new ChangeFeed();
    const heard: number[] = [];
    feed.subscribe((w) => heard.push(w.resourceVersion));
    feed.publish(write(1));
    feed.publish(write(2));
    expect(heard).toEqual([]);
    await nextTurn();
    expect(heard).toEqual([1, 2]);
  });

  it('isolates a listener that throws: the others still hear every write; it is dropped and told why', async () => {
    const feed = new ChangeFeed();
    const before: number[] = [];
    const after: number[] = [];
    const failures: unknown[] = [];
    feed.subscribe((w) => before.push(w.resourceVersion));
    const bug = new Error('listener bug');
    feed.subscribe(
      () => {
        throw bug;
      },
      (error) => failures.push(error),
    );
    feed.subscribe((w) => after.push(w.resourceVersion));
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      expect(() => feed.publish(write(1))).not.toThrow();
      feed.publish(write(2));
      await nextTurn();
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('listener bug'));
    } finally {
      logged.mockRestore();
    }
    expect(before).toEqual([1, 2]);
    expect(after).toEqual([1, 2]);
    expect(failures).toEqual([bug]);
    expect(feed.listenerCount).toBe(2);
  });

  it('a listener unsubscribed by an earlier one hears nothing more', async () => {
    const feed = new ChangeFeed();
    const heard: number[] = [];
    const second = { unsubscribe: () => undefined };
    feed.subscribe(() => second.unsubscribe());
    Object.assign(
      second,
      feed.subscribe((w) => heard.push(w.resourceVersion)),
    );
    feed.publish(write(1));
    await nextTurn();
    expect(heard).toEqual([]);
  });
});
