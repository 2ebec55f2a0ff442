import { WalCheckpoints } from './wal-checkpoints';

describe('WalCheckpoints', () => {
  it('checkpoints between batches only once the file grew by the given number of pages since the last checkpoint', () => {
    let pages = 1000;
    const taken: number[] = [];
    const checkpoints = new WalCheckpoints(() => pages, () => taken.push(pages), 100);
    for (const grown of [40, 40, 19]) {
      pages += grown;
      checkpoints.maybe();
    }
    expect(taken).toEqual([]);
    pages += 1;
    checkpoints.maybe();
    expect(taken).toEqual([1100]);
    pages += 99;
    checkpoints.maybe();
    expect(taken).toEqual([1100]);
    checkpoints.now();
    expect(taken).toEqual([1100, 1199]);
    pages += 100;
    checkpoints.maybe();
    expect(taken).toEqual([1100, 1199, 1299]);
  });

  it('counts from a checkpoint taken between phases, whatever the file grew by before it', () => {
    let pages = 0;
    const taken: number[] = [];
    const checkpoints = new WalCheckpoints(() => pages, () => taken.push(pages), 100);
    pages = 90;
    checkpoints.now();
    pages = 150;
    checkpoints.maybe();
    expect(taken).toEqual([90]);
  });
});
