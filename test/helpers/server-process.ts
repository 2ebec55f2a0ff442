// The real server as a child process (`node dist/main.js`), for tests that kill, signal or
// restart it. The app is compiled once per state of its sources and shared by every suite.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transformFileSync, version as swcVersion, type Options as SwcOptions } from '@swc/core';

export const ROOT = join(__dirname, '..', '..');
const BUILDS = join(ROOT, '.test-dist');
/** Builds of other source states kept besides the current one (a branch switched back and forth). */
const KEPT_BUILDS = 2;

/**
 * The app compiled into .test-dist/build-<hash of its sources>/ (node_modules and migrations are
 * found by walking up): compiled once, by whichever suite asks first, and shared by every suite
 * and run until a source changes. Never dist/, which a developer's own build may be rewriting.
 * Suites running in parallel may both compile it; the first to finish names it, the other's
 * copy is thrown away.
 *
 * Compiled file by file with swc and jest's own TypeScript settings (package.json), so the child
 * process runs the same code the in-process servers of the other suites run: about 0.3 s, where
 * `tsc` took about 17 s of CPU on a fresh clone, twice when both workers asked at once. Types are
 * checked by `npm run typecheck`, as for every other test.
 */
export function buildDist(): string {
  const outDir = join(BUILDS, `build-${sourceHash()}`);
  if (!existsSync(join(outDir, 'main.js'))) {
    mkdirSync(BUILDS, { recursive: true });
    const scratch = mkdtempSync(join(BUILDS, 'building-'));
    try {
      for (const file of sourceFiles()) {
        const target = join(scratch, relative(join(ROOT, 'src'), file).replace(/\.ts$/, '.js'));
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, transformFileSync(file, SWC_OPTIONS).code);
      }
      renameSync(scratch, outDir);
    } catch (error) {
      rmSync(scratch, { recursive: true, force: true });
      if (!existsSync(join(outDir, 'main.js'))) throw error;
    }
    pruneBuilds(outDir);
  }
  builtDir = outDir;
  return outDir;
}

let builtDir: string | undefined;

/** Forgets this suite's build (the shared build stays for the next suite). */
export function removeBuild(): void {
  builtDir = undefined;
}

/** The compiled entry point of the last buildDist() (dist/ when none was made). */
export function built(file: 'main.js' | 'cli.js'): string {
  return join(builtDir ?? join(ROOT, 'dist'), file);
}

/** jest's swc options for TypeScript (package.json), without the inline source maps. */
const SWC_OPTIONS: SwcOptions = {
  ...(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { jest: { transform: Record<string, [string, SwcOptions]> } }).jest.transform['^.+\\.ts$'][1],
  sourceMaps: false,
  swcrc: false,
  configFile: false,
};

/** Every non-spec source file under src/, in a fixed order. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) files.push(path);
    }
  };
  walk(join(ROOT, 'src'));
  return files;
}

/** What the compiled output depends on: the compiler and its settings, and every non-spec source file. */
function sourceHash(): string {
  const hash = createHash('sha256');
  hash.update(`swc ${swcVersion} ${JSON.stringify(SWC_OPTIONS)}\0`);
  for (const path of sourceFiles()) hash.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Removes all but the newest few builds, and scratch folders of interrupted builds over an hour old. */
function pruneBuilds(current: string): void {
  const hourAgo = Date.now() - 3_600_000;
  const entries = readdirSync(BUILDS).map((name) => ({ path: join(BUILDS, name), name, mtime: statSync(join(BUILDS, name)).mtimeMs }));
  const builds = entries.filter((e) => e.name.startsWith('build-') && e.path !== current).sort((a, b) => b.mtime - a.mtime);
  for (const old of builds.slice(KEPT_BUILDS)) rmSync(old.path, { recursive: true, force: true });
  for (const e of entries) if (e.name.startsWith('building-') && e.mtime < hourAgo) rmSync(e.path, { recursive: true, force: true });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServerProcessOptions {
  /** Node's own options, before the script (`-r` a preload, say). */
  nodeArgs?: string[];
  /** Added to this process's environment. */
  env?: Record<string, string>;
}

export function startServerProcess(args: string[], options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), built('main.js'), '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out} ${err}`)), 30000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving (https:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], stdout: () => out, stderr: () => err, exited });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err}`));
    });
  });
}
