#!/usr/bin/env node
// Compiles src/ into dist/ (and ui/ into ui/dist/, see build-ui.js) only when the sources changed since the last build (`npm start` runs
// this first): a restart serves in a second instead of waiting ~15 s for `nest build`, and a
// fresh clone (no dist/) or an edited source still gets a build. "Changed" is a fingerprint of
// every input's path, size and mtime, so edits, deletions and checkouts that move mtimes
// backwards all count.
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const PROJECT_ROOT = join(__dirname, '..');
const INPUTS = ['src', 'tsconfig.json', 'nest-cli.json', 'package-lock.json'];

function nestBuild(root) {
  execFileSync(process.execPath, [join(root, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], { cwd: root, stdio: 'inherit' });
}

function fingerprint(root) {
  const hash = createHash('sha256');
  const visit = (path) => {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
    } else if (!path.endsWith('.spec.ts')) {
      hash.update(`${relative(root, path)}\0${stats.size}\0${stats.mtimeMs}\n`);
    }
  };
  for (const input of INPUTS) if (existsSync(join(root, input))) visit(join(root, input));
  return hash.digest('hex');
}

/** Builds `root` (the project) with `build` unless dist/ is from the current sources; true if it built. */
function buildIfStale(root = PROJECT_ROOT, build = nestBuild) {
  const stampPath = join(root, 'dist', '.source-fingerprint');
  const before = fingerprint(root);
  const built = existsSync(join(root, 'dist', 'main.js')) && existsSync(stampPath) ? readFileSync(stampPath, 'utf8') : '';
  if (built === before) return false;
  build(root);
  // The fingerprint taken before the build: a source edited during it triggers the next build.
  writeFileSync(stampPath, before);
  return true;
}

module.exports = { buildIfStale };
if (require.main === module) {
  buildIfStale();
  // The browser UI (ui/ -> ui/dist/) has its own fingerprint: editing one never rebuilds the other.
  require('./build-ui').buildUiIfStale();
}
