// A new user's `npm ci` prints nothing to wonder about (issue 44 point 6). npm decides its
// warnings from package.json and the lockfile alone (allowScripts, engines), so `npm ci
// --dry-run` on a folder holding just those two prints the same warnings in seconds, without the
// native build a real install runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

interface LockedPackage {
  version?: string;
  hasInstallScript?: boolean;
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };

/** The package name of a lockfile key such as `node_modules/a/node_modules/@b/c`. */
function packageName(key: string): string {
  return key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

describe('a clean first install', () => {
  it('npm ci prints no warning', () => {
    const folder = mkdtempSync(join(tmpdir(), 'svctrail-npm-ci-'));
    try {
      for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, file), join(folder, file));
      // No audit: its answer depends on the registry's advisories of the day, not on this project.
      const run = spawnSync('npm', ['ci', '--dry-run', '--no-audit', '--no-fund', '--no-update-notifier'], { cwd: folder, encoding: 'utf8', timeout: 120_000 });
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/added \d+ packages/);
      expect(`${run.stdout}${run.stderr}`.split('\n').filter((line) => /^npm (warn|WARN|notice)/.test(line))).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('decides every install script: better-sqlite3 builds, the others only re-check a binary an optional package already brings', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== '' && entry.hasInstallScript)
      .map(([key]) => packageName(key));
    expect([...new Set(withScripts)].sort()).toEqual(Object.keys(manifest.allowScripts).sort());
    expect(manifest.allowScripts['better-sqlite3']).toBe(true);
  });

  it('installs one esbuild', () => {
    const versions = Object.entries(lock.packages)
      .filter(([key]) => packageName(key) === 'esbuild')
      .map(([, entry]) => entry.version);
    expect(new Set(versions)).toEqual(new Set(['0.28.2']));
  });

  it('runs the tools whose install script is denied: esbuild and @swc/core load their platform binary', () => {
    const esbuild = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("esbuild").transformSync("let a: number = 1", { loader: "ts" }).code)'], { cwd: ROOT, encoding: 'utf8' });
    expect(esbuild).toBe('let a = 1;\n');
    const swc = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("@swc/core").transformSync("let a: number = 1", { jsc: { parser: { syntax: "typescript" } } }).code)'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(swc).toContain('var a = 1;');
  });
});
