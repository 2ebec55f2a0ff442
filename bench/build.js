// Transpiles bench/*.ts and bench/run/*.ts to bench/dist/ (same layout) with @swc/core (already a dev dependency): no type
// check here, so a work-in-progress elsewhere in src/ never blocks a benchmark run. Type-check
// with `npx tsc -p bench/tsconfig.json`. The scripts load the server's code from the compiled
// dist/ (`nest build`), the same code `node dist/main.js` serves.
'use strict';
const { mkdirSync, readdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { transformFileSync } = require('@swc/core');

const here = __dirname;
for (const folder of ['.', 'run', 'floor']) {
  const out = join(here, 'dist', folder);
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(join(here, folder)).filter((f) => f.endsWith('.ts'))) {
    const { code } = transformFileSync(join(here, folder, file), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
      sourceMaps: false,
      swcrc: false,
    });
    writeFileSync(join(out, file.replace(/\.ts$/, '.js')), code);
  }
}
