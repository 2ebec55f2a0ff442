// A linearizability checker for histories of registers with compare-and-set, one register per key.
//
// The search is Wing & Gong's, with Lowe's memoisation (as Knossos' "wgl" checker and Porcupine
// do it): the operations' call and return entries sit in one doubly linked list in time order; the
// search walks it, "lifts" a call (and its return) out of the list when the model accepts the
// operation at that point, and backtracks when it meets the return of an operation it has not
// linearized yet (that operation had to take effect before it returned). A cache of (set of
// linearized operations, model state) prunes every configuration reached twice. Each key is
// checked on its own (P-compositionality: a history is linearizable iff each key's is).
//
// Outcomes. `ok`: completed with a known result (a cas answered "conflict" is ok with
// `succeeded: false`, and the model must see a value other than the expected one at its
// linearization point). `fail`: definitely had no effect (dropped). `unknown`: may or may not have
// taken effect; it has no return (completion at +Infinity), so it may linearize anywhere after its
// invocation, or never (the search ends successfully once every definite operation is placed).
// A read that did not complete observed nothing and is dropped too.
//
// Input with equal times: a return and a call at the same instant count as concurrent (calls sort
// before returns), the lenient reading, so that clock resolution never produces a false alarm.

export type RegisterValue = string | number | boolean | null;
export type Outcome = 'ok' | 'fail' | 'unknown';

interface OperationBase {
  /** The register. */
  key: string;
  /** When the client issued it (any monotonic clock, e.g. performance.now()). */
  invokedAt: number;
  /** When the client heard the answer; ignored (taken as +Infinity) for `unknown`. */
  completedAt: number;
  outcome: Outcome;
  /** A label for explanations (the index in the history when absent). */
  id?: string | number;
  /** Who issued it (a client, a process), for explanations. */
  client?: string | number;
  /** Free text shown in explanations (e.g. the replica and the HTTP status). */
  note?: string;
}

export interface ReadOperation extends OperationBase {
  type: 'read';
  /** The value read, when `ok` (undefined: the key was absent). */
  value?: RegisterValue;
}

export interface WriteOperation extends OperationBase {
  type: 'write';
  value: RegisterValue;
}

export interface CasOperation extends OperationBase {
  type: 'cas';
  /** The value the register must hold (undefined: absent) for the cas to take effect. */
  expected: RegisterValue | undefined;
  /** The value it sets. */
  value: RegisterValue;
  /** When `ok`: true = it took effect, false = refused because the register did not hold `expected`. */
  succeeded?: boolean;
}

export type Operation = ReadOperation | WriteOperation | CasOperation;

export interface CheckOptions {
  /** Each key's value before the history (a key not listed starts absent). */
  initial?: Record<string, RegisterValue | undefined> | ReadonlyMap<string, RegisterValue | undefined>;
  /** Search steps allowed for each key before the answer is `unknown` (default 5,000,000). */
  maxSteps?: number;
  /** Search steps allowed for shrinking a failure to its smallest window (default: maxSteps). */
  maxExplainSteps?: number;
}

export interface LinearizableResult {
  ok: true;
  keys: number;
  /** Operations checked (fail outcomes and incomplete reads dropped). */
  operations: number;
  steps: number;
}

export interface NotLinearizableResult {
  ok: false;
  key: string;
  /** The smallest failing window found, operation by operation, readable. */
  explanation: string;
  /** The operations of that window whose results cannot all be explained, in invocation order. */
  operations: Operation[];
  window: { from: number; to: number };
  steps: number;
}

export interface UnknownResult {
  ok: 'unknown';
  key: string;
  reason: string;
  steps: number;
}

export type CheckResult = LinearizableResult | NotLinearizableResult | UnknownResult;

const DEFAULT_MAX_STEPS = 5_000_000;

/** What the model does with an operation. */
const enum Kind {
  /** read: the register holds `value`. */
  Read,
  /** write: sets `value`. */
  Write,
  /** cas that took effect (or may have): the register holds `expected`; sets `value`. */
  Cas,
  /** cas refused: the register holds anything but `expected`. */
  CasRefused,
}

