// bench/ab.ts's two builds: a git ref checked out in a worktree of its own and built there, or this
// working tree as it is (built by the npm script). A worktree lives outside the repository
// (SVCTRAIL_AB_DIR, default $TMPDIR/svctrail-ab/<sha>): inside it, jest's testRegex, eslint's
// `bench/**/*.ts` and knip would all find a second copy of src/ and test/. Its node_modules is a
// symlink to this tree's when package-lock.json is the same at that commit, else its own `npm ci`.
// A worktree whose build finished (a marker file holding the sha) is reused as it is.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../real';

export type Side = 'base' | 'current';

export interface Build {
  side: Side;
  /** What was asked for: a git ref, or `working tree`. */
  ref: string;
  sha: string;
  /** The project root whose dist/ and bench/dist/ run. */
  root: string;
  /** This working tree with changes not committed (git status not empty). */
  dirty: boolean;
  /** How it was built: reused, or built now (ms), or by the npm script (working tree). */
  built: string;
  notes: string[];
  /** A copy of this tree's build, removed after the run. */
  temporary?: boolean;
}

export const AB_DIR = process.env.SVCTRAIL_AB_DIR ?? join(tmpdir(), 'svctrail-ab');
const MARKER = '.svctrail-ab-built';

function git(args: string[], cwd = ROOT): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim() || `exit ${r.status}`}`);
  return r.stdout;
}

/** Runs a build step in `cwd`, its output kept and shown only when it fails. */
function step(command: string, args: string[], cwd: string, log: (line: string) => void): void {
  const t0 = performance.now();
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} in ${cwd} failed (exit ${r.status}):\n${`${r.stdout}\n${r.stderr}`.trim().slice(-4000)}`);
  log(`  ${command} ${args.join(' ')}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

export function resolveRef(ref: string): string {
  return git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim();
}

/** What a build needs at run time besides node_modules: the server's and the bench's code, the migrations, package.json. */
const RUNTIME = ['dist', 'bench/dist', 'migrations', 'package.json'];
const NEEDED = ['dist/main.js', 'dist/cli.js', 'bench/dist/generate-data.js'];

/**
 * This working tree, as built by the npm script (nest build, bench/build.js), copied at once to a
 * folder of its own (AB_DIR/working-tree-<pid>, `temporary`): another `nest build` in this tree
 * during the run (it empties dist/ first) would otherwise pull the build out from under it.
 */
export function workingTree(side: Side, log: (line: string) => void): Build {
  for (const file of NEEDED) {
    if (!existsSync(join(ROOT, file))) throw new Error(`${file} is missing: run \`npx nest build && node bench/build.js\` (npm run bench:ab does)`);
  }
  const sha = resolveRef('HEAD');
  const dirty = git(['status', '--porcelain', '--untracked-files=normal']).trim().length > 0;
  const root = join(AB_DIR, `working-tree-${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  for (const part of RUNTIME) cpSync(join(ROOT, part), join(root, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  const missing = NEEDED.filter((file) => !existsSync(join(root, file)));
  if (missing.length) throw new Error(`this tree's build changed while it was copied (${missing.join(', ')} missing): run again`);
  log(`${side}: this working tree's build copied to ${root}`);
  return { side, ref: 'working tree', sha, root, dirty, built: 'by the npm script (nest build, bench/build.js), then copied', notes: [], temporary: true };
}

/** `ref` checked out at its sha in its own worktree, and built there (or found built). */
export function worktreeBuild(side: Side, ref: string, log: (line: string) => void): Build {
  const sha = resolveRef(ref);
  const dir = join(AB_DIR, sha);
  const notes: string[] = [];
  const marker = join(dir, MARKER);
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === sha && existsSync(join(dir, 'dist', 'main.js')) && existsSync(join(dir, 'bench', 'dist', 'generate-data.js'))) {
    const notesFile = join(dir, `${MARKER}.notes`);
    const note = existsSync(notesFile) ? readFileSync(notesFile, 'utf8').trim() : '';
    log(`${side}: ${ref} = ${sha.slice(0, 12)}, built before in ${dir}`);
    return { side, ref, sha, root: dir, dirty: false, built: 'reused', notes: note ? note.split('\n') : [] };
  }
  log(`${side}: ${ref} = ${sha.slice(0, 12)}: building in ${dir}`);
  const t0 = performance.now();
  if (!existsSync(join(dir, '.git'))) {
    // A worktree whose folder is gone (a cleaned temp dir) is still registered: prune it first.
    git(['worktree', 'prune']);
    rmSync(dir, { recursive: true, force: true });
    git(['worktree', 'add', '--detach', dir, sha]);
  } else if (git(['rev-parse', 'HEAD'], dir).trim() !== sha) {
    throw new Error(`${dir} is a worktree at another commit than ${sha}: remove it (git worktree remove --force ${dir})`);
  }
  // Dependencies: this tree's when package-lock.json is the same at `sha`, else its own npm ci.
  let lockThere: string | undefined;
  try {
    lockThere = git(['show', `${sha}:package-lock.json`]);
  } catch {
    lockThere = undefined;
  }
  const modules = join(dir, 'node_modules');
  const isLink = existsSync(modules) && lstatSync(modules).isSymbolicLink();
  if (lockThere === readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) {
    if (!existsSync(modules)) symlinkSync(join(ROOT, 'node_modules'), modules, 'dir');
  } else {
    const note = `package-lock.json differs between ${sha.slice(0, 12)} and this tree: its own npm ci, not this tree's node_modules`;
    notes.push(note);
    log(`  note: ${note}`);
    if (isLink) rmSync(modules);
    step('npm', ['ci', '--no-audit', '--no-fund'], dir, log);
  }
  step('npx', ['nest', 'build'], dir, log);
  step(process.execPath, ['bench/build.js'], dir, log);
  writeFileSync(join(dir, `${MARKER}.notes`), notes.join('\n'));
  writeFileSync(marker, `${sha}\n`);
  return { side, ref, sha, root: dir, dirty: false, built: `now, in ${((performance.now() - t0) / 1000).toFixed(0)} s`, notes };
}

/** How a build is named in the report: the ref, its sha, and whether it had uncommitted changes. */
export const describe = (b: Build) => `${b.ref === 'working tree' ? `working tree at ${b.sha.slice(0, 12)}${b.dirty ? ' + uncommitted changes' : ''}` : `${b.ref} (${b.sha.slice(0, 12)})`}`;
