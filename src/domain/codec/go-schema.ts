// The vocabulary of a declarative Go struct schema: enough of Go's type system to decode JSON
// the way encoding/json (sigs.k8s.io/json) does and to encode it back with Go's omitempty rules.

/** A Go type as the JSON codec sees it. `goName` is reflect.Type.String(), used in error texts. */
export type GoType =
  | { readonly kind: 'string'; readonly goName: string }
  | { readonly kind: 'bool' }
  | { readonly kind: 'int'; readonly bits: 32 | 64 }
  | { readonly kind: 'stringMap' }
  /** map[string]X where X is a named []string (authentication/v1 ExtraValue); `valueGoName` is X. */
  | { readonly kind: 'stringListMap'; readonly valueGoName: string }
  | { readonly kind: 'slice'; readonly elem: GoType }
  | { readonly kind: 'struct'; readonly struct: StructSchema }
  /** intstr.IntOrString: custom UnmarshalJSON, a struct (so omitempty never omits it). */
  | { readonly kind: 'intOrString' }
  /**
   * metav1.Time: custom (Un)MarshalJSON, a struct (never omitted), zero renders as null.
   * `micro` marks metav1.MicroTime (JSON with microseconds; protobuf keeps the nanoseconds).
   */
  | { readonly kind: 'time'; readonly micro?: boolean }
  /** metav1.FieldsV1: custom UnmarshalJSON that keeps any JSON value verbatim. */
  | { readonly kind: 'rawJson' };

export interface FieldSchema {
  /** JSON key (the json tag name). */
  readonly json: string;
  /** Go field name, for documentation. */
  readonly goField: string;
  readonly type: GoType;
  readonly omitempty: boolean;
  /** A pointer field: nil is omitted, but a pointer to a zero value is kept (`"appProtocol":""`). */
  readonly pointer: boolean;
}

export interface StructSchema {
  /** reflect.Type.Name(), the `Struct` of UnmarshalTypeError (e.g. `ServicePort`). */
  readonly name: string;
  /** reflect.Type.String() (e.g. `v1.ServicePort`). */
  readonly goName: string;
  /** Fields in Go struct order, which is the encoder's key order. */
  readonly fields: readonly FieldSchema[];
}

/** reflect.Type.String() of a schema type. */
export function goTypeName(type: GoType): string {
  switch (type.kind) {
    case 'string':
      return type.goName;
    case 'bool':
      return 'bool';
    case 'int':
      return type.bits === 32 ? 'int32' : 'int64';
    case 'stringMap':
      return 'map[string]string';
    case 'stringListMap':
      return `map[string]${type.valueGoName}`;
    case 'slice':
      return '[]' + goTypeName(type.elem);
    case 'struct':
      return type.struct.goName;
    case 'intOrString':
      return 'intstr.IntOrString';
    case 'time':
      return type.micro ? 'v1.MicroTime' : 'v1.Time';
    case 'rawJson':
      return 'v1.FieldsV1';
  }
}

export const goString = (goName = 'string'): GoType => ({ kind: 'string', goName });
export const goBool: GoType = { kind: 'bool' };
export const goInt32: GoType = { kind: 'int', bits: 32 };
export const goInt64: GoType = { kind: 'int', bits: 64 };
export const goStringMap: GoType = { kind: 'stringMap' };
export const goStringListMap = (valueGoName: string): GoType => ({ kind: 'stringListMap', valueGoName });
export const goSliceOf = (elem: GoType): GoType => ({ kind: 'slice', elem });
export const goStruct = (struct: StructSchema): GoType => ({ kind: 'struct', struct });
export const goIntOrString: GoType = { kind: 'intOrString' };
export const goTime: GoType = { kind: 'time' };
export const goMicroTime: GoType = { kind: 'time', micro: true };
export const goRawJson: GoType = { kind: 'rawJson' };

/** Field helper: `field('name', 'Name', goString(), { omitempty: true })`. */
export function field(json: string, goField: string, type: GoType, opts: { omitempty?: boolean; pointer?: boolean } = {}): FieldSchema {
  return { json, goField, type, omitempty: opts.omitempty ?? false, pointer: opts.pointer ?? false };
}
