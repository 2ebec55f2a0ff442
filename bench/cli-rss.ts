// Runs svctrail's compiled CLI (dist/cli.js, what `svctrail` runs once built) in this process and,
// on exit, prints its peak RSS (VmHWM) on stderr as `bench-peak-rss <bytes>`, so the runner can
// report the memory of replay, verify and import next to their rate.
//
// usage: node bench/dist/cli-rss.js <svctrail arguments…>
// SVCTRAIL_CLI_ROOT=DIR runs DIR/dist/cli.js instead (bench/ab.ts: another tree's build).
import { readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './real';

process.on('exit', () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  writeSync(2, `\nbench-peak-rss ${m ? Number(m[1]) * 1024 : process.memoryUsage().rss}\n`);
});
const cli = join(process.env.SVCTRAIL_CLI_ROOT ?? ROOT, 'dist', 'cli.js');
process.argv = [process.argv[0], cli, ...process.argv.slice(2)];
// eslint-disable-next-line @typescript-eslint/no-require-imports -- runs the compiled CLI in this process, after setting its argv
require(cli);
