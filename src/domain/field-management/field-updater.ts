// The ownership algebra of structured-merge-diff's merge.Updater (merge/update.go), for one
// API version: Update records what a write changed, Apply merges a configuration, prunes what
// the manager stopped applying and refuses changes to other managers' fields unless forced.
import { type FieldConflict } from './apply-conflict.error';
import { FieldSet } from './field-set';
import { type ManagerSet } from './managed-fields-codec';
import { ensureNamedFieldsAreMembers, type MergeType } from './merge-type';
import { compareObjects, type Comparison, excludeFromComparison } from './object-comparison';
import { mergeObjects } from './object-merge';
import { removeItems } from './remove-items';
import { toFieldSet } from './to-field-set';
import { valuesEqual } from './field-value';
import { compareGoStrings } from '../go-string-order';

export type ManagerSets = Map<string, ManagerSet>;

export interface UpdaterContext {
  readonly type: MergeType;
  readonly apiVersion: string;
  /** Fields this endpoint resets (`status` on the object, `spec` on /status): never owned, never compared. */
  readonly resetFields: FieldSet;
}

/** merge.Conflicts: raised before anything changes; the caller decides (force, last-applied upgrade). */
export class FieldConflicts extends Error {
  constructor(readonly conflicts: readonly FieldConflict[]) {
    super('conflicts');
  }
}

/** Conflicts in identifier order, each manager's paths in set order. */
function conflictList(conflicts: Map<string, FieldSet>): FieldConflict[] {
  const out: FieldConflict[] = [];
  for (const manager of [...conflicts.keys()].sort(compareGoStrings)) {
    for (const path of conflicts.get(manager)!.paths()) out.push({ manager, path });
  }
  return out;
}

function updateOthers(ctx: UpdaterContext, live: unknown, next: unknown, managers: ManagerSets, workflow: string, force: boolean): Comparison {
  const comparison = excludeFromComparison(compareObjects(live, next, ctx.type), ctx.resetFields);
  const changed = comparison.modified.union(comparison.added);
  const conflicts = new Map<string, FieldSet>();
  for (const [manager, ms] of managers) {
    if (manager === workflow) continue;
    const conflict = ms.set.intersection(changed);
    if (!conflict.isEmpty()) conflicts.set(manager, conflict);
  }
  if (!force && conflicts.size > 0) throw new FieldConflicts(conflictList(conflicts));
  for (const [manager, ms] of managers) {
    if (manager === workflow) continue;
    let set = ms.set;
    const conflict = conflicts.get(manager);
    if (conflict) set = set.difference(conflict);
    if (!comparison.removed.isEmpty()) set = set.difference(comparison.removed);
    if (set.isEmpty()) managers.delete(manager);
    else if (set !== ms.set) managers.set(manager, { ...ms, set });
  }
  return comparison;
}

/** Updater.Update: the writer owns (previous − removed) ∪ modified ∪ added; others lose those paths. */
export function recordUpdate(ctx: UpdaterContext, live: unknown, next: unknown, managers: ManagerSets, manager: string): ManagerSets {
  const out = new Map(managers);
  const comparison = updateOthers(ctx, live, next, out, manager, true);
  const previous = out.get(manager)?.set ?? FieldSet.EMPTY;
  const set = previous.difference(comparison.removed).union(comparison.modified).union(comparison.added).recursiveDifference(ctx.resetFields);
  if (set.isEmpty()) out.delete(manager);
  else out.set(manager, { set, apiVersion: ctx.apiVersion, applied: false });
  return out;
}

export interface ApplyResult {
  /** The merged and pruned object, or undefined when it equals the live object (a no-op). */
  readonly object: unknown;
  readonly managers: ManagerSets;
}

/** Updater.Apply. Throws FieldConflicts unless `force`. */
export function recordApply(ctx: UpdaterContext, live: unknown, config: unknown, managers: ManagerSets, manager: string, force: boolean): ApplyResult {
  const out = new Map(managers);
  const merged = mergeObjects(live, config, ctx.type);
  const last = out.get(manager);
  const set = toFieldSet(config, ctx.type).recursiveDifference(ctx.resetFields);
  out.set(manager, { set, apiVersion: ctx.apiVersion, applied: true });
  const pruned = prune(ctx, merged, out, last?.set);
  updateOthers(ctx, live, pruned, out, manager, force);
  return { object: valuesEqual(live, pruned) ? undefined : pruned, managers: out };
}

/**
 * Removes what the manager applied last time and no longer applies, unless another manager
 * (or this apply) owns it, and never something the manager did not own (Updater.prune).
 */
function prune(ctx: UpdaterContext, merged: unknown, managers: ManagerSets, lastSet: FieldSet | undefined): unknown {
  if (!lastSet || lastSet.isEmpty()) return merged;
  const ensure = (s: FieldSet) => ensureNamedFieldsAreMembers(s, ctx.type);
  let pruned = removeItems(merged, ensure(lastSet), ctx.type);
  // addBackOwnedItems
  let managed = FieldSet.EMPTY;
  for (const ms of managers.values()) managed = managed.union(ms.set);
  const mergedSet = ensure(toFieldSet(merged, ctx.type));
  pruned = removeItems(merged, mergedSet.difference(ensure(toFieldSet(pruned, ctx.type)).union(ensure(managed))), ctx.type);
  // addBackDanglingItems
  const prunedSet = ensure(toFieldSet(pruned, ctx.type));
  return removeItems(merged, mergedSet.difference(prunedSet).intersection(ensure(lastSet)), ctx.type);
}
