// Identifier factories, injectable so tests can make them deterministic.
import { randomUUID } from 'node:crypto';

export const ID_FACTORY = Symbol('ID_FACTORY');

export interface IdFactory {
  /** metadata.uid: a random UUID, as kube-apiserver uses. */
  newUid(): string;
  /** Per-request id recorded with events. */
  newRequestId(): string;
  /** Uniform number in [0, 1) for allocation and generateName. */
  random(): number;
}

export const randomIds: IdFactory = {
  newUid: () => randomUUID(),
  newRequestId: () => randomUUID(),
  random: () => Math.random(),
};
