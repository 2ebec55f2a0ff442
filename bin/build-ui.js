#!/usr/bin/env node
// Builds the browser UI (ui/ -> ui/dist/) with Vite and prints the bundle size, raw and gzipped.
// `buildUiIfStale` skips the build when ui/'s sources are unchanged since the last one (a
// fingerprint of paths, sizes and mtimes, like build-if-stale.js), so `npm start` and the browser
// tests only pay for it after an edit.
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const { gzipSync } = require('node:zlib');

const PROJECT_ROOT = join(__dirname, '..');
const INPUTS = ['ui', 'package-lock.json'];

function fingerprint(root) {
  const hash = createHash('sha256');
  const visit = (path) => {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      if (path === join(root, 'ui', 'dist')) return;
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
    } else hash.update(`${relative(root, path)}\0${stats.size}\0${stats.mtimeMs}\n`);
  };
  for (const input of INPUTS) if (existsSync(join(root, input))) visit(join(root, input));
  return hash.digest('hex');
}

/** Sizes of the built files: every asset, raw and gzipped. */
function bundleSize(root = PROJECT_ROOT) {
  const dir = join(root, 'ui', 'dist');
  let raw = 0;
  let gzip = 0;
  const visit = (path) => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry);
      if (statSync(full).isDirectory()) visit(full);
      else if (!entry.startsWith('.')) {
        const bytes = readFileSync(full);
        raw += bytes.length;
        gzip += gzipSync(bytes, { level: 9 }).length;
      }
    }
  };
  visit(dir);
  return { raw, gzip };
}

function buildUi(root = PROJECT_ROOT) {
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(root, 'ui', 'vite.config.mjs'), '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  const { raw, gzip } = bundleSize(root);
  process.stdout.write(`ui: bundle ${(raw / 1024).toFixed(1)} KiB, ${(gzip / 1024).toFixed(1)} KiB gzipped (ui/dist)\n`);
}

/** Builds the UI unless ui/dist is from the current sources; true if it built. */
function buildUiIfStale(root = PROJECT_ROOT, build = buildUi) {
  const stampPath = join(root, 'ui', 'dist', '.source-fingerprint');
  const before = fingerprint(root);
  const built = existsSync(join(root, 'ui', 'dist', 'index.html')) && existsSync(stampPath) ? readFileSync(stampPath, 'utf8') : '';
  if (built === before) return false;
  build(root);
  writeFileSync(stampPath, before);
  return true;
}

module.exports = { buildUi, buildUiIfStale, bundleSize };
if (require.main === module) {
  if (process.argv.includes('--if-stale')) buildUiIfStale();
  else {
    buildUi();
    writeFileSync(join(PROJECT_ROOT, 'ui', 'dist', '.source-fingerprint'), fingerprint(PROJECT_ROOT));
  }
}
