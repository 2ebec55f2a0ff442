// The reflection view strategicpatch has of a Go type (forkedjson.LookupPatchMetadata): for a
// struct, each json field's type plus its `patchStrategy`/`patchMergeKey` tags; for a map, its
// element type. Built from the codec's StructSchema plus a per-struct table of patch tags, so
// another kind only needs its StructSchema and its tags.
import { type GoType, type StructSchema } from '../domain/codec/go-schema';
import { eventSchema } from '../domain/codec/event-schema';
import { eventsV1EventSchema } from '../domain/codec/events-v1-event-schema';
import { serviceSchema } from '../domain/codec/service-schema';

export type SmpType =
  | { readonly kind: 'struct'; readonly name: string; readonly fields: ReadonlyMap<string, SmpField> }
  | { readonly kind: 'map'; readonly elem: SmpType }
  | { readonly kind: 'slice'; readonly elem: SmpType }
  /** reflect.Kind name: string, bool, int32, int64. */
  | { readonly kind: 'scalar'; readonly goKind: string };

export interface SmpField {
  readonly type: SmpType;
  /** strings.Split(tag `patchStrategy`, ","): `[""]` when the tag is absent. */
  readonly strategies: readonly string[];
  /** tag `patchMergeKey`, "" when absent. */
  readonly mergeKey: string;
}

export interface PatchTag {
  readonly patchStrategy: string;
  readonly patchMergeKey?: string;
}

/** Patch tags by Go struct name (reflect.Type.Name()) and json field name. */
export type PatchTags = Readonly<Record<string, Readonly<Record<string, PatchTag>>>>;

/** Go types with custom JSON: structs to reflection, but with no json-tagged fields to look up. */
const OPAQUE_STRUCTS: Readonly<Record<string, string>> = { intOrString: 'IntOrString', time: 'Time', rawJson: 'FieldsV1' };

function toSmpType(type: GoType, tags: PatchTags, seen: Map<StructSchema, SmpType>): SmpType {
  switch (type.kind) {
    case 'string':
      return { kind: 'scalar', goKind: 'string' };
    case 'bool':
      return { kind: 'scalar', goKind: 'bool' };
    case 'int':
      return { kind: 'scalar', goKind: type.bits === 32 ? 'int32' : 'int64' };
    case 'stringMap':
      return { kind: 'map', elem: { kind: 'scalar', goKind: 'string' } };
    case 'stringListMap':
      return { kind: 'map', elem: { kind: 'slice', elem: { kind: 'scalar', goKind: 'string' } } };
    case 'slice':
      return { kind: 'slice', elem: toSmpType(type.elem, tags, seen) };
    case 'struct':
      return smpStruct(type.struct, tags, seen);
    default:
      return { kind: 'struct', name: OPAQUE_STRUCTS[type.kind], fields: new Map() };
  }
}

function smpStruct(schema: StructSchema, tags: PatchTags, seen: Map<StructSchema, SmpType>): SmpType {
  const cached = seen.get(schema);
  if (cached) return cached;
  const fields = new Map<string, SmpField>();
  const type: SmpType = { kind: 'struct', name: schema.name, fields };
  seen.set(schema, type);
  for (const f of schema.fields) {
    const tag = tags[schema.name]?.[f.json];
    fields.set(f.json, {
      type: toSmpType(f.type, tags, seen),
      strategies: (tag?.patchStrategy ?? '').split(','),
      mergeKey: tag?.patchMergeKey ?? '',
    });
  }
  return type;
}

/** The SMP schema of a kind: its StructSchema annotated with its patch tags. */
export function patchSchemaOf(schema: StructSchema, tags: PatchTags): SmpType {
  return smpStruct(schema, tags, new Map());
}

/** core/v1 and meta/v1 patch tags reachable from Service (kubernetes/api v0.32 types.go). */
export const servicePatchTags: PatchTags = {
  ObjectMeta: {
    finalizers: { patchStrategy: 'merge' },
    ownerReferences: { patchStrategy: 'merge', patchMergeKey: 'uid' },
  },
  ServiceSpec: {
    ports: { patchStrategy: 'merge', patchMergeKey: 'port' },
  },
  ServiceStatus: {
    conditions: { patchStrategy: 'merge', patchMergeKey: 'type' },
  },
};

export const servicePatchSchema: SmpType = patchSchemaOf(serviceSchema, servicePatchTags);

/** core/v1 Event has no patch tags of its own: only ObjectMeta's lists merge. */
export const kubeEventPatchSchema: SmpType = patchSchemaOf(eventSchema, { ObjectMeta: servicePatchTags.ObjectMeta });

/** events.k8s.io/v1 Event has none either (kubernetes/api events/v1/types.go). */
export const eventsV1EventPatchSchema: SmpType = patchSchemaOf(eventsV1EventSchema, { ObjectMeta: servicePatchTags.ObjectMeta });
