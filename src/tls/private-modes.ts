// The data directory holds the CA key, every token and the whole event log, so it is for the
// server's user alone: the directory 0700 and every file in it 0600, except the certificates,
// which are public. Files are created that way; a directory from an older version, a copy or
// an operator's chmod is tightened at start-up, with a warning saying what changed.
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const PUBLIC_FILES = new Set(['ca.crt', 'serving.crt']);
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** Removes group and other permissions below `dataDir`; one warning per path it changed. */
export async function tightenModes(dataDir: string): Promise<string[]> {
  const warnings: string[] = [];
  const visit = async (path: string, name: string, depth: number): Promise<void> => {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) return;
    const mode = stats.mode & 0o777;
    if (stats.isDirectory()) {
      if (mode & 0o077) {
        await chmod(path, mode & PRIVATE_DIR);
        warnings.push(`${path} was mode ${octal(mode)}; changed to ${octal(mode & PRIVATE_DIR)} (the data directory is private)`);
      }
      // The data directory and users/ — nothing deeper is ours.
      if (depth < 2) for (const entry of await readdir(path)) await visit(join(path, entry), entry, depth + 1);
    } else if (stats.isFile() && !(depth === 1 && PUBLIC_FILES.has(name)) && mode & 0o077) {
      await chmod(path, mode & PRIVATE_FILE);
      warnings.push(`${path} was mode ${octal(mode)}; changed to ${octal(mode & PRIVATE_FILE)} (it holds secrets)`);
    }
  };
  await visit(dataDir, '', 0);
  return warnings;
}

const octal = (mode: number) => `0${mode.toString(8).padStart(3, '0')}`;
