// Runs the compiled `svctrail` CLI (the last buildDist(), else dist/) as a child process and
// returns its exit code and output, whether it succeeded or not. SVCTRAIL_STORAGE is never
// inherited from the test runner: each test names its engine itself.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { built, ROOT } from './server-process';

const exec = promisify(execFile);

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runBuiltCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const { SVCTRAIL_STORAGE: _ignored, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await exec(process.execPath, [built('cli.js'), ...args], { cwd: ROOT, env: { ...inherited, ...env }, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
