// A parsed JSON document that keeps what JSON.parse throws away and Go's decoder still sees:
// every number's literal text (so `1.5`, `1e400` or `2147483648` can be reported the way
// encoding/json reports them) and every object member in order, duplicates included.
// Object members live in an array, never as JS properties, so `__proto__` is ordinary data.

export interface JsonNull {
  readonly kind: 'null';
}
export interface JsonBool {
  readonly kind: 'bool';
  readonly value: boolean;
}
export interface JsonNumber {
  readonly kind: 'number';
  /** The literal as written, e.g. `-0`, `1.50`, `1e400`. */
  readonly text: string;
}
export interface JsonString {
  readonly kind: 'string';
  readonly value: string;
}
export interface JsonArray {
  readonly kind: 'array';
  readonly items: readonly JsonValue[];
}
export interface JsonMember {
  readonly key: string;
  readonly value: JsonValue;
}
export interface JsonObject {
  readonly kind: 'object';
  /** Members in document order; a repeated key appears once per occurrence. */
  readonly members: readonly JsonMember[];
}

export type JsonValue = JsonNull | JsonBool | JsonNumber | JsonString | JsonArray | JsonObject;

/** Go's encoding/json names JSON kinds this way in UnmarshalTypeError ("string", "object", ...). */
export function jsonKindName(value: JsonValue): string {
  switch (value.kind) {
    case 'bool':
      return 'bool';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'array':
      return 'array';
    case 'object':
      return 'object';
    case 'null':
      return 'null';
  }
}

/**
 * Converts to plain JS data the way Go decodes into `interface{}`: the last duplicate wins,
 * objects get a null prototype (no prototype pollution), numbers become JS numbers.
 */
export function toPlainJson(value: JsonValue): unknown {
  switch (value.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'string':
      return value.value;
    case 'number':
      return Number(value.text);
    case 'array':
      return value.items.map(toPlainJson);
    case 'object': {
      const out: Record<string, unknown> = Object.create(null);
      for (const m of value.members) out[m.key] = toPlainJson(m.value);
      return out;
    }
  }
}

/**
 * The inverse for already-parsed JS values (e.g. the result of a merge patch). Object keys keep
 * their insertion order; numbers are written the way Go's encoder would write them.
 * `undefined` properties are skipped, as JSON.stringify does.
 */
export function fromPlainJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return { kind: 'null' };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) return { kind: 'null' };
    return { kind: 'number', text: String(value) };
  }
  if (Array.isArray(value)) return { kind: 'array', items: value.map(fromPlainJson) };
  if (typeof value === 'object') {
    const members: JsonMember[] = [];
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined || typeof v === 'function') continue;
      members.push({ key, value: fromPlainJson(v) });
    }
    return { kind: 'object', members };
  }
  return { kind: 'null' };
}