interface Op {
  source: Operation;
  /** Position in the input history. */
  index: number;
  kind: Kind;
  /** Must be linearized before `completedAt` (false: may take effect after its invocation, or never). */
  definite: boolean;
  invokedAt: number;
  completedAt: number;
  expected: RegisterValue | undefined;
  value: RegisterValue | undefined;
}

interface Dropped {
  operation: Operation;
  index: number;
}

const observes = (op: Op) => op.kind === Kind.Read || op.kind === Kind.CasRefused;

/** Checks a history; see the top of the file for the meaning of each outcome. */
export function checkLinearizability(history: readonly Operation[], options: CheckOptions = {}): CheckResult {
  const initialOf = (key: string): RegisterValue | undefined =>
    options.initial instanceof Map ? options.initial.get(key) : (options.initial as Record<string, RegisterValue | undefined> | undefined)?.[key];
  const byKey = new Map<string, Op[]>();
  const dropped = new Map<string, Dropped[]>();
  history.forEach((operation, index) => {
    validate(operation, index);
    const op = prepare(operation, index);
    if (op) (byKey.get(operation.key) ?? byKey.set(operation.key, []).get(operation.key)!).push(op);
    else (dropped.get(operation.key) ?? dropped.set(operation.key, []).get(operation.key)!).push({ operation, index });
  });
  const perKey = options.maxSteps ?? DEFAULT_MAX_STEPS;
  let steps = 0;
  let exhausted: Omit<UnknownResult, 'steps'> | undefined;
  let operations = 0;
  for (const [key, ops] of [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    operations += ops.length;
    const initial = initialOf(key);
    const budget = { left: perKey };
    const verdict = search(ops, initial, budget);
    steps += perKey - Math.max(budget.left, 0);
    if (verdict === 'exhausted') {
      // Another key may still be shown not linearizable: go on, answer unknown at the end.
      exhausted ??= { ok: 'unknown', key, reason: `the step budget (${perKey} per key) ran out while checking key ${show(key)} (${ops.length} operations)` };
      continue;
    }
    if (verdict === 'fail') {
      const failure = explain(key, ops, initial, dropped.get(key) ?? [], { left: options.maxExplainSteps ?? perKey });
      return { ...failure, steps };
    }
  }
  if (exhausted) return { ...exhausted, steps };
  return { ok: true, keys: byKey.size, operations, steps };
}

function validate(operation: Operation, index: number): void {
  const where = `operation ${index}${operation.id !== undefined ? ` (${operation.id})` : ''}`;
  if (typeof operation.key !== 'string') throw new TypeError(`${where}: key must be a string`);
  if (!['ok', 'fail', 'unknown'].includes(operation.outcome)) throw new TypeError(`${where}: unknown outcome ${String(operation.outcome)}`);
  if (!Number.isFinite(operation.invokedAt)) throw new TypeError(`${where}: invokedAt must be a finite number`);
  if (operation.outcome === 'ok') {
    if (!Number.isFinite(operation.completedAt)) throw new TypeError(`${where}: a completed operation needs a finite completedAt`);
    if (operation.completedAt < operation.invokedAt) throw new TypeError(`${where}: completedAt is before invokedAt`);
    if (operation.type === 'cas' && typeof operation.succeeded !== 'boolean') throw new TypeError(`${where}: a completed cas needs succeeded: true or false`);
  }
  if (!['read', 'write', 'cas'].includes(operation.type)) throw new TypeError(`${where}: unknown type ${String((operation as { type: unknown }).type)}`);
}

/** The operation as the model sees it, or undefined when it cannot matter (no effect, nothing observed). */
function prepare(source: Operation, index: number): Op | undefined {
  if (source.outcome === 'fail') return undefined;
  const definite = source.outcome === 'ok';
  const base = { source, index, definite, invokedAt: source.invokedAt, completedAt: definite ? source.completedAt : Number.POSITIVE_INFINITY };
  switch (source.type) {
    case 'read':
      return definite ? { ...base, kind: Kind.Read, expected: undefined, value: source.value } : undefined;
    case 'write':
      return { ...base, kind: Kind.Write, expected: undefined, value: source.value };
    case 'cas':
      // An unknown cas either took effect (then the register held `expected`) or changed nothing,
      // which is the same as never linearizing it.
      return { ...base, kind: definite && !source.succeeded ? Kind.CasRefused : Kind.Cas, expected: source.expected, value: source.value };
  }
}

/** The model: a register. Returns the state after `op`, or NOPE when `op` cannot happen in `state`. */
const NOPE = Symbol('nope');
function step(state: RegisterValue | undefined, op: Op): RegisterValue | undefined | typeof NOPE {
  switch (op.kind) {
    case Kind.Read:
      return state === op.value ? state : NOPE;
    case Kind.Write:
      return op.value;
    case Kind.Cas:
      return state === op.expected ? op.value : NOPE;
    case Kind.CasRefused:
      return state !== op.expected ? state : NOPE;
  }
}

const stateKey = (state: RegisterValue | undefined) => (state === undefined ? 'u' : `${typeof state}:${String(state)}`);

interface Entry {
  op: number;
  isCall: boolean;
  /** The call's return entry (none for an operation that may never take effect). */
  match?: Entry;
  prev?: Entry;
  next?: Entry;
}

type Verdict = 'ok' | 'fail' | 'exhausted';

/** Wing–Gong–Lowe over one key's operations. */
function search(ops: readonly Op[], initial: RegisterValue | undefined, budget: { left: number }): Verdict {
  const order: { time: number; isCall: boolean; op: number }[] = [];
  ops.forEach((op, i) => {
    order.push({ time: op.invokedAt, isCall: true, op: i });
    if (op.definite) order.push({ time: op.completedAt, isCall: false, op: i });
  });
  order.sort((a, b) => a.time - b.time || (a.isCall === b.isCall ? a.op - b.op : a.isCall ? -1 : 1));
  const head: Entry = { op: -1, isCall: false };
  const calls = new Map<number, Entry>();
  let last = head;
  for (const item of order) {
    const entry: Entry = { op: item.op, isCall: item.isCall, prev: last };
    last.next = entry;
    last = entry;
    if (item.isCall) calls.set(item.op, entry);
    else calls.get(item.op)!.match = entry;
  }

  const lift = (entry: Entry) => {
    entry.prev!.next = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    const match = entry.match;
    if (match) {
      match.prev!.next = match.next;
      if (match.next) match.next.prev = match.prev;
    }
  };
  const unlift = (entry: Entry) => {
    const match = entry.match;
    if (match) {
      match.prev!.next = match;
      if (match.next) match.next.prev = match;
    }
    entry.prev!.next = entry;
    if (entry.next) entry.next.prev = entry;
  };

  // The set of linearized operations: a bitset, with a Zobrist hash kept as it changes.
  const words = new Uint32Array((ops.length + 31) >>> 5);
  const zobrist = ops.map(() => [(Math.random() * 2 ** 32) >>> 0, (Math.random() * 2 ** 32) >>> 0]);
  let h1 = 0;
  let h2 = 0;
  const toggle = (i: number) => {
    words[i >>> 5] ^= 1 << (i & 31);
    h1 = (h1 ^ zobrist[i][0]) >>> 0;
    h2 = (h2 ^ zobrist[i][1]) >>> 0;
  };
  const cache = new Map<string, Uint32Array[]>();
  /** Adds the current (set, state) to the cache; false when it was there already. */
  const remember = (state: RegisterValue | undefined): boolean => {
    const key = `${h1},${h2},${stateKey(state)}`;
    const seen = cache.get(key);
    if (seen) {
      for (const other of seen) if (equal(other, words)) return false;
      seen.push(words.slice());
    } else cache.set(key, [words.slice()]);
    return true;
  };

  let definiteLeft = ops.reduce((n, op) => n + (op.definite ? 1 : 0), 0);
  let state = initial;
  const stack: { entry: Entry; state: RegisterValue | undefined }[] = [];
  let entry = head.next;
  while (definiteLeft > 0) {
    if (--budget.left < 0) return 'exhausted';
    // While a definite operation is left, its return is in the list, so the walk meets a return first.
    if (!entry) throw new Error('linearizability search: ran off the list with operations left (a bug)');
    if (entry.isCall) {
      const op = ops[entry.op];
      const next = step(state, op);
      if (next !== NOPE) {
        toggle(entry.op);
        if (remember(next)) {
          stack.push({ entry, state });
          state = next;
          lift(entry);
          if (op.definite) definiteLeft--;
          entry = head.next;
          continue;
        }
        toggle(entry.op);
      }
      entry = entry.next;
    } else {
      // An operation returned before anything placed it: undo the last choice.
      const top = stack.pop();
      if (!top) return 'fail';
      entry = top.entry;
      state = top.state;
      toggle(entry.op);
      unlift(entry);
      if (ops[entry.op].definite) definiteLeft++;
      entry = entry.next;
    }
  }
  return 'ok';
}

function equal(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A weaker version of an operation: true when the history could only become easier to linearize. */
function relaxed(op: Op): Op | undefined {
  // An observation that is dropped constrains nothing; an effect that may happen any time after
  // its invocation, or never, is allowed everywhere the definite one was.
  if (observes(op)) return undefined;
  return op.definite ? { ...op, definite: false, completedAt: Number.POSITIVE_INFINITY } : op;
}

/**
 * Shrinks a failing key to its smallest failing window. Only relaxations are used (dropping an
 * observation, making an effect optional, cutting the history after a return), and a relaxed
 * history that is still not linearizable proves the original is not: so what is shown is a true
 * witness, never an artefact of the shrinking.
 */
function explain(key: string, ops: readonly Op[], initial: RegisterValue | undefined, dropped: readonly Dropped[], budget: { left: number }): Omit<NotLinearizableResult, 'steps'> {
  // Entry positions in time order, as the search sorts them.
  const order: { time: number; isCall: boolean; op: number }[] = [];
  ops.forEach((op, i) => {
    order.push({ time: op.invokedAt, isCall: true, op: i });
    if (op.definite) order.push({ time: op.completedAt, isCall: false, op: i });
  });
  order.sort((a, b) => a.time - b.time || (a.isCall === b.isCall ? a.op - b.op : a.isCall ? -1 : 1));
  const callAt = new Map<number, number>();
  const returnAt = new Map<number, number>();
  order.forEach((item, position) => (item.isCall ? callAt : returnAt).set(item.op, position));

  /** Fails for sure within the budget (running out counts as "could not show it"). */
  const fails = (candidate: (Op | undefined)[]) =>
    search(
      candidate.filter((op): op is Op => op !== undefined),
      initial,
      budget,
    ) === 'fail';
  /** The history up to `cut` (an entry position), with everything invoked before `start` relaxed. */
  const windowed = (cut: number, start: number, extra: ReadonlySet<number> = new Set()) =>
    ops.map((op, i) => {
      if (callAt.get(i)! > cut) return undefined;
      const returned = returnAt.get(i);
      if (returned === undefined || returned > cut || callAt.get(i)! < start || extra.has(i)) return relaxed(op);
      return op;
    });

  // 1. The earliest return after which the history cannot be linearized (prefixes of a
  //    linearizable history are linearizable, so this is a binary search).
  const returns = order.map((item, position) => (item.isCall ? -1 : position)).filter((position) => position >= 0);
  let low = 0;
  let high = returns.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (fails(windowed(returns[middle], 0))) high = middle;
    else low = middle + 1;
  }
  const cut = returns[low];
  // 2. The latest start: everything invoked before it relaxed, and still not linearizable.
  const starts = [0, ...order.map((item, position) => (item.isCall && position < cut ? position + 1 : -1)).filter((position) => position > 0)];
  let first = 0;
  let lastStart = starts.length - 1;
  while (first < lastStart) {
    const middle = (first + lastStart + 1) >>> 1;
    if (fails(windowed(cut, starts[middle]))) first = middle;
    else lastStart = middle - 1;
  }
  const start = starts[first];
  // 3. Within the window, relax each definite operation that is not needed (a few dozen at most),
  //    the latest first: what is kept then is the earlier cause of the failing result.
  const extra = new Set<number>();
  const inWindow = ops.map((_, i) => i).filter((i) => ops[i].definite && callAt.get(i)! >= start && (returnAt.get(i) ?? Infinity) <= cut);
  inWindow.sort((x, y) => callAt.get(y)! - callAt.get(x)!);
  if (inWindow.length <= 40) {
    for (const i of inWindow) {
      extra.add(i);
      if (!fails(windowed(cut, start, extra))) extra.delete(i);
    }
  }
  const final = windowed(cut, start, extra);
  const witness = final.map((op, i) => (op && op.definite ? i : -1)).filter((i) => i >= 0);
  witness.sort((a, b) => ops[a].invokedAt - ops[b].invokedAt || a - b);
  const optional = final.map((op, i) => (op && !op.definite ? i : -1)).filter((i) => i >= 0);
  const culprit = order[cut].op;

  const lines: string[] = [];
  const to = order[cut].time;
  const from = witness.length ? Math.min(...witness.map((i) => ops[i].invokedAt)) : ops[culprit].invokedAt;
  const these = witness.length === 1 ? 'the result of this operation' : `the results of these ${witness.length} operations`;
  lines.push(`key ${show(key)} is not linearizable: no order explains ${these} (between ${time(from)} and ${time(to)})`);
  lines.push(`  initial value: ${showValue(initial)}`);
  for (const i of witness) lines.push(`  ${describeOperation(ops[i].source, ops[i].index)}${i === culprit ? '   <- no linearization of the history reaches past this return' : ''}`);
  // The effects that were allowed anywhere (or never), shown when they could matter to the witness.
  const wanted = new Set<string>();
  for (const i of witness) {
    const op = ops[i];
    if (op.kind === Kind.Read) wanted.add(stateKey(op.value));
    if (op.kind === Kind.Cas) wanted.add(stateKey(op.expected));
  }
  const relevant = optional.filter((i) => wanted.has(stateKey(ops[i].value)));
  if (relevant.length) {
    lines.push(`  effects allowed anywhere after their invocation (or never), which still do not explain it:`);
    for (const i of relevant.slice(0, 8)) lines.push(`    ${describeOperation(ops[i].source, ops[i].index)}`);
    if (relevant.length > 8) lines.push(`    … and ${relevant.length - 8} more`);
  }
  const others = optional.length - relevant.length;
  if (others > 0) lines.push(`  (${others} other effect${others === 1 ? '' : 's'} invoked before ${time(to)} allowed anywhere after their invocation, or never)`);
  const notStored = dropped.filter(({ operation }) => operation.type !== 'read' && wanted.has(stateKey(operation.value)));
  if (notStored.length) {
    lines.push(`  note: a value the witness needs was written by an operation recorded as having had no effect (fail):`);
    for (const { operation, index } of notStored.slice(0, 8)) lines.push(`    ${describeOperation(operation, index)}`);
  }
  if (budget.left < 0) lines.push('  (the shrinking ran out of steps: the window may not be the smallest)');
  return { ok: false, key, explanation: lines.join('\n'), operations: witness.map((i) => ops[i].source), window: { from, to } };
}

function show(text: string): string {
  return JSON.stringify(text);
}

function showValue(value: RegisterValue | undefined): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

function time(t: number): string {
  return Number.isFinite(t) ? `${t.toFixed(1)} ms` : '∞';
}

/** One line per operation, e.g. `#12 [client 3] cas "a" -> "b": refused (conflict)   12.0 ms … 14.5 ms`. */
export function describeOperation(operation: Operation, index: number | string): string {
  const id = operation.id ?? index;
  const who = operation.client !== undefined ? ` [client ${operation.client}]` : '';
  let what: string;
  switch (operation.type) {
    case 'read':
      what = operation.outcome === 'ok' ? `read -> ${showValue(operation.value)}` : `read: ${operation.outcome}`;
      break;
    case 'write':
      what = `write ${showValue(operation.value)}: ${operation.outcome === 'ok' ? 'done' : operation.outcome}`;
      break;
    case 'cas':
      what =
        `cas ${showValue(operation.expected)} -> ${showValue(operation.value)}: ` +
        (operation.outcome === 'ok' ? (operation.succeeded ? 'took effect' : 'refused (conflict)') : operation.outcome === 'fail' ? 'not stored (fail)' : 'outcome unknown');
      break;
  }
  const end = operation.outcome === 'unknown' ? '∞' : time(operation.completedAt);
  return `#${id}${who} ${what}   ${time(operation.invokedAt)} … ${end}${operation.note ? `   (${operation.note})` : ''}`;
}
