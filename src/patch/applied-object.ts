// Server-side apply (PATCH with application/apply-patch+yaml, handlers/patch.go applyPatcher),
// for any kind: the YAML (or JSON) body is the manager's applied configuration; the
// field-management engine merges it into the live object by the kind's schema and decides the
// managedFields (conflicts are 409, `force` takes ownership over); the merged object is then
// decoded (and defaulted) like any patched object and goes through the ordinary create or update.
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { DecodeOptions, DecodeResult, FieldValidation } from '../domain/codec/object-decoder';
import { ObjectDecodeError } from '../domain/codec/object-decode-error';
import { BadRequestError, RawServerError } from '../domain/errors/domain-errors';
import { applyConfiguration, type ManagedKind, type ManagedObject, MergeValidationError, type Subresource } from '../domain/field-management';
import { formatTime } from '../domain/service.decider';
import type { ManagedFieldsEntry } from '../domain/service.types';
import { patchedObjectInvalid } from './apply-patch';

export interface ApplyPatch {
  type: 'apply';
  body: string;
  fieldValidation: FieldValidation;
  force: boolean;
}

/** A kind as an apply endpoint serves it: its field management, and how a merged object becomes the stored form. */
export interface AppliedKind<T extends ManagedObject> {
  readonly fields: ManagedKind<T>;
  /** The merged object, in the endpoint's version, decoded as a request body is, to the stored form. */
  decode(value: unknown, opts: DecodeOptions): DecodeResult<T>;
  /** The defaulting that decoding runs (SetDefaults_*). */
  defaults(object: T): T;
}

export interface AppliedObject<T> {
  object: T;
  /** null: the apply leaves no managedFields. */
  managedFields: ManagedFieldsEntry[] | null;
  warnings: string[];
}

export interface ApplyWrite {
  manager: string;
  subresource: Subresource;
  now: Date;
  namespace: string;
  name: string;
}

/** The applied configuration: a YAML (or JSON) map, as applyPatcher reads it. */
function configuration(body: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseYaml(body, { maxAliasCount: 100, uniqueKeys: false });
  } catch (error) {
    const text = error instanceof YAMLParseError ? error.message.split('\n')[0] : String(error);
    throw new BadRequestError(`error decoding YAML: ${text}`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequestError('error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal into Go value of type map[string]interface {}');
  }
  return value as Record<string, unknown>;
}

export function appliedObject<T extends ManagedObject>(kind: AppliedKind<T>, current: T | null, patch: ApplyPatch, write: ApplyWrite): AppliedObject<T> {
  const config = configuration(patch.body);
  const { group, version, kind: kindName } = kind.fields;
  let outcome;
  try {
    outcome = applyConfiguration({ live: current ?? undefined, config, manager: write.manager, subresource: write.subresource, force: patch.force, now: formatTime(write.now) }, kind.fields);
  } catch (error) {
    // structuredmerge.go: the configuration SMD cannot type (duplicate keys) is a 500 naming the object.
    if (error instanceof MergeValidationError) {
      throw new RawServerError(`failed to create typed patch object (${write.namespace}/${write.name}; ${group}/${version}, Kind=${kindName}): ${error.message}`);
    }
    throw error;
  }
  let decoded;
  try {
    decoded = kind.decode(outcome.object, { fieldValidation: patch.fieldValidation === 'Ignore' ? 'Ignore' : 'Warn' });
  } catch (error) {
    if (error instanceof ObjectDecodeError) throw patchedObjectInvalid(JSON.stringify(outcome.object), error.decoderMessage);
    throw error;
  }
  if (patch.fieldValidation === 'Strict' && decoded.warnings.length) {
    throw patchedObjectInvalid(JSON.stringify(outcome.object), `strict decoding error: ${decoded.warnings.join(', ')}`);
  }
  const object = kind.defaults(decoded.object);
  return { object, managedFields: outcome.managedFields ?? null, warnings: patch.fieldValidation === 'Ignore' ? [] : decoded.warnings };
}
