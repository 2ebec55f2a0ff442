// diffService(old, next): the events that turn the stored object into the next one. The fold of
// these events onto `old` must equal `next` exactly (checked by service-diff.spec and the
// decider property test).
import { diffConditions } from './status-diff';
import { MUTABLE_METADATA_KEYS, MutableMetadata, ServiceEvent } from './service.events';
import type { Service } from './service.types';
import { jsonCopy } from './json-copy';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function mutableMetadataOf(service: Service): MutableMetadata {
  const out: Record<string, unknown> = {};
  for (const key of MUTABLE_METADATA_KEYS) {
    if (service.metadata[key] !== undefined) out[key] = jsonCopy(service.metadata[key]);
  }
  return out as MutableMetadata;
}

/** Both objects must be canonical (encoded); deletion fields are handled by the decider. */
export function diffService(old: Service, next: Service): ServiceEvent[] {
  const events: ServiceEvent[] = [];
  const nextMeta = mutableMetadataOf(next);
  if (!same(mutableMetadataOf(old), nextMeta)) events.push({ type: 'ServiceMetadataChanged', data: { metadata: nextMeta } });
  if (!same(old.spec, next.spec)) events.push({ type: 'ServiceSpecChanged', data: { spec: jsonCopy(next.spec) } });
  const oldIngress = old.status.loadBalancer?.ingress ?? [];
  const nextIngress = next.status.loadBalancer?.ingress ?? [];
  if (!same(oldIngress, nextIngress)) {
    events.push({
      type: 'LoadBalancerIngressChanged',
      data: { ingress: jsonCopy(nextIngress), previous: jsonCopy(oldIngress) },
    });
  }
  events.push(...diffConditions(old.status.conditions ?? [], next.status.conditions ?? []));
  if (!same(old.metadata.managedFields, next.metadata.managedFields)) {
    events.push({ type: 'ServiceManagedFieldsChanged', data: { managedFields: jsonCopy(next.metadata.managedFields ?? []) } });
  }
  return events;
}
