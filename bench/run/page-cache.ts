// A scratch copy's pages leave the page cache before any case runs on it. Copying a dataset
// leaves it as dirty pages the kernel writes back later — during the first cases of whichever
// phase comes next, which then pays for another's writeback (issue 28). So each copy is fsynced
// (every file, then the directory), and its now clean pages are dropped from the page cache, so
// every target starts from the same state: its copy on disk, none of it cached.
//
// Dropping: posix_fadvise(POSIX_FADV_DONTNEED) on each copied file, which Node does not expose
// but coreutils' `dd iflag=nocache count=0` calls on its input; it drops that file's pages only,
// which matters on a machine shared with others (their caches and the source dataset's stay).
// Where dd cannot do it, `echo 1 > /proc/sys/vm/drop_caches` (root only; every clean page of the
// machine); where neither is permitted, the copy stays cached (clean, after the fsync) and a note
// says so once.
import { spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, openSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How the last copy's pages were dropped: per file (fadvise), the whole cache, or not at all. */
export type CacheDrop = 'fadvise' | 'drop_caches' | 'none';

let noted = false;

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsyncs every file of `dir` and the directory, then drops their pages; says how. */
export function syncAndDrop(dir: string, log: (line: string) => void): CacheDrop {
  const files = readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
  for (const file of files) fsyncPath(file);
  fsyncPath(dir);
  const fadvised = files.every((file) => spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none'], { stdio: 'ignore' }).status === 0);
  if (fadvised) return 'fadvise';
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '1');
    return 'drop_caches';
  } catch (error) {
    if (!noted) log(`note: the scratch copies stay in the page cache (dd iflag=nocache failed; drop_caches: ${(error as Error).message}); they are fsynced before any case`);
    noted = true;
    return 'none';
  }
}
