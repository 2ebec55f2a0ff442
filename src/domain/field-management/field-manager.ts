// The managedFields engine: what kube-apiserver's field manager chain (apimachinery
// pkg/util/managedfields/internal: versioncheck → lastappliedupdater → lastappliedmanager →
// skipnonapplied → capmanagers → buildmanagerinfo → managedfieldsupdater → stripmeta →
// structuredmerge) does on every write, as pure functions over a kind's descriptor
// (managed-kind.ts). Service callers may leave the kind out: the engine was the Service's first.
import { BadRequestError, InternalServerError } from '../errors/domain-errors';
import { type ManagedFieldsEntry, type Service } from '../service.types';
import { ApplyConflictError, type FieldConflict } from './apply-conflict.error';
import { FieldConflicts, type ManagerSets, recordApply, recordUpdate, type UpdaterContext } from './field-updater';
import { compareGoStrings } from '../go-string-order';
import { isJsonMap } from './go-json';
import { allowedConflictsFromLastApplied, syncLastApplied } from './last-applied';
import { copyManagedState, decodeManagedFields, emptyManagedState, encodeManagedFields, isResetManagedFields, type ManagedState, managerIdentifier, unixSeconds } from './managed-fields-codec';
import { type ManagedKind, type ManagedObject, type Subresource } from './managed-kind';
import { SERVICE_MANAGED_KIND } from './service-managed-kind';

export type { Subresource } from './managed-kind';
export { comparableService } from './service-managed-kind';

/** DefaultMaxUpdateManagers: more Update entries than this are merged into `ancient-changes`. */
export const MAX_UPDATE_MANAGERS = 10;

function context(kind: ManagedKind<ManagedObject>, subresource: Subresource): UpdaterContext {
  return { type: kind.mergeType, apiVersion: kind.apiVersion, resetFields: kind.resetFields(subresource) };
}

/** The fieldManager, else the User-Agent up to the first `/`, printable runes only, ≤128 bytes. */
export function managerName(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  let out = '';
  for (const ch of (userAgent ?? '').split('/')[0]) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) continue;
    if (Buffer.byteLength(out, 'utf8') >= 128) break;
    out += ch;
  }
  return out;
}

function stripUntracked(sets: ManagerSets, manager: string, kind: ManagedKind<ManagedObject>): void {
  const ms = sets.get(manager);
  if (!ms) return;
  const set = ms.set.difference(kind.untrackedFields);
  if (set.isEmpty()) sets.delete(manager);
  else sets.set(manager, { ...ms, set });
}

/** capmanagers.go: merges the oldest Update entries into versioned `ancient-changes` buckets. */
export function capUpdateManagers(state: ManagedState, max = MAX_UPDATE_MANAGERS): ManagedState {
  const updaters = [...state.sets.entries()].filter(([, ms]) => !ms.applied).map(([id]) => id);
  if (updaters.length <= max) return state;
  const out = copyManagedState(state);
  updaters.sort((a, b) => {
    const ta = unixSeconds(state.times.get(a));
    const tb = unixSeconds(state.times.get(b));
    return ta !== tb ? ta - tb : compareGoStrings(a, b);
  });
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const manager = updaters[i];
    const vs = out.sets.get(manager);
    if (!vs) continue;
    const time = out.times.get(manager);
    const bucket = managerIdentifier({ manager: 'ancient-changes', operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, manager);
      continue;
    }
    if (!out.sets.has(bucket)) {
      const firstSet = out.sets.get(first)!;
      out.sets.delete(first);
      out.sets.set(bucket, firstSet);
    }
    out.sets.set(bucket, { set: vs.set.union(out.sets.get(bucket)!.set), apiVersion: vs.apiVersion, applied: vs.applied });
    out.sets.delete(manager);
    length--;
    out.times.set(bucket, time);
  }
  return out;
}

/**
 * merge/update.go reconcileManagedFieldsWithSchemaChanges and update(): a manager whose version
 * this endpoint cannot type is dropped before the write is recorded.
 */
function typedManagers(sets: ManagerSets, kind: ManagedKind<ManagedObject>): ManagerSets {
  if (kind.entriesOfOtherVersions === 'comparedAsOwn') return sets;
  return new Map([...sets].filter(([, ms]) => ms.apiVersion === kind.apiVersion));
}

