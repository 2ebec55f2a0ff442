// Conditions are a list keyed by `type` (patchMergeKey=type). Keyed events describe the usual
// change; when order or duplicate types make keyed events ambiguous the whole list is recorded.
import type { ServiceEvent } from './service.events';
import type { Condition } from './service.types';
import { jsonCopy } from './json-copy';
import { sameJson as same } from './json-equality';

const hasDuplicateTypes = (list: readonly Condition[]): boolean => new Set(list.map((c) => c.type)).size !== list.length;

export function diffConditions(old: readonly Condition[], next: readonly Condition[]): ServiceEvent[] {
  if (same(old, next)) return [];
  const replaced: ServiceEvent[] = [{ type: 'ServiceConditionsReplaced', data: { conditions: jsonCopy([...next]), previous: jsonCopy([...old]) } }];
  if (hasDuplicateTypes(old) || hasDuplicateTypes(next)) return replaced;

  const events: ServiceEvent[] = [];
  const nextTypes = new Set(next.map((c) => c.type));
  for (const previous of old) {
    if (!nextTypes.has(previous.type)) {
      events.push({ type: 'ServiceConditionRemoved', data: { conditionType: previous.type, previous: jsonCopy(previous) } });
    }
  }
  const result = old.filter((c) => nextTypes.has(c.type)).map((c) => c.type);
  for (const condition of next) {
    const previous = old.find((c) => c.type === condition.type) ?? null;
    if (previous && same(previous, condition)) continue;
    events.push({ type: 'ServiceConditionChanged', data: { condition: jsonCopy(condition), previous: jsonCopy(previous) } });
    if (!previous) result.push(condition.type);
  }
  // Keyed events keep existing positions and append new types; anything else is a reorder.
  if (
    !same(
      result,
      next.map((c) => c.type),
    )
  )
    return replaced;
  return events;
}
