// The real server as a child process (`node dist/main.js`), for tests that kill, signal or
// restart it. The build runs once per test file.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

export function buildDist(): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], { cwd: ROOT, stdio: 'inherit' });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startServerProcess(args: string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js'), '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out} ${err}`)), 30000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving (https:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], stdout: () => out, stderr: () => err, exited });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err}`));
    });
  });
}
