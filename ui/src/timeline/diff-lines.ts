// A JSON patch (RFC 6902, as the change log serves it) as readable lines: what was added, removed
// or replaced, with the value it replaced or removed, bookkeeping paths (resourceVersion,
// managedFields) left out. A write's patch holds only new values; the old ones come from the
// object before the write, which the change list knows by applying each patch in turn to the
// object as of the change before its first one (pure).
export interface PatchOp {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

export interface DiffLine {
  sign: '+' | '-' | '~';
  path: string;
  /** The value after the write as JSON text ('' for a removal). */
  value: string;
  /** The value before the write as JSON text, when known. */
  old?: string;
  /** Plain words instead of values: the whole object created or deleted. */
  note?: string;
}

/** The object before a write: `object` null when there was none. */
export interface Before {
  object: unknown;
}

/** Values longer than this many characters are shown folded, with a toggle. */
export const FOLD_CHARS = 120;

const NOISE = /^\/metadata\/(resourceVersion|managedFields)(\/|$)/;

const text = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));

/** The diff of each change, oldest first; `before`: the object before the first (undefined: not known). */
export function changeDiffs(patches: (PatchOp[] | null | undefined)[], before?: Before): DiffLine[][] {
  let state: Before | undefined = before && { object: structuredClone(before.object) };
  return patches.map((patch) => {
    const lines: DiffLine[] = [];
    for (const op of patch ?? []) {
      let old: { value: unknown } | undefined;
      if (state) {
        old = previousValue(state.object, op);
        state = applied(state, op);
      }
      if (NOISE.test(op.path)) continue;
      lines.push(line(op, old));
    }
    return lines;
  });
}

/** One patch's lines; `before`: the object it was applied to, when known. */
export function diffLines(patch: PatchOp[] | null | undefined, before?: Before): DiffLine[] {
  return changeDiffs([patch], before)[0];
}

/** A value's first FOLD_CHARS characters, and whether that is all of it. */
export function folded(value: string, limit = FOLD_CHARS): { head: string; complete: boolean } {
  return value.length <= limit ? { head: value, complete: true } : { head: `${value.slice(0, limit)}…`, complete: false };
}

function line(op: PatchOp, old: { value: unknown } | undefined): DiffLine {
  if (op.path === '' && op.op === 'add') return { sign: '+', path: '/', value: '', note: 'the Service was created (the whole object: choose this change’s time to see it as of then)' };
  if (op.path === '' && op.op !== 'test' && op.value === null) return { sign: '-', path: '/', value: '', note: 'the Service was deleted' };
  const path = op.path === '' ? '/' : op.path;
  const was = old === undefined ? undefined : text(old.value);
  if (op.op === 'remove') return { sign: '-', path, value: '', ...(was !== undefined ? { old: was } : {}) };
  // An add onto a member that was there replaces it (RFC 6902 4.1); onto nothing it adds.
  if (op.op === 'add' && was === undefined) return { sign: '+', path, value: text(op.value) };
  return { sign: '~', path, value: text(op.value), ...(was !== undefined ? { old: was } : {}) };
}

/** RFC 6901: "/a/b~1c/0" -> ["a", "b/c", "0"]. */
function tokens(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null;

/** The value at a path of tokens, or undefined when nothing is there. */
function at(doc: unknown, path: string[]): { value: unknown } | undefined {
  let value: unknown = doc;
  for (const token of path) {
    if (!isContainer(value) || !Object.prototype.hasOwnProperty.call(value, token)) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return { value };
}

/** What an operation replaces or removes: nothing for an add into an array, which inserts. */
function previousValue(doc: unknown, op: PatchOp): { value: unknown } | undefined {
  const path = tokens(op.path);
  if (op.op === 'add' && path.length > 0 && Array.isArray(at(doc, path.slice(0, -1))?.value)) return undefined;
  return at(doc, path);
}

/** `state` with one operation applied in place, or undefined when it does not apply (unknown from then on). */
function applied(state: Before, op: PatchOp): Before | undefined {
  if (op.op === 'test') return state;
  const path = tokens(op.path);
  if (op.op === 'remove') return remove(state, path) ? state : undefined;
  let value = op.value;
  if (op.op === 'move' || op.op === 'copy') {
    const source = op.from === undefined ? undefined : tokens(op.from);
    value = source && at(state.object, source)?.value;
    if (value === undefined || (op.op === 'move' && !remove(state, source!))) return undefined;
  } else if (op.op !== 'add' && op.op !== 'replace') return undefined;
  const copy = structuredClone(value);
  if (path.length === 0) return { object: copy ?? null };
  const parent = at(state.object, path.slice(0, -1))?.value;
  const key = path[path.length - 1];
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    const last = op.op === 'replace' ? parent.length - 1 : parent.length;
    if (!Number.isInteger(index) || index < 0 || index > last) return undefined;
    parent.splice(index, op.op === 'replace' ? 1 : 0, copy);
    return state;
  }
  if (!isContainer(parent)) return undefined;
  (parent as Record<string, unknown>)[key] = copy;
  return state;
}

/** Removes the value at `path` in place; false when nothing is there. */
function remove(state: Before, path: string[]): boolean {
  if (path.length === 0) {
    state.object = null;
    return true;
  }
  const parent = at(state.object, path.slice(0, -1))?.value;
  const key = path[path.length - 1];
  if (Array.isArray(parent)) {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0 || index >= parent.length) return false;
    parent.splice(index, 1);
    return true;
  }
  if (!isContainer(parent) || !Object.prototype.hasOwnProperty.call(parent, key)) return false;
  delete (parent as Record<string, unknown>)[key];
  return true;
}
