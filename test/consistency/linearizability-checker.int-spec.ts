// The linearizability checker (linearizability.ts) on histories written by hand, whose verdict is
// known, and on generated ones: a history made from a sequential execution, each operation's
// window stretched around its point in that execution, is linearizable whatever the overlaps;
// one read corrupted to a value never written makes it not linearizable.
import fc from 'fast-check';
import { type CasOperation, checkLinearizability, type Operation, type RegisterValue } from './linearizability';

let nextId = 0;
const read = (key: string, value: RegisterValue | undefined, invokedAt: number, completedAt: number, outcome: Operation['outcome'] = 'ok'): Operation => ({
  id: nextId++,
  type: 'read',
  key,
  value,
  invokedAt,
  completedAt,
  outcome,
});
const write = (key: string, value: RegisterValue, invokedAt: number, completedAt: number, outcome: Operation['outcome'] = 'ok'): Operation => ({
  id: nextId++,
  type: 'write',
  key,
  value,
  invokedAt,
  completedAt: outcome === 'unknown' ? Number.POSITIVE_INFINITY : completedAt,
  outcome,
});
const cas = (key: string, expected: RegisterValue | undefined, value: RegisterValue, invokedAt: number, completedAt: number, result: boolean | 'fail' | 'unknown'): Operation => ({
  id: nextId++,
  type: 'cas',
  key,
  expected,
  value,
  invokedAt,
  completedAt: result === 'unknown' ? Number.POSITIVE_INFINITY : completedAt,
  outcome: typeof result === 'boolean' ? 'ok' : result,
  succeeded: typeof result === 'boolean' ? result : undefined,
});

const initial = { k: 'a' };

function notLinearizable(history: Operation[], init: Record<string, RegisterValue | undefined> = initial) {
  const result = checkLinearizability(history, { initial: init });
  if (result.ok !== false) throw new Error(`expected a violation, got ${JSON.stringify(result)}`);
  return result;
}

