// A JSON patch (RFC 6902, as the change log serves it) as readable lines: what was added,
// removed or replaced, bookkeeping paths (resourceVersion, managedFields) left out.
export interface PatchOp {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

export interface DiffLine {
  sign: '+' | '-' | '~';
  path: string;
  value: string;
}

const NOISE = /^\/metadata\/(resourceVersion|managedFields)(\/|$)/;

export function diffLines(patch: PatchOp[] | null | undefined): DiffLine[] {
  const out: DiffLine[] = [];
  for (const op of patch ?? []) {
    if (NOISE.test(op.path)) continue;
    if (op.path === '' && op.op === 'add') {
      out.push({ sign: '+', path: '/', value: 'the Service was created (the whole object: choose this change’s time to see it as of then)' });
      continue;
    }
    const value = op.value === undefined ? '' : JSON.stringify(op.value);
    const sign = op.op === 'add' ? '+' : op.op === 'remove' ? '-' : '~';
    out.push({ sign, path: op.path === '' ? '/' : op.path, value: value.length > 300 ? `${value.slice(0, 300)}…` : value });
  }
  return out;
}
