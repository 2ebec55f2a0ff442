import type { Service } from '../domain/service.types';

/** What a write answers: the object to return and whether it was created (HTTP 201). */
export interface WriteResult {
  object: Service;
  created: boolean;
  /** `object`'s JSON when the commit already encoded it (the stored text). */
  json?: string;
}

/** Who is writing and how; the request layer fills it, the log records it. */
export interface WriteRequestContext {
  user: string;
  groups: string[];
  userAgent: string;
  fieldManager: string;
  requestId: string;
  dryRun: boolean;
}