/** Runs one Update through buildmanagerinfo → managedfieldsupdater → stripmeta → updater, then caps. */
function updateStep(kind: ManagedKind<ManagedObject>, live: unknown, next: unknown, state: ManagedState, manager: string, subresource: Subresource, now: string): ManagedState {
  const identifier = managerIdentifier({
    manager: manager || 'unknown',
    operation: 'Update',
    apiVersion: kind.apiVersion,
    subresource,
  });
  // managedfieldsupdater.go: record the write as a throw-away manager, then fold it into the
  // writer's entry, so that the entry's time only moves when the write changed something.
  const self = 'current-operation';
  const sets = recordUpdate(context(kind, subresource), live, next, typedManagers(state.sets, kind), self);
  stripUntracked(sets, self, kind);
  const times = new Map(state.times);
  const current = sets.get(self);
  if (current) {
    sets.delete(self);
    const previous = sets.get(identifier);
    sets.set(identifier, previous ? { ...current, set: current.set.union(previous.set) } : current);
    times.set(identifier, now);
  }
  return capUpdateManagers({ sets, times });
}

/** Which managedFields a non-apply write starts from (fieldmanager.go decodeLiveOrNew). */
export type RequestManagedFieldsIntent = 'reset' | 'replace' | 'keep';

/**
 * `[{}]` clears every entry; a readable non-empty list replaces the stored entries (a PUT or
 * JSON patch of /metadata/managedFields); `[]`, absent or unreadable keeps the stored ones.
 * /status writes always keep the stored entries.
 */
export function requestManagedFieldsIntent(entries: readonly ManagedFieldsEntry[] | undefined, subresource: Subresource): RequestManagedFieldsIntent {
  if (subresource !== '') return 'keep';
  if (isResetManagedFields(entries)) return 'reset';
  if (!entries || entries.length === 0) return 'keep';
  try {
    return decodeManagedFields(entries).sets.size > 0 ? 'replace' : 'keep';
  } catch {
    return 'keep';
  }
}

function decodeOrEmpty(entries: readonly ManagedFieldsEntry[] | undefined): ManagedState {
  try {
    return decodeManagedFields(entries);
  } catch {
    return emptyManagedState();
  }
}

export interface UpdateManagedFieldsInput<T extends ManagedObject = Service> {
  /** The stored object, or undefined when this write creates it. */
  readonly live: T | undefined;
  /**
   * The object as decoded and defaulted from the request (or the patched object), BEFORE the
   * registry allocates (a Service's cluster IPs and node ports) and before the strategy resets
   * anything. Its metadata.managedFields are the request's (they may reset or replace the stored ones).
   */
  readonly updated: T;
  /** Resolved with managerName(fieldManager, userAgent). */
  readonly manager: string;
  readonly subresource: Subresource;
  /** RFC 3339, whole seconds (the entry's `time` when this write changes the writer's fields). */
  readonly now: string;
}

/**
 * The managedFields to store with a create, update, status update or non-apply patch
 * (FieldManager.Update). Undefined means the object carries no managedFields.
 */
export function updateManagedFields(input: UpdateManagedFieldsInput<Service>): ManagedFieldsEntry[] | undefined;
export function updateManagedFields<T extends ManagedObject>(input: UpdateManagedFieldsInput<T>, kind: ManagedKind<T>): ManagedFieldsEntry[] | undefined;
export function updateManagedFields(input: UpdateManagedFieldsInput<ManagedObject>, kind: ManagedKind<ManagedObject> = SERVICE_MANAGED_KIND): ManagedFieldsEntry[] | undefined {
  const { live, updated, subresource } = input;
  const requested = updated.metadata?.managedFields;
  let state: ManagedState;
  switch (requestManagedFieldsIntent(requested, subresource)) {
    case 'reset':
      state = emptyManagedState();
      break;
    case 'replace':
      state = decodeManagedFields(requested);
      break;
    case 'keep':
      state = decodeOrEmpty(live?.metadata?.managedFields);
      break;
  }
  // skipnonapplied.go: an existing object without managedFields is only tracked from its first apply.
  if (state.sets.size === 0 && live !== undefined) return undefined;
  const next = updateStep(kind, kind.comparable(live), kind.comparable(updated), state, input.manager, subresource, input.now);
  return encodeManagedFields(next);
}

export interface ApplyInput<T extends ManagedObject = Service> {
  /** The stored object, or undefined when the apply creates it. */
  readonly live: T | undefined;
  /** The applied configuration as parsed from the YAML/JSON body: not decoded, not defaulted. */
  readonly config: Record<string, unknown>;
  readonly manager: string;
  readonly subresource: Subresource;
  readonly force: boolean;
  readonly now: string;
}

