import { ConflictError } from '../../domain/errors/domain-errors';

/**
 * Another write got to the stream first: a 409 Conflict, as kube-apiserver answers when etcd's
 * compare-and-swap on the object's revision fails (storage.NewResourceVersionConflictsError).
 */
export class StreamVersionConflictError extends ConflictError {
  constructor(name: string) {
    super('services', name, 'the object has been modified; please apply your changes to the latest version and try again');
  }
}
