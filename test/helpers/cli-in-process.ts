// Runs an `svctrail` command in this process (src/cli/run-command.ts, what bin/svctrail.js runs)
// and returns its exit code and output as runBuiltCli does, for tests that compare what commands
// answer rather than how a process behaves: a child process costs about 1 s of CPU to start Node
// and the CLI's modules, per command. A separate file from built-cli.ts, so that suites running
// only child processes do not load every command.
import { runCommand } from '../../src/cli/run-command';
import type { CliRun } from './built-cli';

export async function runCliInProcess(args: readonly string[]): Promise<CliRun> {
  // As runBuiltCli: the command never takes its store from the test runner's SVCTRAIL_STORAGE
  // (jest gives each suite a process.env of its own).
  delete process.env.SVCTRAIL_STORAGE;
  let stdout = '';
  let stderr = '';
  // The progress of replay, verify, import, export and compact (src/cli/progress-bar.ts) is
  // written to process.stderr itself: taken into the command's stderr, in order with its errors,
  // as a child process's stderr would have it, instead of into the test run's output.
  const write = process.stderr.write;
  process.stderr.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    const done = rest.find((arg): arg is () => void => typeof arg === 'function');
    if (done) process.nextTick(done);
    return true;
  };
  try {
    const code = await runCommand(
      [...args],
      (line) => (stdout += `${line}\n`),
      (line) => (stderr += `${line}\n`),
    );
    return { code, stdout, stderr };
  } catch (error) {
    // What src/cli.ts prints for an error no command expected, before exiting 1.
    return { code: 1, stdout, stderr: `${stderr}svctrail: ${error instanceof Error ? error.message : String(error)}\n` };
  } finally {
    process.stderr.write = write;
  }
}
