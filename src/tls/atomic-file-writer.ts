// Writes go to a temporary file in the same directory and are renamed into place, so a crash
// never leaves a truncated certificate, key or kubeconfig behind, and the file has its final
// mode (0600 for secrets) from the moment it appears. The directory is fsynced after the rename:
// until then the new name itself may not survive a power loss.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomically(path: string, data: string, mode: number): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await fsyncDirectory(dirname(path));
}

export async function fsyncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}
