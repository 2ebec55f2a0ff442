// Typed errors thrown by pure code. They carry the Kubernetes meaning (reason, details) but no
// HTTP: the kube-api layer maps each class to a metav1.Status in one place.
import { aggregateMessage, type FieldError } from './field-error';

export interface ErrorDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: { reason?: string; message?: string; field?: string }[];
  retryAfterSeconds?: number;
}

export abstract class DomainError extends Error {
  abstract readonly reason: string;
  constructor(
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * schema.GroupResource, for a resource outside the core group: messages name it
 * `events.events.k8s.io`, details carry the group and the resource apart (as kind).
 */
export interface GroupResource {
  group: string;
  resource: string;
}

/** A plain string is a core-group resource (or a kind, as BeforeDelete's conflicts name it). */
type Qualified = string | GroupResource;

const qualifiedName = (q: Qualified): string => (typeof q === 'string' ? q : q.group ? `${q.resource}.${q.group}` : q.resource);
const qualifiedDetails = (q: Qualified): { group?: string; kind: string } => (typeof q === 'string' ? { kind: q } : { ...(q.group ? { group: q.group } : {}), kind: q.resource });

/** `services "web" not found` */
export class NotFoundError extends DomainError {
  readonly reason = 'NotFound';
  constructor(resource: string, name: string, group?: string) {
    super(`${group ? `${resource}.${group}` : resource} "${name}" not found`, { name, ...(group ? { group } : {}), kind: resource });
  }
}

/** `services "web" already exists` (`events.events.k8s.io "x" already exists`) */
export class AlreadyExistsError extends DomainError {
  readonly reason = 'AlreadyExists';
  constructor(resource: Qualified, name: string, message?: string, retryAfterSeconds?: number) {
    super(message ?? `${qualifiedName(resource)} "${name}" already exists`, {
      name,
      ...qualifiedDetails(resource),
      ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
    });
  }

  /** errors.NewGenerateNameConflict: the name drawn from generateName was taken. */
  static generateNameConflict(resource: Qualified, name: string): AlreadyExistsError {
    return new AlreadyExistsError(resource, name, `${qualifiedName(resource)} "${name}" already exists, the server was not able to generate a unique name for the object`, 1);
  }
}

/** 409 Conflict, e.g. a stale resourceVersion or a failed uid precondition. */
export class ConflictError extends DomainError {
  readonly reason = 'Conflict';
  constructor(resourceOrKind: Qualified, name: string, detail: string) {
    super(`Operation cannot be fulfilled on ${qualifiedName(resourceOrKind)} "${name}": ${detail}`, { name, ...qualifiedDetails(resourceOrKind) });
  }
  static staleResourceVersion(resource: Qualified, name: string): ConflictError {
    return new ConflictError(resource, name, 'the object has been modified; please apply your changes to the latest version and try again');
  }
}

/** 422 Invalid: `Service "web" is invalid: <aggregate>` with one cause per field error. */
export class InvalidError extends DomainError {
  readonly reason = 'Invalid';
  constructor(
    kind: string,
    name: string,
    readonly fieldErrors: readonly FieldError[],
    group?: string,
  ) {
    super(`${group ? `${kind}.${group}` : kind} ${JSON.stringify(name)} is invalid: ${aggregateMessage(fieldErrors)}`, {
      name: name || undefined,
      ...(group ? { group } : {}),
      kind,
      causes: fieldErrors.map((e) => ({ reason: e.reason, message: e.message, field: e.field })),
    });
  }
}

/** 400 BadRequest: malformed input that never reached validation. */
export class BadRequestError extends DomainError {
  readonly reason = 'BadRequest';
  constructor(message: string) {
    super(message);
  }
}

/** 410 Expired: a resourceVersion or continue token older than what is kept. */
export class ExpiredError extends DomainError {
  readonly reason = 'Expired';
  constructor(
    message: string,
    /** A LIST's continue token to carry on from, inconsistently (the Status's metadata.continue). */
    readonly continueToken?: string,
  ) {
    super(message);
  }
}

/**
 * 410 for a read below the history's compaction horizon, in the watch cache's words
 * (apiserver pkg/storage/cacher/watch_cache.go): `too old resource version: 5 (120)`.
 */
export function tooOldResourceVersion(resourceVersion: number, horizon: number): ExpiredError {
  return new ExpiredError(`too old resource version: ${resourceVersion} (${horizon})`);
}

/** 410 for LIST resourceVersionMatch=Exact below the horizon, as etcd3's store says it (apiserver pkg/storage/etcd3/errors.go). */
export const EXPIRED_LIST = 'The resourceVersion for the provided list is too old.';

/**
 * 410 for a LIST continue token whose snapshot is below the horizon (etcd3 errors.go's
 * inconsistentContinue), sent with a token that continues from the same key at the newest state.
 */
export const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** 500 InternalError: `Internal error occurred: <err>`. */
export class InternalServerError extends DomainError {
  readonly reason = 'InternalError';
  constructor(detail: string) {
    super(`Internal error occurred: ${detail}`, { causes: [{ message: detail }] });
  }
}

/** A raw (non-status) error that kube-apiserver returns as a reason-less 500 with the raw text. */
export class RawServerError extends DomainError {
  readonly reason = '';
  constructor(message: string) {
    super(message);
  }
}

/**
 * 504 Timeout for a resourceVersion newer than the log: kube-apiserver waits for it briefly,
 * then answers storage.NewTooLargeResourceVersionError.
 */
export class TooLargeResourceVersionError extends DomainError {
  readonly reason = 'Timeout';
  constructor(requested: number, current: number) {
    super(`Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    });
  }
}
