#!/usr/bin/env node
// Runs the compiled CLI; builds first when dist/ is missing (fresh clone).
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');
const root = join(__dirname, '..');
const cli = join(root, 'dist', 'cli.js');
if (!existsSync(cli)) {
  execFileSync(process.execPath, [join(root, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], { cwd: root, stdio: 'inherit' });
}
require(cli);