export interface ApplyOutcome {
  /**
   * The merged object as plain JSON (nulls mark cleared fields). The caller decodes and
   * defaults it like a patched object, then runs the usual strategy, validation and storage.
   */
  readonly object: Record<string, unknown>;
  readonly managedFields: ManagedFieldsEntry[] | undefined;
  /** False when the configuration changed no field of the object (managedFields may still change). */
  readonly changed: boolean;
}

/** versioncheck.go: the configuration must be this endpoint's group, version and kind. */
function groupVersionKindString(config: Record<string, unknown>, expected: ManagedKind<ManagedObject>): { ok: boolean; text: string } {
  const apiVersion = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  const kind = typeof config.kind === 'string' ? config.kind : '';
  const slash = apiVersion.indexOf('/');
  const group = slash >= 0 ? apiVersion.slice(0, slash) : '';
  const version = slash >= 0 ? apiVersion.slice(slash + 1) : apiVersion;
  return { ok: group === expected.group && version === expected.version && kind === expected.kind, text: `${group}/${version}, Kind=${kind}` };
}

/**
 * Server-side apply (FieldManager.Apply). Throws ApplyConflictError (409), BadRequestError
 * (400) for a wrong kind or a configuration carrying managedFields, InternalServerError when
 * the stored managedFields cannot be read, MergeValidationError for a configuration SMD rejects.
 */
export function applyConfiguration(input: ApplyInput<Service>): ApplyOutcome;
export function applyConfiguration<T extends ManagedObject>(input: ApplyInput<T>, kind: ManagedKind<T>): ApplyOutcome;
export function applyConfiguration(input: ApplyInput<ManagedObject>, kind: ManagedKind<ManagedObject> = SERVICE_MANAGED_KIND): ApplyOutcome {
  const { live, config } = input;
  let state: ManagedState;
  try {
    state = decodeManagedFields(live?.metadata?.managedFields);
  } catch (e) {
    throw new InternalServerError(`failed to decode managed fields: ${(e as Error).message}`);
  }
  const gvk = groupVersionKindString(config, kind);
  if (!gvk.ok) throw new BadRequestError(`invalid object type: ${gvk.text}`);
  const metadata = config.metadata;
  if (isJsonMap(metadata) && metadata.managedFields !== undefined && metadata.managedFields !== null) {
    throw new BadRequestError('metadata.managedFields must be nil');
  }
  const liveValue = kind.comparable(live);
  const attempt = (force: boolean) => applyStep(kind, liveValue, config, state, input, force);
  let result: { object: Record<string, unknown>; state: ManagedState; changed: boolean };
  try {
    result = attempt(input.force);
  } catch (e) {
    if (!(e instanceof FieldConflicts)) throw e;
    // lastappliedmanager.go: `kubectl` may take over what its client-side apply last set.
    const allowed = input.manager === 'kubectl' ? allowedConflictsFromLastApplied(live, liveValue, kind) : undefined;
    if (!allowed) throw new ApplyConflictError(e.conflicts);
    const remaining: FieldConflict[] = e.conflicts.filter((c) => !allowed.has(c.path));
    if (remaining.length > 0) throw new ApplyConflictError(remaining);
    result = attempt(true);
  }
  const object = input.manager === 'kubectl' ? syncLastApplied(result.object, config) : result.object;
  return { object, managedFields: encodeManagedFields(result.state), changed: result.changed };
}

function applyStep(
  kind: ManagedKind<ManagedObject>,
  liveValue: Record<string, unknown>,
  config: Record<string, unknown>,
  initial: ManagedState,
  input: ApplyInput<ManagedObject>,
  force: boolean,
): { object: Record<string, unknown>; state: ManagedState; changed: boolean } {
  let state = initial;
  // skipnonapplied.go: the first apply to an untracked object gives what is there to `before-first-apply`.
  if (state.sets.size === 0) {
    state = updateStep(kind, kind.comparable(undefined), liveValue, state, 'before-first-apply', input.subresource, input.now);
  }
  const identifier = managerIdentifier({ manager: input.manager || 'unknown', operation: 'Apply', subresource: input.subresource });
  const result = recordApply(context(kind, input.subresource), liveValue, config, typedManagers(state.sets, kind), identifier, force);
  const sets = new Map(result.managers);
  stripUntracked(sets, identifier, kind);
  const times = new Map(state.times);
  const changed = result.object !== undefined;
  if (changed) times.set(identifier, input.now);
  const object = (changed ? result.object : liveValue) as Record<string, unknown>;
  return { object, state: { sets, times }, changed };
}
