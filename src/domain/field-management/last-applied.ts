// The client-side → server-side apply upgrade for manager `kubectl`
// (apimachinery managedfields/internal lastappliedmanager.go, lastappliedupdater.go): fields
// that `kubectl apply` set last time (its last-applied-configuration annotation) and that still
// hold those values may be taken over without a conflict, and the annotation follows the
// server-side applied configuration afterwards.
import { type FieldSet } from './field-set';
import { goJsonMarshal, isJsonMap } from './go-json';
import { type ManagedKind, type ManagedObject } from './managed-kind';
import { compareObjects } from './object-comparison';
import { toFieldSet } from './to-field-set';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** apimachinery TotalAnnotationSizeLimitB. */
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** The fields the annotation says kubectl applied and the live object still has; undefined when unusable. */
export function allowedConflictsFromLastApplied(live: ManagedObject | undefined, liveValue: Record<string, unknown>, kind: ManagedKind<ManagedObject>): FieldSet | undefined {
  const text = live?.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  if (!text) return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(text);
  } catch {
    return undefined;
  }
  // The annotation is typed by its own apiVersion, which must be the endpoint's.
  if (!isJsonMap(lastApplied) || lastApplied.apiVersion !== kind.apiVersion) return undefined;
  const set = toFieldSet(lastApplied, kind.mergeType);
  const c = compareObjects(lastApplied, liveValue, kind.mergeType);
  return set.difference(c.modified).difference(c.added).difference(c.removed);
}

/** buildLastApplied: the configuration without the annotation itself, as unstructured JSON + "\n". */
export function lastAppliedValue(config: Record<string, unknown>): string {
  const copy: Record<string, unknown> = { ...config };
  if (isJsonMap(config.metadata)) {
    const metadata: Record<string, unknown> = { ...config.metadata };
    if (isJsonMap(metadata.annotations)) {
      const annotations = { ...metadata.annotations };
      delete annotations[LAST_APPLIED_ANNOTATION];
      metadata.annotations = annotations;
    }
    copy.metadata = metadata;
  }
  return goJsonMarshal(copy) + '\n';
}

/** After a successful `kubectl` apply, keep an existing annotation in step with the applied config. */
export function syncLastApplied(object: Record<string, unknown>, config: Record<string, unknown>): Record<string, unknown> {
  const metadata = isJsonMap(object.metadata) ? object.metadata : undefined;
  const annotations = metadata && isJsonMap(metadata.annotations) ? (metadata.annotations as Record<string, string>) : undefined;
  if (!annotations || !annotations[LAST_APPLIED_ANNOTATION]) return object;
  const next: Record<string, string> = { ...annotations, [LAST_APPLIED_ANNOTATION]: lastAppliedValue(config) };
  let size = 0;
  for (const [k, v] of Object.entries(next)) size += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(String(v), 'utf8');
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete next[LAST_APPLIED_ANNOTATION];
  return { ...object, metadata: { ...metadata, annotations: next } };
}
