import { BacklogBudget, type BudgetedStream } from './backlog-budget';

class FakeStream implements BudgetedStream {
  evicted = false;
  constructor(
    private readonly budget: BacklogBudget,
    public bytes: number,
  ) {}
  backlog(): number {
    return this.evicted ? 0 : this.bytes;
  }
  evict(): void {
    this.evicted = true;
    this.budget.release(this);
  }
  wrote(bytes: number): void {
    this.bytes = bytes;
    this.budget.track(this, bytes);
  }
}

describe('BacklogBudget', () => {
  it('closes the streams holding the most until the total is within budget', () => {
    const budget = new BacklogBudget();
    budget.maxTotalBytes = 100;
    const small = new FakeStream(budget, 0);
    const large = new FakeStream(budget, 0);
    const medium = new FakeStream(budget, 0);
    small.wrote(10);
    large.wrote(60);
    medium.wrote(30);
    expect(budget.totalBytes).toBe(100);
    expect([small, large, medium].map((s) => s.evicted)).toEqual([false, false, false]);
    medium.wrote(45);
    expect([small, large, medium].map((s) => s.evicted)).toEqual([false, true, false]);
    expect(budget.totalBytes).toBe(55);
    expect(budget.evictions).toBe(1);
  });

  it('reads the real backlogs before closing anything: sockets drain between writes', () => {
    const budget = new BacklogBudget();
    budget.maxTotalBytes = 100;
    const drained = new FakeStream(budget, 0);
    const busy = new FakeStream(budget, 0);
    drained.wrote(90);
    drained.bytes = 0; // flushed to the socket since, without writing again
    busy.wrote(50);
    expect([drained.evicted, busy.evicted]).toEqual([false, false]);
    expect(budget.totalBytes).toBe(50);
  });

  it('forgets a stream that ended', () => {
    const budget = new BacklogBudget();
    const stream = new FakeStream(budget, 0);
    stream.wrote(1000);
    budget.release(stream);
    expect(budget.totalBytes).toBe(0);
  });
});
