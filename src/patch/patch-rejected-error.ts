// A patch that could not be applied, answered as kube-apiserver does with
// errors.NewGenericServerResponse(422, "", GroupResource{}, "", err.Error(), 0, false):
// reason Invalid, a fixed message, an allocated-but-empty details (`"details":{}`), and the
// underlying error text dropped (isUnexpectedResponse=false adds no cause).
import { DomainError } from '../domain/errors/domain-errors';

export const PATCH_REJECTED_MESSAGE = 'the server rejected our request due to an error in our request';

export class PatchRejectedError extends DomainError {
  readonly reason = 'Invalid';
  constructor(
    /** The upstream error text, for logs only: it never reaches the client. */
    readonly patchError: string,
  ) {
    super(PATCH_REJECTED_MESSAGE, {});
  }
}
