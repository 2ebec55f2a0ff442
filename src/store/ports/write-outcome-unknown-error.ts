// A write whose COMMIT got no answer (the connection to the database was lost while it ran): it
// may or may not be stored. Never answered as a success; a 500 the client may check and retry
// (a retried create answers AlreadyExists, a retried update Conflict, if the first one landed).
import { InternalServerError } from '../../domain/errors/domain-errors';

export class WriteOutcomeUnknownError extends InternalServerError {
  constructor(readonly storeError: unknown) {
    super(`the write may or may not have been stored: the connection to the database was lost while it committed (${describe(storeError)}); read the object before retrying`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
