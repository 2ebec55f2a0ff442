// Where the project's files (migrations, the built UI) are, found from this file's location so that
// it holds from src/, dist/ and a test build alike.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The project root: the nearest folder above this file that holds `migrations/` (src/, dist/ or a test build). */
export const PROJECT_ROOT = findProjectRoot(__dirname);

function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'migrations')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(start, '..', '..');
  }
}
