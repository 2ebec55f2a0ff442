#!/usr/bin/env node
// Runs the compiled CLI; builds first when the sources changed since the last build (or dist/
// is missing, on a fresh clone).
const { join } = require('node:path');
require('./build-if-stale').buildIfStale();
require(join(__dirname, '..', 'dist', 'cli.js'));
