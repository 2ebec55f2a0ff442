import { BatchSizer } from './batch-sizer';

describe('BatchSizer', () => {
  it('given a first size, when nothing ran yet, then the next batch has it', () => {
    expect(new BatchSizer(1000, 200, 10, 5000).next).toBe(1000);
  });

  it('given a batch that held the lock ten times the target, when sized again, then the next is a tenth', () => {
    const sizer = new BatchSizer(1000, 200, 10, 5000);
    sizer.observe(1000, 2000);
    expect(sizer.next).toBe(100);
  });

  it('given fast batches, when sized again, then the size at most doubles per step up to the maximum', () => {
    const sizer = new BatchSizer(100, 200, 10, 5000);
    sizer.observe(100, 1);
    expect(sizer.next).toBe(200);
    for (let i = 0; i < 10; i++) sizer.observe(sizer.next, 0);
    expect(sizer.next).toBe(5000);
  });

  it('given a very slow batch, when sized again, then the size stays at the minimum', () => {
    const sizer = new BatchSizer(1000, 200, 10, 5000);
    sizer.observe(1000, 600_000);
    expect(sizer.next).toBe(10);
  });

  it('given an empty batch, when observed, then the size is unchanged', () => {
    const sizer = new BatchSizer(300, 200, 10, 5000);
    sizer.observe(0, 50);
    expect(sizer.next).toBe(300);
  });
});
