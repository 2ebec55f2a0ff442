// metav1.Status bodies, with the key order and omitempty rules of the Go struct
// (apimachinery pkg/apis/meta/v1/types.go), and the one table from error to HTTP code.
import {
  AlreadyExistsError,
  BadRequestError,
  ConflictError,
  DomainError,
  type ErrorDetails,
  ExpiredError,
  InternalServerError,
  InvalidError,
  NotFoundError,
  RawServerError,
  TooLargeResourceVersionError,
} from '../domain/errors/domain-errors';
import { ApplyConflictError } from '../domain/field-management';
import { PatchRejectedError } from '../patch/patch-rejected-error';
import { PatchTooLargeError } from '../patch/patch-too-large-error';
import { ApiError } from './api-errors';

export interface KubeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  /** ListMeta: only a 410's continue token is ever set. */
  metadata: { continue?: string };
  status?: string;
  message?: string;
  reason?: string;
  details?: ErrorDetails;
  code?: number;
}

const CODES: [new (...args: never[]) => DomainError, number][] = [
  [NotFoundError, 404],
  [AlreadyExistsError, 409],
  [ConflictError, 409],
  [InvalidError, 422],
  [BadRequestError, 400],
  [ExpiredError, 410],
  [TooLargeResourceVersionError, 504],
  [PatchRejectedError, 422],
  [ApplyConflictError, 409],
  [PatchTooLargeError, 413],
  [InternalServerError, 500],
  [RawServerError, 500],
];

function orderedDetails(details: ErrorDetails): ErrorDetails {
  const out: ErrorDetails = {};
  if (details.name) out.name = details.name;
  if (details.group) out.group = details.group;
  if (details.kind) out.kind = details.kind;
  if (details.uid) out.uid = details.uid;
  if (details.causes?.length) {
    out.causes = details.causes.map((c) => {
      const cause: { reason?: string; message?: string; field?: string } = {};
      if (c.reason) cause.reason = c.reason;
      if (c.message) cause.message = c.message;
      if (c.field) cause.field = c.field;
      return cause;
    });
  }
  if (details.retryAfterSeconds) out.retryAfterSeconds = details.retryAfterSeconds;
  return out;
}

export function failureStatus(code: number, message: string, reason?: string, details?: ErrorDetails): KubeStatus {
  const status: KubeStatus = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
  if (message) status.message = message;
  if (reason) status.reason = reason;
  if (details) status.details = orderedDetails(details);
  status.code = code;
  return status;
}

/** Maps a typed error to its Status, or undefined for errors that are not ours (→ 500). */
export function statusForError(error: unknown): KubeStatus | undefined {
  if (error instanceof ApiError) return failureStatus(error.code, error.message, error.reason, error.details);
  if (!(error instanceof DomainError)) return undefined;
  const entry = CODES.find(([type]) => error instanceof type);
  const code = entry ? entry[1] : 500;
  const status = failureStatus(code, error.message, error.reason || undefined, error.details);
  if (error instanceof ExpiredError && error.continueToken) status.metadata = { continue: error.continueToken };
  return status;
}

export function internalErrorStatus(detail: string): KubeStatus {
  return failureStatus(500, `Internal error occurred: ${detail}`, 'InternalError', { causes: [{ message: detail }] });
}
