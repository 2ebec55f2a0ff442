// The 409 an apply gets when it would change fields other managers own
// (apimachinery managedfields/internal/conflict.go NewConflictError): one cause per path,
// the message grouped by manager in the order of their identifiers.
import { DomainError } from '../errors/domain-errors';
import { strconvQuote } from '../codec/go-quote';
import { type FieldPath, fieldPathToString } from './field-path';
import { compareGoStrings } from '../go-string-order';

export interface FieldConflict {
  /** The manager identifier (JSON), as in managedfields' Conflict.Manager. */
  readonly manager: string;
  readonly path: FieldPath;
}

/** `"kubectl"`, `"kubectl-create" using v1`, `"ctrl" with subresource "status" using v1`. */
export function printManager(identifier: string): string {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(identifier) as Record<string, unknown>;
  } catch {
    return strconvQuote(identifier);
  }
  let out = strconvQuote(typeof parsed.manager === 'string' ? parsed.manager : '');
  if (typeof parsed.subresource === 'string' && parsed.subresource) out += ` with subresource ${strconvQuote(parsed.subresource)}`;
  if (parsed.operation === 'Update') out += ` using ${typeof parsed.apiVersion === 'string' ? parsed.apiVersion : ''}`;
  return out;
}

export function conflictMessage(conflicts: readonly FieldConflict[]): string {
  if (conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].manager)}: ${fieldPathToString(conflicts[0].path)}`;
  }
  const byManager = new Map<string, FieldPath[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort(compareGoStrings)) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const path of byManager.get(manager)!) lines.push(`- ${fieldPathToString(path)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** metav1.Status{code: 409, reason: Conflict, details.causes[FieldManagerConflict]}; no name or kind. */
export class ApplyConflictError extends DomainError {
  readonly reason = 'Conflict';
  constructor(readonly conflicts: readonly FieldConflict[]) {
    super(conflictMessage(conflicts), {
      causes: conflicts.map((c) => ({
        reason: 'FieldManagerConflict',
        message: `conflict with ${printManager(c.manager)}`,
        field: fieldPathToString(c.path),
      })),
    });
  }
}
