import { ProgressBar } from './progress-bar';

describe('ProgressBar', () => {
  const setup = (isTTY: boolean) => {
    let now = 0;
    const written: string[] = [];
    const bar = new ProgressBar({ isTTY, columns: 200, write: (t: string) => written.push(t) }, () => now);
    return { bar, written, tick: (ms: number) => (now += ms) };
  };

  it('draws phase, percentage, rate and ETA on a TTY, then a summary line', () => {
    const { bar, written, tick } = setup(true);
    bar.start('fold projections', 10000, 'events');
    tick(2000);
    bar.advance(2500);
    expect(bar.render()).toBe('fold projections [######------------------] 25% 2,500/10,000 events  1,250 events/s  ETA 6.0s');
    expect(written[written.length - 1]).toContain('25% 2,500/10,000');
    tick(6000);
    bar.advance(7500);
    bar.done();
    expect(written[written.length - 1]).toBe('\r\x1b[2Kfold projections: 10,000 events in 8.0s (1,250 events/s)\n');
  });

  it('writes only the summary line when stderr is not a terminal, and copes with an unknown total', () => {
    const { bar, written, tick } = setup(false);
    bar.start('read events', undefined, 'bytes');
    tick(500);
    bar.advance(1000);
    expect(bar.render()).toBe('read events 1,000 bytes  2,000 bytes/s');
    bar.done();
    expect(written).toEqual(['read events: 1,000 bytes in 0.5s (2,000 bytes/s)\n']);
  });
});
