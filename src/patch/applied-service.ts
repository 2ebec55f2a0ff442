// Server-side apply (PATCH with application/apply-patch+yaml, handlers/patch.go applyPatcher):
// the YAML (or JSON) body is the manager's applied configuration; the field-management engine
// merges it into the live object by the Service schema and decides the managedFields (conflicts
// are 409, `force` takes ownership over); the merged object is then decoded and defaulted like any
// patched object and goes through the ordinary create or update.
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { decodeServiceValue, type FieldValidation } from '../domain/codec/service-decoder';
import { ObjectDecodeError } from '../domain/codec/object-decode-error';
import { BadRequestError, RawServerError } from '../domain/errors/domain-errors';
import { applyConfiguration, MergeValidationError } from '../domain/field-management';
import type { Subresource } from '../domain/field-management';
import { formatTime } from '../domain/service.decider';
import { applyServiceDefaults } from '../domain/service-defaults';
import type { ManagedFieldsEntry, Service } from '../domain/service.types';
import { patchedObjectInvalid } from './apply-patch';

export interface ApplyPatch {
  type: 'apply';
  body: string;
  fieldValidation: FieldValidation;
  force: boolean;
}

export interface AppliedService {
  object: Service;
  managedFields: ManagedFieldsEntry[] | null;
  warnings: string[];
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

export function appliedService(current: Service | null, patch: ApplyPatch, write: { manager: string; subresource: Subresource; now: Date; namespace: string; name: string }): AppliedService {
  const config = configuration(patch.body);
  let outcome;
  try {
    outcome = applyConfiguration({
      live: current ?? undefined,
      config,
      manager: write.manager,
      subresource: write.subresource,
      force: patch.force,
      now: formatTime(write.now),
    });
  } catch (error) {
    if (error instanceof MergeValidationError) {
      throw new RawServerError(`failed to create typed patch object (${write.namespace}/${write.name}; /v1, Kind=Service): ${error.message}`);
    }
    throw error;
  }
  let decoded;
  try {
    decoded = decodeServiceValue(outcome.object, { fieldValidation: patch.fieldValidation === 'Ignore' ? 'Ignore' : 'Warn' });
  } catch (error) {
    if (error instanceof ObjectDecodeError) throw patchedObjectInvalid(JSON.stringify(outcome.object), error.decoderMessage);
    throw error;
  }
  if (patch.fieldValidation === 'Strict' && decoded.warnings.length) {
    throw patchedObjectInvalid(JSON.stringify(outcome.object), `strict decoding error: ${decoded.warnings.join(', ')}`);
  }
  const object = applyServiceDefaults(decoded.object);
  return { object, managedFields: outcome.managedFields ?? null, warnings: patch.fieldValidation === 'Ignore' ? [] : decoded.warnings };
}
