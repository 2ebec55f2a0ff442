// ObjectMeta validation: apimachinery pkg/api/validation/objectmeta.go (ValidateObjectMetaAccessor,
// ValidateObjectMetaAccessorUpdate) and the core wrappers of pkg/apis/core/validation
// (ValidateObjectMeta / ValidateObjectMetaUpdate add validateKubeFinalizerName).
import { type FieldError, fieldErrors, GoLiteral, goQuote } from '../errors/field-error';
import { type ManagedFieldsEntry, type ObjectMeta, type OwnerReference } from '../service.types';
import { GO_NULL, goStringSlice, goTimeLiteral } from './bad-values';
import { validateAnnotations, validateLabels, validateQualifiedName } from './labels.validation';
import { nameIsDNS1035Label, nameIsDNSLabel, type NameValidator } from './name-validation';
import { validateFieldManager } from './options.validation';

export interface ObjectMetaOptions {
  /** ValidateNameFunc for name / generateName (Service: NameIsDNS1035Label). */
  nameFn: NameValidator;
  /** Namespaced resources require a DNS-1123 label namespace. */
  namespaced: boolean;
}

export const SERVICE_META_OPTIONS: ObjectMetaOptions = { nameFn: nameIsDNS1035Label, namespaced: true };

const STANDARD_FINALIZERS = ['kubernetes', 'orphan', 'foregroundDeletion'];
const MAX_SUBRESOURCE_NAME_LENGTH = 256;

function goBoolPtr(value: boolean | undefined): string {
  // A real apiserver prints the pointer address here; it is not reproducible.
  return value === undefined ? '(*bool)(nil)' : `(*bool)(${value})`;
}

/** `%#v` of a metav1.OwnerReference (best effort: pointers cannot print as addresses). */
function goOwnerReference(ref: OwnerReference): string {
  return (
    `v1.OwnerReference{APIVersion:${goQuote(ref.apiVersion ?? '')}, Kind:${goQuote(ref.kind ?? '')}, ` +
    `Name:${goQuote(ref.name ?? '')}, UID:${goQuote(ref.uid ?? '')}, Controller:${goBoolPtr(ref.controller)}, ` +
    `BlockOwnerDeletion:${goBoolPtr(ref.blockOwnerDeletion)}}`
  );
}

/** validateOwnerReference: schema.FromAPIVersionAndKind splits `group/version`. */
function validateOwnerReference(ref: OwnerReference, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = ref.apiVersion ?? '';
  // schema.ParseGroupVersion: "v1" → version only; "g/v" → group + version; more slashes → empty.
  const parts = apiVersion.split('/');
  const group = parts.length === 2 ? parts[0] : '';
  const version = parts.length === 1 ? apiVersion : parts.length === 2 ? parts[1] : '';
  if (!version) errs.push(fieldErrors.invalid(`${path}.apiVersion`, apiVersion, 'version must not be empty'));
  if (!ref.kind) errs.push(fieldErrors.invalid(`${path}.kind`, ref.kind ?? '', 'kind must not be empty'));
  if (!ref.name) errs.push(fieldErrors.invalid(`${path}.name`, ref.name ?? '', 'name must not be empty'));
  if (!ref.uid) errs.push(fieldErrors.invalid(`${path}.uid`, ref.uid ?? '', 'uid must not be empty'));
  if (group === '' && version === 'v1' && ref.kind === 'Event') {
    errs.push(fieldErrors.invalid(path, new GoLiteral(goOwnerReference(ref)), '/v1, Kind=Event is disallowed from being an owner'));
  }
  return errs;
}

