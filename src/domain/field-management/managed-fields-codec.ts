// metadata.managedFields ⇄ the per-manager field sets the engine works on
// (apimachinery pkg/util/managedfields/internal/managedfields.go). A manager is identified by
// the JSON of its entry without fieldsType, fieldsV1 and time (and without apiVersion for
// Apply), exactly as kube builds it: that string is also the order conflicts are grouped in.
import { canonicalTime } from '../codec/go-time';
import { type ManagedFieldsEntry } from '../service.types';
import { type FieldSet } from './field-set';
import { fieldSetToFieldsV1, fieldsV1ToFieldSet } from './fields-v1';
import { goJsonString } from '../codec/go-json-string';
import { compareGoStrings } from '../go-string-order';

export type Operation = 'Apply' | 'Update';

export interface ManagerSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** The decoded form: sets and times keyed by manager identifier. */
export interface ManagedState {
  readonly sets: Map<string, ManagerSet>;
  readonly times: Map<string, string | undefined>;
}

export interface ManagerIdentity {
  readonly manager: string;
  readonly operation: Operation;
  readonly apiVersion?: string;
  readonly subresource?: string;
}

export function emptyManagedState(): ManagedState {
  return { sets: new Map(), times: new Map() };
}

export function copyManagedState(m: ManagedState): ManagedState {
  return { sets: new Map(m.sets), times: new Map(m.times) };
}

/** BuildManagerIdentifier: json.Marshal of the entry's identity fields in Go struct order. */
export function managerIdentifier(id: ManagerIdentity): string {
  const parts: string[] = [];
  if (id.manager) parts.push(`"manager":${goJsonString(id.manager)}`);
  if (id.operation) parts.push(`"operation":${goJsonString(id.operation)}`);
  if (id.operation !== 'Apply' && id.apiVersion) parts.push(`"apiVersion":${goJsonString(id.apiVersion)}`);
  if (id.subresource) parts.push(`"subresource":${goJsonString(id.subresource)}`);
  return '{' + parts.join(',') + '}';
}

export function parseManagerIdentifier(identifier: string): ManagerIdentity {
  const parsed = JSON.parse(identifier) as Partial<Record<string, string>>;
  return {
    manager: parsed.manager ?? '',
    operation: (parsed.operation ?? '') as Operation,
    apiVersion: parsed.apiVersion,
    subresource: parsed.subresource,
  };
}

/** Why a stored managedFields list cannot be decoded (kube then falls back or fails). */
export class ManagedFieldsDecodeError extends Error {}

/** DecodeManagedFields: every entry must be readable, or the whole list is rejected. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): ManagedState {
  const state = emptyManagedState();
  (entries ?? []).forEach((entry, i) => {
    if (entry.operation !== 'Apply' && entry.operation !== 'Update') throw new ManagedFieldsDecodeError('operation must be `Apply` or `Update`');
    if (!entry.apiVersion) throw new ManagedFieldsDecodeError('apiVersion must not be empty');
    if (!entry.fieldsType) throw new ManagedFieldsDecodeError(`missing fieldsType in managed fields entry ${i}`);
    if (entry.fieldsType !== 'FieldsV1') throw new ManagedFieldsDecodeError(`invalid fieldsType ${JSON.stringify(entry.fieldsType)} in managed fields entry ${i}`);
    const id = managerIdentifier({
      manager: entry.manager ?? '',
      operation: entry.operation,
      apiVersion: entry.apiVersion,
      subresource: entry.subresource,
    });
    let set: FieldSet;
    try {
      set = fieldsV1ToFieldSet(entry.fieldsV1 ?? {});
    } catch (e) {
      throw new ManagedFieldsDecodeError(`error decoding versioned set: ${(e as Error).message}`);
    }
    state.sets.set(id, { set, apiVersion: entry.apiVersion, applied: entry.operation === 'Apply' });
    // metav1.Time is whole seconds in UTC once decoded (clients may echo `.000Z`); zero is no time.
    const time = entry.time ? canonicalTime(entry.time) : undefined;
    state.times.set(id, time === undefined ? (entry.time ?? undefined) : (time ?? undefined));
  });
  return state;
}

/** Whole seconds since the epoch, as metav1.Time.Unix(); a missing time counts as 0. */
export function unixSeconds(time: string | undefined): number {
  if (!time) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** encodeManagedFields: entries in kube's order, or undefined when no manager is left. */
export function encodeManagedFields(state: ManagedState): ManagedFieldsEntry[] | undefined {
  if (state.sets.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, ms] of state.sets) {
    const identity = parseManagerIdentifier(id);
    const entry: ManagedFieldsEntry = {};
    if (identity.manager) entry.manager = identity.manager;
    const operation = ms.applied ? 'Apply' : identity.operation;
    if (operation) entry.operation = operation;
    if (ms.apiVersion) entry.apiVersion = ms.apiVersion;
    const time = state.times.get(id);
    if (time) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = fieldSetToFieldsV1(ms.set);
    if (identity.subresource) entry.subresource = identity.subresource;
    entries.push(entry);
  }
  return entries.sort(compareEntries);
}

/** sortEncodedManagedFields: operation, time (seconds), manager, apiVersion, subresource. */
export function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  const byString = (a: string | undefined, b: string | undefined) => compareGoStrings(a ?? '', b ?? '');
  if ((p.operation ?? '') !== (q.operation ?? '')) return byString(p.operation, q.operation);
  const ps = unixSeconds(p.time);
  const qs = unixSeconds(q.time);
  if (ps !== qs) return ps < qs ? -1 : 1;
  if ((p.manager ?? '') !== (q.manager ?? '')) return byString(p.manager, q.manager);
  if ((p.apiVersion ?? '') !== (q.apiVersion ?? '')) return byString(p.apiVersion, q.apiVersion);
  return byString(p.subresource, q.subresource);
}

/** `[{}]`: the one request shape that clears managedFields (isResetManagedFields). */
export function isResetManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): boolean {
  if (!entries || entries.length !== 1) return false;
  const e = entries[0] as Record<string, unknown>;
  return Object.keys(e).every((k) => e[k] === undefined || e[k] === null || e[k] === '');
}
