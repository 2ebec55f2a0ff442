// A set of field paths stored as a trie (fieldpath.Set): `members` are the elements owned at
// this level, `children` the subtrees below an element. A node can be both a member and have
// children (FieldsV1 writes that as `".": {}`). Immutable; set operations follow SMD exactly:
// difference is member-wise (removing `.spec` does not remove `.spec.type`), while
// recursiveDifference also drops everything below a removed member.
import { type FieldPath } from './field-path';
import { comparePathElements, type PathElement, serializePathElement } from './path-element';

export interface FieldSetChild {
  readonly element: PathElement;
  readonly set: FieldSet;
}

export class FieldSet {
  static readonly EMPTY = new FieldSet([], []);

  private constructor(
    /** Sorted by comparePathElements. */
    readonly members: readonly PathElement[],
    /** Sorted by element; never empty sets. */
    readonly children: readonly FieldSetChild[],
  ) {}

  static of(...paths: FieldPath[]): FieldSet {
    const b = new FieldSetBuilder();
    for (const p of paths) b.insert(p);
    return b.build();
  }

  /** @internal Builds from already sorted, normalised parts. */
  static fromParts(members: readonly PathElement[], children: readonly FieldSetChild[]): FieldSet {
    return members.length === 0 && children.length === 0 ? FieldSet.EMPTY : new FieldSet(members, children);
  }

  isEmpty(): boolean {
    return this.members.length === 0 && this.children.length === 0;
  }

  /** Number of paths in the set. */
  size(): number {
    return this.members.length + this.children.reduce((n, c) => n + c.set.size(), 0);
  }

  has(path: FieldPath): boolean {
    if (path.length === 0) return false;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a cursor that walks down the tree from this node, not a captured `this`
    let set: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) {
      set = set.childAt(path[i]);
      if (!set) return false;
    }
    return findIndex(set.members, path[path.length - 1], (x) => x) >= 0;
  }

  /** The subtree below one element (empty when there is none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.childAt(pe) ?? FieldSet.EMPTY;
  }

  private childAt(pe: PathElement): FieldSet | undefined {
    const i = findIndex(this.children, pe, (c) => c.element);
    return i >= 0 ? this.children[i].set : undefined;
  }

  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const members = mergeSorted(this.members, other.members, (x) => x, 'union');
    const children: FieldSetChild[] = [];
    walk(this.children, other.children, {
      left: (c) => children.push(c),
      right: (c) => children.push(c),
      both: (a, b) => children.push({ element: a.element, set: a.set.union(b.set) }),
    });
    return FieldSet.fromParts(members, children);
  }

  intersection(other: FieldSet): FieldSet {
    const members = mergeSorted(this.members, other.members, (x) => x, 'intersection');
    const children: FieldSetChild[] = [];
    walk(this.children, other.children, {
      both: (a, b) => {
        const set = a.set.intersection(b.set);
        if (!set.isEmpty()) children.push({ element: a.element, set });
      },
    });
    return FieldSet.fromParts(members, children);
  }

  /** Member-wise difference (fieldpath.Set.Difference). */
  difference(other: FieldSet): FieldSet {
    if (other.isEmpty() || this.isEmpty()) return this;
    const members = mergeSorted(this.members, other.members, (x) => x, 'difference');
    const children: FieldSetChild[] = [];
    walk(this.children, other.children, {
      left: (c) => children.push(c),
      both: (a, b) => {
        const set = a.set.difference(b.set);
        if (!set.isEmpty()) children.push({ element: a.element, set });
      },
    });
    return FieldSet.fromParts(members, children);
  }

  /** Like difference, but a member of `other` also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.isEmpty() || this.isEmpty()) return this;
    const members = mergeSorted(this.members, other.members, (x) => x, 'difference');
    const removed = (pe: PathElement) => findIndex(other.members, pe, (x) => x) >= 0;
    const children: FieldSetChild[] = [];
    walk(this.children, other.children, {
      left: (c) => {
        if (!removed(c.element)) children.push(c);
      },
      both: (a, b) => {
        if (removed(a.element)) return;
        const set = a.set.recursiveDifference(b.set);
        if (!set.isEmpty()) children.push({ element: a.element, set });
      },
    });
    return FieldSet.fromParts(members, children);
  }

  equals(other: FieldSet): boolean {
    if (this === other) return true;
    if (this.members.length !== other.members.length || this.children.length !== other.children.length) return false;
    for (let i = 0; i < this.members.length; i++) {
      if (comparePathElements(this.members[i], other.members[i]) !== 0) return false;
    }
    for (let i = 0; i < this.children.length; i++) {
      if (comparePathElements(this.children[i].element, other.children[i].element) !== 0) return false;
      if (!this.children[i].set.equals(other.children[i].set)) return false;
    }
    return true;
  }

  /** Every path, members of a level before its subtrees, each level in element order. */
  paths(): FieldPath[] {
    const out: FieldPath[] = [];
    const visit = (set: FieldSet, prefix: PathElement[]) => {
      for (const m of set.members) out.push([...prefix, m]);
      for (const c of set.children) visit(c.set, [...prefix, c.element]);
    };
    visit(this, []);
    return out;
  }

  /** Only the members that have no children of their own (fieldpath.Set.Leaves). */
  leaves(): FieldSet {
    const members = this.members.filter((m) => findIndex(this.children, m, (c) => c.element) < 0);
    const children = this.children.map((c) => ({ element: c.element, set: c.set.leaves() })).filter((c) => !c.set.isEmpty());
    return FieldSet.fromParts(members, children);
  }
}