/** ValidateOwnerReferences: at most one controller reference. */
export function validateOwnerReferences(refs: OwnerReference[] | undefined, path = 'metadata.ownerReferences'): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    errs.push(...validateOwnerReference(ref, path));
    if (ref.controller) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController) {
        const value = new GoLiteral(`[]v1.OwnerReference{${(refs ?? []).map(goOwnerReference).join(', ')}}`);
        errs.push(fieldErrors.invalid(path, value, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

/** apimachinery ValidateFinalizers: qualified names; orphan and foregroundDeletion are exclusive. */
export function validateFinalizers(finalizers: string[] | undefined, path = 'metadata.finalizers'): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers ?? []) errs.push(...validateQualifiedName(path, f));
  if (finalizers?.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(fieldErrors.invalid(path, goStringSlice(finalizers), 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/** core validateKubeFinalizerName: an unqualified finalizer must be a standard one. */
function validateKubeFinalizerNames(finalizers: string[] | undefined): FieldError[] {
  const errs: FieldError[] = [];
  (finalizers ?? []).forEach((f, i) => {
    if (!f.includes('/') && !STANDARD_FINALIZERS.includes(f)) {
      errs.push(fieldErrors.invalid(`metadata.finalizers[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

/** v1validation.ValidateManagedFields */
export function validateManagedFields(entries: ManagedFieldsEntry[] | undefined, path = 'metadata.managedFields'): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((entry, i) => {
    const p = `${path}[${i}]`;
    if (entry.operation !== 'Apply' && entry.operation !== 'Update') {
      errs.push(fieldErrors.invalid(`${p}.operation`, entry.operation ?? '', 'must be `Apply` or `Update`'));
    }
    if (entry.fieldsType && entry.fieldsType !== 'FieldsV1') {
      errs.push(fieldErrors.invalid(`${p}.fieldsType`, entry.fieldsType, 'must be `FieldsV1`'));
    }
    errs.push(...validateFieldManager(entry.manager ?? '', `${p}.manager`));
    if (Buffer.byteLength(entry.subresource ?? '', 'utf8') > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(fieldErrors.tooLong(`${p}.subresource`, MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}

/**
 * apimachinery ValidateObjectMetaAccessor: the generic create-time check. The generic registry
 * runs it with path.ValidatePathSegmentName; resource validation runs it with its own nameFn.
 */
export function validateGenericObjectMeta(meta: ObjectMeta, opts: ObjectMetaOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const msg of opts.nameFn(meta.generateName, true)) {
      errs.push(fieldErrors.invalid('metadata.generateName', meta.generateName, msg));
    }
  }
  if (!meta.name) {
    errs.push(fieldErrors.required('metadata.name', 'name or generateName is required'));
  } else {
    for (const msg of opts.nameFn(meta.name, false)) errs.push(fieldErrors.invalid('metadata.name', meta.name, msg));
  }
  if (opts.namespaced) {
    if (!meta.namespace) errs.push(fieldErrors.required('metadata.namespace'));
    else for (const msg of nameIsDNSLabel(meta.namespace, false)) errs.push(fieldErrors.invalid('metadata.namespace', meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(fieldErrors.forbidden('metadata.namespace', 'not allowed on this type'));
  }
  const generation = meta.generation ?? 0;
  if (generation < 0) errs.push(fieldErrors.invalid('metadata.generation', generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels('metadata.labels', meta.labels));
  errs.push(...validateAnnotations('metadata.annotations', meta.annotations));
  errs.push(...validateOwnerReferences(meta.ownerReferences));
  errs.push(...validateFinalizers(meta.finalizers));
  errs.push(...validateManagedFields(meta.managedFields));
  return errs;
}

/** core ValidateObjectMeta: the generic rules plus validateKubeFinalizerName per finalizer. */
export function validateObjectMetaCreate(meta: ObjectMeta, opts: ObjectMetaOptions = SERVICE_META_OPTIONS): FieldError[] {
  return [...validateGenericObjectMeta(meta, opts), ...validateKubeFinalizerNames(meta.finalizers)];
}

function timeMs(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * apimachinery ValidateObjectMetaAccessorUpdate. Note the resourceVersion rule: the generic
 * store fills an empty resourceVersion with the stored one before validating (unconditional
 * update), so callers must pass the new meta with its resourceVersion already set.
 */
export function validateGenericObjectMetaUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp) {
    const old = new Set(oldMeta.finalizers ?? []);
    const extra = [...new Set(newMeta.finalizers ?? [])].filter((f) => !old.has(f)).sort();
    if (extra.length) {
      errs.push(fieldErrors.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra).text}`));
    }
  }
  if (!newMeta.resourceVersion) {
    errs.push(fieldErrors.invalid('metadata.resourceVersion', newMeta.resourceVersion ?? '', 'must be specified for an update'));
  }
  const newGeneration = newMeta.generation ?? 0;
  if (newGeneration < (oldMeta.generation ?? 0)) {
    errs.push(fieldErrors.invalid('metadata.generation', newGeneration, 'must not be decremented'));
  }
  const immutable = 'field is immutable';
  if ((newMeta.name ?? '') !== (oldMeta.name ?? '')) errs.push(fieldErrors.invalid('metadata.name', newMeta.name ?? '', immutable));
  if ((newMeta.namespace ?? '') !== (oldMeta.namespace ?? '')) {
    errs.push(fieldErrors.invalid('metadata.namespace', newMeta.namespace ?? '', immutable));
  }
  if ((newMeta.uid ?? '') !== (oldMeta.uid ?? '')) errs.push(fieldErrors.invalid('metadata.uid', newMeta.uid ?? '', immutable));
  if (timeMs(newMeta.creationTimestamp) !== timeMs(oldMeta.creationTimestamp)) {
    errs.push(fieldErrors.invalid('metadata.creationTimestamp', goTimeLiteral(newMeta.creationTimestamp), immutable));
  }
  if (timeMs(newMeta.deletionTimestamp) !== timeMs(oldMeta.deletionTimestamp)) {
    const value = newMeta.deletionTimestamp ? goTimeLiteral(newMeta.deletionTimestamp) : GO_NULL;
    errs.push(fieldErrors.invalid('metadata.deletionTimestamp', value, immutable));
  }
  if (newMeta.deletionGracePeriodSeconds !== oldMeta.deletionGracePeriodSeconds) {
    errs.push(fieldErrors.invalid('metadata.deletionGracePeriodSeconds', newMeta.deletionGracePeriodSeconds ?? GO_NULL, immutable));
  }
  errs.push(...validateLabels('metadata.labels', newMeta.labels));
  errs.push(...validateAnnotations('metadata.annotations', newMeta.annotations));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences));
  errs.push(...validateManagedFields(newMeta.managedFields));
  return errs;
}

/** core ValidateObjectMetaUpdate: the generic update rules plus validateKubeFinalizerName. */
export function validateObjectMetaUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta): FieldError[] {
  return [...validateGenericObjectMetaUpdate(newMeta, oldMeta), ...validateKubeFinalizerNames(newMeta.finalizers)];
}
