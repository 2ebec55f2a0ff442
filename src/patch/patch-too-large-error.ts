// 413 for a JSON patch with too many operations: errors.NewRequestEntityTooLargeError
// (handlers/patch.go, maxJSONPatchOperations = 10000). No details.
import { DomainError } from '../domain/errors/domain-errors';

export const MAX_JSON_PATCH_OPERATIONS = 10000;

export class PatchTooLargeError extends DomainError {
  readonly reason = 'RequestEntityTooLarge';
  constructor(operations: number) {
    super(`Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${operations}`);
  }
}
