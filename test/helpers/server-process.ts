// The real server as a child process (`node dist/main.js`), for tests that kill, signal or
// restart it. The build runs once per test file.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/**
 * Compiles the app into a private folder under .test-dist/ (node_modules and migrations are
 * found by walking up), so parallel test runs never rebuild each other's dist/ mid-run.
 */
export function buildDist(): string {
  mkdirSync(join(ROOT, '.test-dist'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, '.test-dist', 'build-'));
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json'), '--outDir', outDir, '--incremental', 'false', '--sourceMap', 'false'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  builtDir = outDir;
  return outDir;
}

let builtDir: string | undefined;

export function removeBuild(): void {
  if (builtDir) rmSync(builtDir, { recursive: true, force: true });
  builtDir = undefined;
}

/** The compiled entry point of the last buildDist() (dist/ when none was made). */
export function built(file: 'main.js' | 'cli.js'): string {
  return join(builtDir ?? join(ROOT, 'dist'), file);
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startServerProcess(args: string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, [built('main.js'), '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
