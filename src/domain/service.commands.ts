// Write intents, already decoded and defaulted by the API layer. Imperative names.
import type { ManagedFieldsEntry, Service } from './service.types';

/**
 * Field ownership a server-side apply has already decided (its entries, or null for none): the
 * decider stores it instead of recording the write as an Update.
 */
export interface AppliedOwnership {
  appliedManagedFields?: ManagedFieldsEntry[] | null;
}

export interface CreateService extends AppliedOwnership {
  kind: 'CreateService';
  namespace: string;
  object: Service;
  /** The name was generated from metadata.generateName (changes the AlreadyExists message). */
  nameGenerated?: boolean;
}

/** PUT on the main resource; creates when the object does not exist (AllowCreateOnUpdate). */
export interface ReplaceService extends AppliedOwnership {
  kind: 'ReplaceService';
  namespace: string;
  name: string;
  object: Service;
}

/** PUT on /status: only metadata and status are taken from the object. */
export interface ReplaceServiceStatus extends AppliedOwnership {
  kind: 'ReplaceServiceStatus';
  namespace: string;
  name: string;
  object: Service;
}

export interface DeletePreconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface DeleteService {
  kind: 'DeleteService';
  namespace: string;
  name: string;
  preconditions?: DeletePreconditions;
  propagationPolicy?: string;
}

export type ServiceCommand = CreateService | ReplaceService | ReplaceServiceStatus | DeleteService;