describe('linearizability checker (Wing–Gong–Lowe, register with compare-and-set per key)', () => {
  describe('given histories that are linearizable', () => {
    it('given no operations, when checked, then it is linearizable', () => {
      expect(checkLinearizability([])).toMatchObject({ ok: true, keys: 0 });
    });

    it('given a write and a later read of it, when checked, then it is linearizable', () => {
      expect(checkLinearizability([write('k', 'b', 0, 1), read('k', 'b', 2, 3)], { initial }).ok).toBe(true);
    });

    it('given concurrent overlapping operations that can be ordered, when checked, then it is linearizable', () => {
      // The write spans both reads: it takes effect between them.
      const history = [write('k', 'b', 0, 10), read('k', 'a', 1, 2), read('k', 'b', 3, 4), read('k', 'b', 11, 12)];
      expect(checkLinearizability(history, { initial }).ok).toBe(true);
      // Two overlapping cas from the same value: one took effect, the other saw its result and was refused.
      const casRace = [cas('k', 'a', 'b', 0, 5, false), cas('k', 'a', 'c', 1, 4, true), read('k', 'c', 6, 7)];
      expect(checkLinearizability(casRace, { initial }).ok).toBe(true);
    });

    it('given reads that overlap a write and see old and new values in either order within the overlap, when checked, then it is linearizable', () => {
      // Both reads overlap the write and each other: the one that saw "b" can be placed after the one that saw "a".
      const history = [write('k', 'b', 0, 10), read('k', 'b', 1, 9), read('k', 'a', 2, 8)];
      expect(checkLinearizability(history, { initial }).ok).toBe(true);
    });

    it('given an unknown write, when a later read sees its value, then the unknown write explains it', () => {
      const history = [write('k', 'b', 0, 0, 'unknown'), read('k', 'a', 5, 6), read('k', 'b', 100, 101)];
      expect(checkLinearizability(history, { initial }).ok).toBe(true);
    });

    it('given an unknown write, when every later read sees the old value, then it never took effect', () => {
      const history = [write('k', 'b', 0, 0, 'unknown'), read('k', 'a', 5, 6), read('k', 'a', 100, 101)];
      expect(checkLinearizability(history, { initial }).ok).toBe(true);
    });

    it('given an unknown cas, when its expected value is held later, then it may take effect then', () => {
      const history = [cas('k', 'b', 'c', 0, 0, 'unknown'), write('k', 'b', 10, 11), read('k', 'c', 20, 21)];
      expect(checkLinearizability(history, { initial }).ok).toBe(true);
    });

    it('given a write that definitely failed, when it is followed by reads of the old value, then it is linearizable (dropped)', () => {
      expect(checkLinearizability([write('k', 'b', 0, 1, 'fail'), read('k', 'a', 2, 3)], { initial }).ok).toBe(true);
    });

    it('given a return and a call at the same instant, when checked, then they count as concurrent', () => {
      expect(checkLinearizability([read('k', 'b', 5, 6), write('k', 'b', 0, 5)], { initial }).ok).toBe(true);
      expect(checkLinearizability([read('k', 'a', 5, 6), write('k', 'b', 0, 5)], { initial }).ok).toBe(true);
    });

    it('given an absent key, when a read sees it absent and a cas creates it, then it is linearizable', () => {
      const history = [read('n', undefined, 0, 1), cas('n', undefined, 'x', 2, 3, true), cas('n', undefined, 'y', 4, 5, false), read('n', 'x', 6, 7)];
      expect(checkLinearizability(history).ok).toBe(true);
    });

    it('given reads that failed or are unknown, when they claim any value, then they are ignored', () => {
      expect(checkLinearizability([read('k', 'zzz', 0, 1, 'fail'), read('k', 'zzz', 2, 3, 'unknown'), read('k', 'a', 4, 5)], { initial }).ok).toBe(true);
    });
  });

  describe('given histories that are not linearizable', () => {
    it('given a completed write, when a later read returns the old value (stale read), then the explanation names both', () => {
      const history = [read('k', 'a', 0, 1), write('k', 'b', 2, 3), read('k', 'a', 6, 7)];
      const result = notLinearizable(history);
      expect(result.key).toBe('k');
      // The first read is not needed to show it.
      expect(result.operations.map((op) => op.id)).toEqual([history[1].id, history[2].id]);
      expect(result.window).toEqual({ from: 2, to: 7 });
      expect(result.explanation).toContain('write "b": done');
      expect(result.explanation).toContain('read -> "a"');
      expect(result.explanation).toContain('initial value: "a"');
    });

    it('given a stale read after a read of the new value, when checked, then the smallest window is the two reads', () => {
      const history = [read('k', 'a', 0, 1), write('k', 'b', 2, 3), read('k', 'b', 4, 5), read('k', 'a', 6, 7)];
      const result = notLinearizable(history);
      // Once "b" was read, "a" cannot come back whenever the write took effect.
      expect(result.operations.map((op) => op.id)).toEqual([history[2].id, history[3].id]);
      expect(result.window).toEqual({ from: 4, to: 7 });
      expect(result.explanation).toMatch(/effects allowed anywhere after their invocation[^\n]*\n\s+#\d+ write "b": done/);
    });

    it('given two successful cas from the same expected value, when checked, then both are named', () => {
      const history = [cas('k', 'a', 'b', 0, 10, true), cas('k', 'a', 'c', 1, 9, true)];
      const result = notLinearizable(history);
      expect(result.operations.map((op) => op.id).sort()).toEqual([history[0].id, history[1].id].sort());
      expect(result.explanation).toMatch(/cas "a" -> "b": took effect/);
      expect(result.explanation).toMatch(/cas "a" -> "c": took effect/);
    });

    it('given a read of a value never written, when checked, then that read alone is the window', () => {
      const history = [write('k', 'b', 0, 1), read('k', 'b', 2, 3), read('k', 'zzz', 4, 5), write('k', 'c', 6, 7)];
      const result = notLinearizable(history);
      expect(result.operations.map((op) => op.id)).toEqual([history[2].id]);
      expect(result.explanation).toContain('no order explains the result of this operation');
      expect(result.explanation).toContain('read -> "zzz"');
    });

    it('given an unknown write that took effect, when a later read sees the old value again, then it is not linearizable', () => {
      const history = [write('k', 'b', 0, 0, 'unknown'), read('k', 'b', 5, 6), read('k', 'a', 10, 11)];
      const result = notLinearizable(history);
      expect(result.operations.map((op) => op.id)).toEqual([history[1].id, history[2].id]);
      expect(result.explanation).toContain('effects allowed anywhere after their invocation');
      expect(result.explanation).toMatch(/write "b": unknown/);
    });

    it('given an unknown write, when a read before its invocation sees its value, then it cannot explain it', () => {
      notLinearizable([read('k', 'b', 0, 1), write('k', 'b', 2, 0, 'unknown')]);
    });

    it('given a cas refused as a conflict, when the register surely held the expected value, then it is not linearizable', () => {
      const history = [write('k', 'b', 0, 1), cas('k', 'b', 'c', 2, 3, false), read('k', 'b', 4, 5)];
      const result = notLinearizable(history);
      expect(result.explanation).toMatch(/cas "b" -> "c": refused \(conflict\)/);
    });

    it('given a write recorded as not stored, when its value is read later, then it is not linearizable and the note names it', () => {
      const history = [write('k', 'b', 0, 1, 'fail'), read('k', 'b', 2, 3)];
      const result = notLinearizable(history);
      expect(result.explanation).toContain('recorded as having had no effect');
      expect(result.explanation).toMatch(/write "b": fail/);
    });

    it('given several keys, when only one is violated, then the result names that key (each key is checked on its own)', () => {
      const history = [write('x', 'x1', 0, 1), read('y', 'x1', 2, 3), read('x', 'x1', 2, 3)];
      const result = notLinearizable(history, { x: 'x0', y: 'y0' });
      expect(result.key).toBe('y');
    });

    it('given a window deep in a long history, when checked, then the window is the few operations around it', () => {
      const history: Operation[] = [];
      let value = 'a';
      for (let i = 0; i < 200; i++) {
        const next = `v${i}`;
        history.push(cas('k', value, next, i * 10, i * 10 + 3, true), read('k', next, i * 10 + 4, i * 10 + 6));
        value = next;
      }
      // A read in the middle sees a value two writes old.
      history.push(read('k', 'v97', 1000 + 7, 1000 + 8));
      const result = notLinearizable(history);
      // Having read v100, nothing can bring v97 back (its cas needs v96): those two reads suffice.
      expect(result.operations.map((op) => op.invokedAt)).toEqual([1004, 1007]);
      expect(result.window).toEqual({ from: 1004, to: 1008 });
    });
  });

  describe('given input it cannot or should not decide', () => {
    it('given a history whose search explodes, when the step budget is small, then the answer is unknown instead of a hang', () => {
      // Seven concurrent writes and seven reads that each see a different one, then an impossible
      // read: every order of the fourteen is tried before the answer (about 75,000 steps).
      const history: Operation[] = [];
      for (let i = 0; i < 7; i++) history.push(write('k', `w${i}`, 0, 100), read('k', `w${(i * 5) % 7}`, 1, 99));
      history.push(read('k', 'w3', 101, 102), read('k', 'w4', 103, 104), read('k', 'w3', 105, 106));
      const result = checkLinearizability(history, { initial, maxSteps: 2_000 });
      expect(result).toMatchObject({ ok: 'unknown', key: 'k' });
      // With room to search, it is decided (not linearizable: w3 again after w4, with no write left).
      expect(checkLinearizability(history, { initial }).ok).toBe(false);
    });

    it('given a completed operation without a finite completion time, when checked, then the input is refused', () => {
      expect(() => checkLinearizability([read('k', 'a', 0, Number.POSITIVE_INFINITY)])).toThrow(/finite completedAt/);
      expect(() => checkLinearizability([{ ...(cas('k', 'a', 'b', 0, 1, true) as CasOperation), succeeded: undefined }])).toThrow(/succeeded/);
    });
  });

  describe('given generated histories', () => {
    type Fate = 'ok' | 'unknown-applied' | 'unknown-lost' | 'fail';
    interface Step {
      key: number;
      kind: 'read' | 'write' | 'cas-current' | 'cas-other';
      fate: Fate;
      before: number;
      after: number;
    }
    const KEYS = ['k0', 'k1', 'k2'];
    const stepArb: fc.Arbitrary<Step> = fc.record({
      key: fc.nat({ max: KEYS.length - 1 }),
      kind: fc.constantFrom('read', 'write', 'cas-current', 'cas-current', 'cas-other'),
      fate: fc.oneof({ arbitrary: fc.constant<Fate>('ok'), weight: 6 }, { arbitrary: fc.constantFrom<Fate>('unknown-applied', 'unknown-lost', 'fail'), weight: 1 }),
      // Windows up to five steps wide on either side of the point where the step takes effect.
      before: fc.nat({ max: 50 }),
      after: fc.nat({ max: 50 }),
    });

    /** A history of a sequential execution: each step takes effect at time 10·i, inside its window. */
    function execute(steps: Step[]): { history: Operation[]; initial: Record<string, string> } {
      const init = Object.fromEntries(KEYS.map((key) => [key, `${key}-init`]));
      const current = new Map<string, string>(Object.entries(init));
      const history: Operation[] = [];
      steps.forEach((s, i) => {
        const key = KEYS[s.key];
        const at = 10 * i + 5;
        const invokedAt = at - s.before;
        const completedAt = s.fate === 'ok' ? at + s.after : Number.POSITIVE_INFINITY;
        const applied = s.fate === 'ok' || s.fate === 'unknown-applied';
        const outcome: Operation['outcome'] = s.fate === 'ok' ? 'ok' : s.fate === 'fail' ? 'fail' : 'unknown';
        const value = `${key}-v${i}`;
        const common = { id: i, key, invokedAt, completedAt: s.fate === 'fail' ? at + s.after : completedAt, outcome };
        if (s.kind === 'read') {
          history.push({ ...common, type: 'read', value: current.get(key) });
        } else if (s.kind === 'write') {
          if (applied) current.set(key, value);
          history.push({ ...common, type: 'write', value });
        } else {
          const expected = s.kind === 'cas-current' ? current.get(key) : `${key}-v${i - 1}`;
          const succeeded = expected === current.get(key);
          if (applied && succeeded) current.set(key, value);
          history.push({ ...common, type: 'cas', expected, value, succeeded: outcome === 'ok' ? succeeded : undefined });
        }
      });
      return { history, initial: init };
    }

    it('given a sequential execution with random overlapping windows, when checked, then it is always linearizable', () => {
      fc.assert(
        fc.property(fc.array(stepArb, { maxLength: 60 }), fc.integer(), (steps, seed) => {
          const { history, initial: init } = execute(steps);
          // The order of the input does not matter.
          const shuffled = [...history].sort((a, b) => (((Number(a.id) * 7919) ^ seed) & 0xffff) - (((Number(b.id) * 7919) ^ seed) & 0xffff));
          const result = checkLinearizability(shuffled, { initial: init });
          if (result.ok !== true) throw new Error(`not linearizable: ${JSON.stringify(result, null, 2)}`);
        }),
        { numRuns: 300 },
      );
    });

    it('given such an execution, when one read result is corrupted to a value never written, then it is not linearizable and the window holds that read', () => {
      fc.assert(
        fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60 }), fc.nat(), (steps, pick) => {
          const { history, initial: init } = execute(steps);
          const reads = history.filter((op) => op.type === 'read' && op.outcome === 'ok');
          fc.pre(reads.length > 0);
          const victim = reads[pick % reads.length];
          const corrupted = history.map((op) => (op === victim ? { ...op, value: 'never-written' } : op));
          const result = checkLinearizability(corrupted, { initial: init });
          if (result.ok !== false) throw new Error(`expected a violation, got ${JSON.stringify(result)}`);
          expect(result.key).toBe(victim.key);
          expect(result.operations.map((op) => op.id)).toContain(victim.id);
          expect(result.explanation).toContain('"never-written"');
        }),
        { numRuns: 300 },
      );
    });

    /** The definition itself: some subset of the unknown operations plus all definite ones, in some real-time-respecting order, runs on a register. */
    function bruteForce(history: Operation[], init: RegisterValue | undefined): boolean {
      const ops = history.filter((op) => op.outcome !== 'fail' && !(op.type === 'read' && op.outcome !== 'ok'));
      const end = (op: Operation) => (op.outcome === 'ok' ? op.completedAt : Number.POSITIVE_INFINITY);
      const used = new Array<boolean>(ops.length).fill(false);
      const go = (state: RegisterValue | undefined): boolean => {
        if (ops.every((op, i) => used[i] || op.outcome !== 'ok')) return true;
        for (let i = 0; i < ops.length; i++) {
          if (used[i]) continue;
          // Every operation left that returned before this one was invoked must come first.
          if (ops.some((other, j) => !used[j] && j !== i && other.outcome === 'ok' && end(other) < ops[i].invokedAt)) continue;
          const op = ops[i];
          let next: RegisterValue | undefined | null;
          if (op.type === 'read') next = state === op.value ? state : null;
          else if (op.type === 'write') next = op.value;
          else if (op.outcome === 'ok' && !op.succeeded) next = state !== op.expected ? state : null;
          else next = state === op.expected ? op.value : null;
          if (next === null) continue;
          used[i] = true;
          const found = go(next);
          used[i] = false;
          if (found) return true;
        }
        return false;
      };
      return go(init);
    }

    it('given arbitrary small histories, when checked, then the verdict is the one of a brute-force search over every order', () => {
      const values = ['a', 'b', 'c'];
      const opArb: fc.Arbitrary<Operation> = fc
        .record({
          type: fc.constantFrom('read', 'write', 'cas'),
          value: fc.constantFrom(...values),
          expected: fc.constantFrom(...values),
          succeeded: fc.boolean(),
          outcome: fc.oneof({ arbitrary: fc.constant<Operation['outcome']>('ok'), weight: 4 }, { arbitrary: fc.constantFrom<Operation['outcome']>('fail', 'unknown'), weight: 1 }),
          invokedAt: fc.nat({ max: 20 }),
          length: fc.nat({ max: 8 }),
        })
        .map(({ type, value, expected, succeeded, outcome, invokedAt, length }) => {
          const common = { key: 'k', invokedAt, completedAt: outcome === 'unknown' ? Number.POSITIVE_INFINITY : invokedAt + length, outcome };
          if (type === 'read') return { ...common, type, value };
          if (type === 'write') return { ...common, type, value };
          return { ...common, type: 'cas' as const, expected, value, succeeded: outcome === 'ok' ? succeeded : undefined };
        });
      fc.assert(
        fc.property(fc.array(opArb, { maxLength: 7 }), (history) => {
          const result = checkLinearizability(history, { initial: { k: 'a' } });
          expect(result.ok).toBe(bruteForce(history, 'a'));
        }),
        { numRuns: 2000 },
      );
    });

    it('given a long execution (20,000 operations on 4 keys), when checked, then it is decided quickly', () => {
      const steps: Step[] = [];
      let seed = 42;
      const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      for (let i = 0; i < 20_000; i++) {
        steps.push({
          key: Math.floor(random() * 3),
          kind: (['read', 'read', 'cas-current', 'cas-other', 'write'] as const)[Math.floor(random() * 5)],
          fate: random() < 0.05 ? 'unknown-applied' : random() < 0.05 ? 'unknown-lost' : 'ok',
          before: Math.floor(random() * 40),
          after: Math.floor(random() * 40),
        });
      }
      const { history, initial: init } = execute(steps);
      const started = performance.now();
      const result = checkLinearizability(history, { initial: init });
      expect(result.ok).toBe(true);
      expect(performance.now() - started).toBeLessThan(20_000);
    });
  });
});
