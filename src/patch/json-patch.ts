// RFC 6902 JSON Patch as kube-apiserver v1.32 applies it (handlers/patch.go applyJSPatch with
// gopkg.in/evanphx/json-patch.v4 v4.12.0), including that library's departures from the RFC,
// which clients can observe:
//   - `replace` of a missing object key succeeds (it adds the key);
//   - negative array indices count from the end (SupportNegativeIndices = true);
//   - a path without a leading `/` drops its first segment; `copy` from a missing key copies null;
//   - `test` of a missing/null member passes when the value is null or absent;
//   - scalars compare by their JSON text (`80` vs `80.0` differ).
// fast-json-patch implements the RFC strictly, so it cannot give these answers; this is a port.
// The document is a private clone: a failing operation leaves the caller's object untouched.
import { BadRequestError } from '../domain/errors/domain-errors';
import { strconvQuote } from '../domain/codec/go-quote';
import { type JsonValue } from '../domain/codec/json-value';
import { encodeGoJson } from './go-json-encode';
import { cloneTree, hasKey, isMap, type JsonMap, type JsonTree, treeOf } from './json-tree';
import { duplicateFieldErrors, readPatchBody, unmarshalTypeError } from './patch-body';
import { type PatchOptions, type PatchOutcome } from './patch-outcome';
import { PatchRejectedError } from './patch-rejected-error';
import { MAX_JSON_PATCH_OPERATIONS, PatchTooLargeError } from './patch-too-large-error';
import { compareGoStrings } from '../domain/go-string-order';

/** jsonpatch.Operation: map[string]*json.RawMessage (a JSON null member is a nil pointer). */
type Operation = ReadonlyMap<string, JsonValue>;

/** A failed operation; kube-apiserver turns any of them into the same generic 422. */
class OperationError extends Error {}

type Container = { kind: 'doc'; map: JsonMap } | { kind: 'ary'; items: JsonTree[] };

const OP_FIELDS = new Set(['op', 'path', 'from', 'value']);

/**
 * handlers.jsonPatchOp strict pre-decode (fieldValidation Warn/Strict): kjson.UnmarshalStrict
 * into []jsonPatchOp. Returns the strict findings, throws the 400 for a type mismatch.
 */
function strictDecodeOps(json: JsonValue): string[] {
  const fail = (message: string): never => {
    throw new BadRequestError(`error decoding patch: ${message}`);
  };
  if (json.kind === 'null') return [];
  if (json.kind !== 'array') fail(unmarshalTypeError(json, '[]handlers.jsonPatchOp'));
  const items = (json as Extract<JsonValue, { kind: 'array' }>).items;
  let firstError: string | undefined;
  const strict: string[] = [];
  items.forEach((item, i) => {
    if (item.kind === 'null') return;
    if (item.kind !== 'object') {
      firstError ??= unmarshalTypeError(item, 'handlers.jsonPatchOp');
      return;
    }
    const seen = new Set<string>();
    for (const member of item.members) {
      const path = `[${i}].${member.key}`;
      if (!OP_FIELDS.has(member.key)) {
        strict.push(`unknown field ${strconvQuote(path)}`);
        continue;
      }
      if (seen.has(member.key)) strict.push(`duplicate field ${strconvQuote(path)}`);
      seen.add(member.key);
      if (member.key === 'value') strict.push(...duplicateFieldErrors(member.value, path));
      else if (member.value.kind !== 'string' && member.value.kind !== 'null') {
        firstError ??= `json: cannot unmarshal ${member.value.kind} into Go struct field jsonPatchOp.${member.key} of type string`;
      }
    }
  });
  if (firstError !== undefined) fail(firstError);
  return [...new Set(strict)].map((e) => `json patch ${e}`);
}

/** jsonpatch.DecodePatch: the raw decoder error is the whole 400 message. */
function decodePatch(json: JsonValue): Operation[] {
  if (json.kind === 'null') return [];
  if (json.kind !== 'array') throw new BadRequestError(unmarshalTypeError(json, 'jsonpatch.Patch'));
  return json.items.map((item) => {
    if (item.kind === 'null') return new Map();
    if (item.kind !== 'object') throw new BadRequestError(unmarshalTypeError(item, 'jsonpatch.Operation'));
    return new Map(item.members.map((m) => [m.key, m.value] as const));
  });
}

/** strconv.Atoi: optional sign, decimal digits, int64 range. */
function goAtoi(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return Number(n);
}