/** A mutable trie for walkers that insert many paths; `build()` freezes it into a FieldSet. */
export class FieldSetBuilder {
  private readonly members = new Map<string, PathElement>();
  private readonly children = new Map<string, { element: PathElement; builder: FieldSetBuilder }>();

  insert(path: FieldPath): void {
    if (path.length === 0) return;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a cursor that walks down the tree from this node, not a captured `this`
    let node: FieldSetBuilder = this;
    for (let i = 0; i < path.length - 1; i++) {
      const key = serializePathElement(path[i]);
      let child = node.children.get(key);
      if (!child) {
        child = { element: path[i], builder: new FieldSetBuilder() };
        node.children.set(key, child);
      }
      node = child.builder;
    }
    const last = path[path.length - 1];
    node.members.set(serializePathElement(last), last);
  }

  build(): FieldSet {
    const members = [...this.members.values()].sort(comparePathElements);
    const children = [...this.children.values()]
      .map((c) => ({ element: c.element, set: c.builder.build() }))
      .filter((c) => !c.set.isEmpty())
      .sort((a, b) => comparePathElements(a.element, b.element));
    return FieldSet.fromParts(members, children);
  }
}

function findIndex<T>(items: readonly T[], pe: PathElement, elementOf: (item: T) => PathElement): number {
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = comparePathElements(elementOf(items[mid]), pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function mergeSorted<T>(a: readonly T[], b: readonly T[], elementOf: (item: T) => PathElement, op: 'union' | 'intersection' | 'difference'): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(elementOf(a[i]), elementOf(b[j]));
    if (c < 0) {
      if (op !== 'intersection') out.push(a[i]);
      i++;
    } else if (c > 0) {
      if (op === 'union') out.push(b[j]);
      j++;
    } else {
      if (op !== 'difference') out.push(a[i]);
      i++;
      j++;
    }
  }
  if (op !== 'intersection') while (i < a.length) out.push(a[i++]);
  if (op === 'union') while (j < b.length) out.push(b[j++]);
  return out;
}

function walk(
  a: readonly FieldSetChild[],
  b: readonly FieldSetChild[],
  on: { left?: (c: FieldSetChild) => void; right?: (c: FieldSetChild) => void; both?: (x: FieldSetChild, y: FieldSetChild) => void },
): void {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(a[i].element, b[j].element);
    // Indices move outside the optional calls: `f?.(x[i++])` skips the increment when f is absent.
    if (c < 0) {
      on.left?.(a[i]);
      i++;
    } else if (c > 0) {
      on.right?.(b[j]);
      j++;
    } else {
      on.both?.(a[i], b[j]);
      i++;
      j++;
    }
  }
  for (; i < a.length; i++) on.left?.(a[i]);
  for (; j < b.length; j++) on.right?.(b[j]);
}
