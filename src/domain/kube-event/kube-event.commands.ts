// What a client asks of the Events API, as pure commands (the decider's input).
import type { EventApiVersion, KubeEvent } from './kube-event.types';

/** POST: a new Event (core/v1 or events.k8s.io/v1, already converted to core/v1). */
export interface CreateKubeEvent {
  kind: 'CreateKubeEvent';
  namespace: string;
  object: KubeEvent;
  api: EventApiVersion;
  /** The name was drawn from metadata.generateName (a collision is then retried). */
  nameGenerated?: boolean;
}

/** PUT, or the patched object of a PATCH: the whole Event after the write. */
export interface ReplaceKubeEvent {
  kind: 'ReplaceKubeEvent';
  namespace: string;
  name: string;
  object: KubeEvent;
  api: EventApiVersion;
  /** A PATCH never creates: a missing Event is 404 (handlers/patch.go createNewObject). */
  patch?: boolean;
}

export interface DeleteKubeEvent {
  kind: 'DeleteKubeEvent';
  namespace: string;
  name: string;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** The TTL of the write at `resourceVersion` ran out: the Event ends unless a later write renewed it. */
export interface ExpireKubeEvent {
  kind: 'ExpireKubeEvent';
  namespace: string;
  name: string;
  resourceVersion: string;
}