/** RFC 6901 unescaping with strings.NewReplacer("~1", "/", "~0", "~") (one left-to-right pass). */
function decodePatchKey(key: string): string {
  return key.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

class Patcher {
  /** Maps evanphx decoded into a partialDoc: Go re-marshals them with sorted keys. */
  readonly sorted = new Set<object>();
  root: JsonTree;

  constructor(doc: JsonTree) {
    this.root = doc;
    if (isMap(doc)) this.sorted.add(doc);
  }

  private rootContainer(): Container {
    return Array.isArray(this.root) ? { kind: 'ary', items: this.root } : { kind: 'doc', map: this.root as JsonMap };
  }

  private containerOf(node: JsonTree): Container | undefined {
    if (Array.isArray(node)) return { kind: 'ary', items: node };
    if (isMap(node)) {
      this.sorted.add(node);
      return { kind: 'doc', map: node };
    }
    return undefined;
  }

  /** container.get: a doc answers nil for a missing key, an array checks the index. */
  private get(con: Container, key: string): JsonTree {
    if (con.kind === 'doc') return hasKey(con.map, key) ? con.map[key] : null;
    return con.items[this.index(con.items, key)];
  }

  private index(items: JsonTree[], key: string): number {
    let idx = goAtoi(key);
    if (idx === undefined) throw new OperationError(`strconv.Atoi: parsing ${strconvQuote(key)}: invalid syntax`);
    if (idx < 0) {
      if (idx < -items.length) throw new OperationError(`Unable to access invalid index: ${idx}`);
      idx += items.length;
    }
    if (idx >= items.length) throw new OperationError(`Unable to access invalid index: ${idx}`);
    return idx;
  }

  private set(con: Container, key: string, value: JsonTree): void {
    if (con.kind === 'doc') con.map[key] = value;
    else con.items[this.index(con.items, key)] = value;
  }

  private add(con: Container, key: string, value: JsonTree): void {
    if (con.kind === 'doc') {
      con.map[key] = value;
      return;
    }
    if (key === '-') {
      con.items.push(value);
      return;
    }
    let idx = goAtoi(key);
    if (idx === undefined) throw new OperationError(`value was not a proper array index: '${key}'`);
    const size = con.items.length + 1;
    if (idx >= size) throw new OperationError(`Unable to access invalid index: ${idx}`);
    if (idx < 0) {
      if (idx < -size) throw new OperationError(`Unable to access invalid index: ${idx}`);
      idx += size;
    }
    con.items.splice(idx, 0, value);
  }

  private remove(con: Container, key: string): void {
    if (con.kind === 'doc') {
      if (!hasKey(con.map, key)) throw new OperationError(`Unable to remove nonexistent key: ${key}`);
      delete con.map[key];
      return;
    }
    con.items.splice(this.index(con.items, key), 1);
  }

  /** findObject: walk every segment but the last; a nil, scalar or out-of-range step fails. */
  private findObject(path: string): { con: Container; key: string } | undefined {
    const split = path.split('/');
    if (split.length < 2) return undefined;
    let con = this.rootContainer();
    for (const part of split.slice(1, -1)) {
      let next: JsonTree;
      try {
        next = this.get(con, decodePatchKey(part));
      } catch {
        return undefined;
      }
      const nextCon = next === null ? undefined : this.containerOf(next);
      if (nextCon === undefined) return undefined;
      con = nextCon;
    }
    return { con, key: decodePatchKey(split[split.length - 1]) };
  }

  private locate(op: Operation, field: 'path' | 'from', what: string): { con: Container; key: string } {
    const path = stringMember(op, field);
    if (path === undefined) throw new OperationError(`${what} operation missing ${field} field`);
    const found = this.findObject(path);
    if (!found) throw new OperationError(`${what} operation does not apply: doc is missing ${field}: ${path}`);
    return found;
  }

  apply(op: Operation): void {
    switch (stringMember(op, 'op') ?? 'unknown') {
      case 'add': {
        const { con, key } = this.locate(op, 'path', 'add');
        this.add(con, key, valueOf(op));
        return;
      }
      case 'remove': {
        const { con, key } = this.locate(op, 'path', 'remove');
        this.remove(con, key);
        return;
      }
      case 'replace':
        return this.replace(op);
      case 'move': {
        const from = this.locate(op, 'from', 'move');
        const value = this.get(from.con, from.key);
        this.remove(from.con, from.key);
        const to = this.locate(op, 'path', 'move');
        this.add(to.con, to.key, value);
        return;
      }
      case 'test':
        return this.test(op);
      case 'copy': {
        const from = this.locate(op, 'from', 'copy');
        // deepCopy marshals the node: decoded maps come out key-sorted in the copy's raw bytes.
        const copied = this.copyNode(this.get(from.con, from.key));
        const to = this.locate(op, 'path', 'copy');
        this.add(to.con, to.key, copied);
        return;
      }
      default:
        throw new OperationError(`Unexpected kind: ${stringMember(op, 'op') ?? 'unknown'}`);
    }
  }

  private replace(op: Operation): void {
    const path = stringMember(op, 'path');
    if (path === undefined) throw new OperationError('replace operation missing path field');
    if (path === '') {
      const value = op.get('value');
      if (value === undefined || (value.kind !== 'object' && value.kind !== 'array' && value.kind !== 'null')) {
        throw new OperationError('replace operation value must be object or array');
      }
      this.root = treeOf(value);
      if (isMap(this.root)) this.sorted.add(this.root);
      return;
    }
    const found = this.findObject(path);
    if (!found) throw new OperationError(`replace operation does not apply: doc is missing path: ${path}`);
    this.get(found.con, found.key); // an array index must exist; a doc key need not (v4 quirk)
    this.set(found.con, found.key, valueOf(op));
  }

  private test(op: Operation): void {
    const path = stringMember(op, 'path');
    if (path === undefined) throw new OperationError('test operation missing path field');
    const expected = op.get('value');
    if (path === '') {
      if (expected === undefined || !this.equal(this.root, expected)) throw new OperationError('test failed');
      return;
    }
    const found = this.findObject(path);
    if (!found) throw new OperationError(`test operation does not apply: is missing path: ${path}`);
    const actual = this.get(found.con, found.key);
    if (actual === null) {
      if (expected === undefined || expected.kind === 'null') return;
      throw new OperationError(`testing value ${path} failed`);
    }
    if (expected === undefined || !this.equal(actual, expected)) throw new OperationError(`testing value ${path} failed`);
  }

  /** lazyNode.equal: structural for objects/arrays, JSON text for scalars. */
  private equal(node: JsonTree, other: JsonValue): boolean {
    if (isMap(node)) {
      this.sorted.add(node);
      if (other.kind !== 'object' && other.kind !== 'null') return false;
      const members = new Map(other.kind === 'object' ? other.members.map((m) => [m.key, m.value] as const) : []);
      const keys = Object.keys(node);
      if (keys.length !== members.size) return false;
      for (const key of keys) {
        const theirs = members.get(key);
        if (theirs === undefined) return false;
        const mine = node[key];
        if ((mine === null) !== (theirs.kind === 'null')) return false;
        if (mine !== null && !this.equal(mine, theirs)) return false;
      }
      return true;
    }
    if (Array.isArray(node)) {
      if (other.kind !== 'array' && other.kind !== 'null') return false;
      const items = other.kind === 'array' ? other.items : [];
      if (items.length !== node.length) return false;
      return node.every((item, i) => (item === null ? items[i].kind === 'null' : this.equal(item, items[i])));
    }
    switch (other.kind) {
      case 'string':
        return node === other.value;
      case 'bool':
        return node === other.value;
      case 'number':
        return typeof node === 'number' && encodeGoJson(node, this.sorted) === other.text;
      default:
        return false;
    }
  }

  private copyNode(node: JsonTree): JsonTree {
    if (Array.isArray(node)) return node.map((item) => this.copyNode(item));
    if (isMap(node)) {
      const keys = Object.keys(node);
      if (this.sorted.has(node)) keys.sort(compareGoStrings);
      const out = Object.create(null) as JsonMap;
      for (const key of keys) out[key] = this.copyNode(node[key]);
      return out;
    }
    return node;
  }
}

/** A string member (Kind/Path/From); a missing, null or non-string member is absent. */
function stringMember(op: Operation, key: string): string | undefined {
  const member = op.get(key);
  return member?.kind === 'string' ? member.value : undefined;
}

/** op.value(): an absent or null `value` inserts null. */
function valueOf(op: Operation): JsonTree {
  const value = op.get('value');
  return value === undefined ? null : treeOf(value);
}

/**
 * Applies a JSON Patch body to `doc` (the current object as served v1 JSON). Throws
 * BadRequestError (400), PatchTooLargeError (413) or PatchRejectedError (422) as kube-apiserver does.
 */
export function applyJsonPatch(doc: unknown, body: string, opts: PatchOptions = {}): PatchOutcome {
  const validation = opts.fieldValidation ?? 'Warn';
  const parsed = readPatchBody(body);
  if (!parsed.ok) {
    throw new BadRequestError(validation === 'Ignore' ? parsed.error : `error decoding patch: ${parsed.error}`);
  }
  const strictErrors = validation === 'Ignore' ? [] : strictDecodeOps(parsed.json);
  const ops = decodePatch(parsed.json);
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) throw new PatchTooLargeError(ops.length);
  const patcher = new Patcher(cloneTree(doc));
  for (const op of ops) {
    try {
      patcher.apply(op);
    } catch (e) {
      if (e instanceof OperationError) throw new PatchRejectedError(e.message);
      throw e;
    }
  }
  return { patched: patcher.root, patchedJson: encodeGoJson(patcher.root, patcher.sorted), strictErrors };
}
