// A write that ran but was not stored: the shared transaction holding it was rolled back (disk
// full, I/O error, out of memory) or could not be committed. A clear 500 the client may retry.
import { InternalServerError } from '../../domain/errors/domain-errors';

export class WriteNotStoredError extends InternalServerError {
  constructor(readonly storeError: unknown) {
    super(`the write was not stored, the transaction holding it was rolled back (${describe(storeError)}); please retry`);
  }
}

function describe(error: unknown): string {
  // Duck-typed: the native addon's SqliteError may come from another realm than this module's Error.
  if (typeof error !== 'object' || error === null) return String(error);
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' ? `${code}: ${text}` : text;
}
