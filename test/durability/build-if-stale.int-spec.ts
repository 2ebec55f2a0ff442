// `npm start` (prestart) builds only when the sources changed: a crash-restart must not wait for
// a full `nest build`, and a fresh clone or an edited source must still get one.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildIfStale } = require('../../bin/build-if-stale.js') as { buildIfStale: (root: string, build: (root: string) => void) => boolean };

describe('bin/build-if-stale.js', () => {
  let root: string;
  let builds: number;
  // Stands in for `nest build`, which empties dist/ and writes main.js.
  const build = (at: string) => {
    builds++;
    rmSync(join(at, 'dist'), { recursive: true, force: true });
    mkdirSync(join(at, 'dist'));
    writeFileSync(join(at, 'dist', 'main.js'), '');
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'svctrail-build-'));
    mkdirSync(join(root, 'src', 'store'), { recursive: true });
    writeFileSync(join(root, 'src', 'main.ts'), 'main');
    writeFileSync(join(root, 'src', 'store', 'database.ts'), 'db');
    writeFileSync(join(root, 'tsconfig.json'), '{}');
    builds = 0;
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds a fresh clone, then not again until a source changes', () => {
    expect(buildIfStale(root, build)).toBe(true);
    expect(buildIfStale(root, build)).toBe(false);
    expect(builds).toBe(1);

    writeFileSync(join(root, 'src', 'store', 'database.ts'), 'db2');
    expect(buildIfStale(root, build)).toBe(true);
    expect(buildIfStale(root, build)).toBe(false);

    // A checkout can move an mtime backwards; it is still a change.
    utimesSync(join(root, 'src', 'main.ts'), new Date('2001-01-01'), new Date('2001-01-01'));
    expect(buildIfStale(root, build)).toBe(true);

    rmSync(join(root, 'src', 'store', 'database.ts'));
    expect(buildIfStale(root, build)).toBe(true);
    writeFileSync(join(root, 'tsconfig.json'), '{"x":1}');
    expect(buildIfStale(root, build)).toBe(true);
    expect(builds).toBe(5);
  });

  it('ignores unit specs, and rebuilds when dist/ was removed', () => {
    buildIfStale(root, build);
    writeFileSync(join(root, 'src', 'store', 'database.spec.ts'), 'test');
    expect(buildIfStale(root, build)).toBe(false);
    rmSync(join(root, 'dist'), { recursive: true });
    expect(buildIfStale(root, build)).toBe(true);
    expect(builds).toBe(2);
  });
});
