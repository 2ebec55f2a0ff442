// The fields of a mirrored Service that svctrail's schema does not know (a newer Kubernetes
// version's, kept as the source sent them), at the levels of the object that no event carries
// whole: the object itself, its metadata, its status and status.loadBalancer. Deeper ones travel
// inside the values the events carry whole (the spec, a condition, an ingress entry, an owner
// reference, a managedFields entry). A direct write never has any: its body is decoded by the
// schema, which drops them as kube-apiserver does.
import { loadBalancerStatusSchema, objectMetaSchema, serviceSchema, serviceStatusSchema } from './codec/service-schema';
import { placeMembers, unknownMembersOf, type UnknownMember } from './codec/unknown-members';
import { sameJson } from './json-equality';
import type { Service } from './service.types';

/** Each level's unknown members in order, each after the known member it follows; a level without any is absent. */
export interface UnknownServiceFields {
  object?: UnknownMember[];
  metadata?: UnknownMember[];
  status?: UnknownMember[];
  /** status.loadBalancer */
  loadBalancer?: UnknownMember[];
}

type UnknownFieldsLevel = keyof UnknownServiceFields;

const LEVEL_PATHS: Record<UnknownFieldsLevel, string> = { object: '', metadata: 'metadata.', status: 'status.', loadBalancer: 'status.loadBalancer.' };

type Level = Record<string, unknown>;

const loadBalancerOf = (service: Service): Level | undefined => (service.status as unknown as Level | undefined)?.loadBalancer as Level | undefined;

/** The unknown members of `service`'s four levels ({} when it has none, as every direct write's object). */
export function unknownServiceFields(service: Service): UnknownServiceFields {
  const out: UnknownServiceFields = {};
  const add = (level: UnknownFieldsLevel, members: UnknownMember[]) => {
    if (members.length) out[level] = members;
  };
  add('object', unknownMembersOf(serviceSchema, service as unknown as Level));
  add('metadata', unknownMembersOf(objectMetaSchema, service.metadata as unknown as Level));
  if (service.status) {
    add('status', unknownMembersOf(serviceStatusSchema, service.status as unknown as Level));
    const loadBalancer = loadBalancerOf(service);
    if (loadBalancer) add('loadBalancer', unknownMembersOf(loadBalancerStatusSchema, loadBalancer));
  }
  return out;
}

export function hasUnknownFields(fields: UnknownServiceFields): boolean {
  return Boolean(fields.object || fields.metadata || fields.status || fields.loadBalancer);
}

/**
 * `service` with exactly `fields` as the unknown members of its four levels (any others dropped),
 * each level's known members in Go order. A new object; the levels below are shared.
 */
export function withUnknownServiceFields(service: Service, fields: UnknownServiceFields): Service {
  const source = service as unknown as Level;
  let status = service.status as unknown as Level | undefined;
  if (status) {
    const loadBalancer = loadBalancerOf(service);
    const placed = loadBalancer || fields.loadBalancer ? placeMembers(loadBalancerStatusSchema, loadBalancer ?? {}, fields.loadBalancer ?? []) : undefined;
    status = placeMembers(serviceStatusSchema, placed ? { ...status, loadBalancer: placed } : status, fields.status ?? []);
  }
  const metadata = placeMembers(objectMetaSchema, source.metadata as Level, fields.metadata ?? []);
  return placeMembers(serviceSchema, { ...source, metadata, ...(status ? { status } : {}) }, fields.object ?? []) as unknown as Service;
}

/**
 * `next`'s unknown fields when the fold cannot keep them by itself: when `old`'s, placed among
 * `next`'s known fields, are not exactly `next`'s (a value, a key or a place changed). A known
 * neighbour that comes or goes needs no event: a member keeps its slot either way.
 */
export function changedUnknownFields(old: Service, next: Service): UnknownServiceFields | undefined {
  const before = unknownServiceFields(old);
  const after = unknownServiceFields(next);
  if (sameJson(before, after)) return undefined;
  if (sameJson(withUnknownServiceFields(next, before), next)) return undefined;
  return after;
}

/** The paths of the unknown members (`status.newField`), for a reader. */
export function unknownFieldPaths(fields: UnknownServiceFields): string[] {
  return (Object.keys(LEVEL_PATHS) as UnknownFieldsLevel[]).flatMap((level) => (fields[level] ?? []).map((m) => `${LEVEL_PATHS[level]}${m.key}`));
}

/** The levels whose unknown members (their keys, values or places) differ. */
export function changedUnknownLevels(before: UnknownServiceFields, after: UnknownServiceFields): UnknownFieldsLevel[] {
  return (Object.keys(LEVEL_PATHS) as UnknownFieldsLevel[]).filter((level) => !sameJson(before[level] ?? [], after[level] ?? []));
}
