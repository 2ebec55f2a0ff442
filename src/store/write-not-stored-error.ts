// A write that ran but was not stored: the shared transaction holding it was rolled back (disk
// full, I/O error, out of memory) or could not be committed. A clear 500 the client may retry.
import { InternalServerError } from '../domain/errors/domain-errors';

export class WriteNotStoredError extends InternalServerError {
  constructor(readonly storeError: unknown) {
    super(`the write was not stored, the transaction holding it was rolled back (${describe(storeError)}); please retry`);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}
