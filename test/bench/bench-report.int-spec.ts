// The pieces of the bench's report that decide what a reader sees: the machine's CPU share beside
// each case, and the newest table written between the markers of bench/README.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { busyShare, readCpuTimes } from '../../bench/machine-cpu';
import { LATEST_END, LATEST_START, replaceLatestTable } from '../../bench/run/readme-table';

describe('the machine CPU share', () => {
  const stat = (user: number, idle: number) => `cpu  ${user} 0 ${user / 2} ${idle} 10 0 5 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n`;

  it('given two readings of /proc/stat, when the share is taken, then it is busy time over all time between them', () => {
    const before = readCpuTimes(() => stat(100, 1000));
    const after = readCpuTimes(() => stat(400, 1150));
    // busy: user + system (half of user) + softirq; all: busy + idle + iowait
    expect(before).toEqual({ busy: 155, total: 1165 });
    expect(busyShare(before, after)).toBeCloseTo(450 / 600, 6);
  });

  it('given no /proc/stat, or not its cpu line, when read, then there is no figure rather than a wrong one', () => {
    expect(
      readCpuTimes(() => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
    expect(readCpuTimes(() => 'intr 1 2 3\n')).toBeUndefined();
    expect(busyShare(undefined, { busy: 1, total: 2 })).toBeUndefined();
  });
});

describe('the newest bench table in bench/README.md', () => {
  const readme = `# Bench\n\nmethod\n\n${LATEST_START}\nold table\n${LATEST_END}\n\nmore method\n`;

  it('given a README with the markers, when a table is written, then only the text between them changes, and writing it twice changes nothing more', () => {
    const once = replaceLatestTable(readme, '| new | table |');
    expect(once).toBe(`# Bench\n\nmethod\n\n${LATEST_START}\n\n| new | table |\n\n${LATEST_END}\n\nmore method\n`);
    expect(replaceLatestTable(once, '| new | table |')).toBe(once);
  });

  it('given a README without its end marker, when a table is written, then it refuses', () => {
    expect(() => replaceLatestTable(`${LATEST_START}\nno end`, 'x')).toThrow(/must hold/);
  });

  it('the project bench/README.md holds the markers', () => {
    const text = readFileSync(join(__dirname, '..', '..', 'bench', 'README.md'), 'utf8');
    expect(text.indexOf(LATEST_START)).toBeGreaterThan(-1);
    expect(text.indexOf(LATEST_END)).toBeGreaterThan(text.indexOf(LATEST_START));
  });
});
