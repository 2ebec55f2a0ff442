// diffService(old, next): the events that turn the stored object into the next one. The fold of
// these events onto `old` must equal `next` exactly (checked by service-diff.spec and the
// decider property test).
import { diffConditions } from './status-diff';
import { MUTABLE_METADATA_KEYS, type MutableMetadata, type ServiceEvent } from './service.events';
import type { Service } from './service.types';
import { changedUnknownFields } from './service-unknown-fields';
import { jsonCopy } from './json-copy';
import { sameJson } from './json-equality';

const same = (a: unknown, b: unknown): boolean => sameJson(a ?? null, b ?? null);

/** The metadata an update may change, as a copy (what the event records). */
function mutableMetadataOf(service: Service): MutableMetadata {
  return jsonCopy(mutableMetadataView(service));
}

/** The same keys, sharing the object's values: for comparing, which needs no copy. */
function mutableMetadataView(service: Service): MutableMetadata {
  const out: Record<string, unknown> = {};
  for (const key of MUTABLE_METADATA_KEYS) {
    if (service.metadata[key] !== undefined) out[key] = service.metadata[key];
  }
  return out;
}

/** Both objects must be canonical (encoded); deletion fields are handled by the decider. */
export function diffService(old: Service, next: Service): ServiceEvent[] {
  const events: ServiceEvent[] = [];
  if (!same(mutableMetadataView(old), mutableMetadataView(next))) events.push({ type: 'ServiceMetadataChanged', data: { metadata: mutableMetadataOf(next) } });
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
  // Fields svctrail does not know (a mirrored newer version's), or their places, changed.
  const unknown = changedUnknownFields(old, next);
  if (unknown) events.push({ type: 'ServiceUnknownFieldsChanged', data: { fields: jsonCopy(unknown) } });
  return events;
}
