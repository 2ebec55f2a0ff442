// Where two JSON texts differ, as paths (`.status.loadBalancer.ingress[0].ip`), so a verify report
// names the field instead of printing two whole objects.
export interface JsonDifference {
  path: string;
  live: unknown;
  folded: unknown;
}

export function jsonDifferences(live: string, folded: string, max = 5): JsonDifference[] | undefined {
  let a: unknown;
  let b: unknown;
  try {
    a = JSON.parse(live);
    b = JSON.parse(folded);
  } catch {
    return undefined;
  }
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return undefined;
  const out: JsonDifference[] = [];
  walk(a, b, '', out, max);
  // Same values in another key order: the texts differ although no field does.
  if (!out.length) out.push({ path: '(key order)', live: undefined, folded: undefined });
  return out;
}

function walk(a: unknown, b: unknown, path: string, out: JsonDifference[], max: number): void {
  if (out.length >= max) return;
  const bothObjects = typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path: path || '.', live: a, folded: b });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}[${i}]`, out, max);
    return;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[key], y[key], `${path}.${key}`, out, max);
}
