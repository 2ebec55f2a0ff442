// Scratch databases live next to the database they are built from: same filesystem (a rename
// is atomic, space is where the data is), and a leftover is visible where the operator looks.
import { join } from 'node:path';

export function scratchPath(dir: string, purpose: string): string {
  return join(dir, `.svctrail-${purpose}-${process.pid}.db`);
}
