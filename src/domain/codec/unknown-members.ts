// Members of a struct's JSON that svctrail's schema does not know: a newer Kubernetes version's
// fields, which mirror mode keeps as the source sent them. Known members stay in Go struct order;
// each unknown one stays right after the known member it followed (its slot, whether or not that
// member is present now), so the order of the newer Go struct that wrote them is kept.
import type { StructSchema } from './go-schema';

/** A member the schema does not know, after the known member `after` (null: before every known one). */
export interface UnknownMember {
  after: string | null;
  key: string;
  value: unknown;
}

const ranks = new WeakMap<StructSchema, Map<string, number>>();

/** Each known member's place in Go order, built once per schema. */
export function memberRanks(schema: StructSchema): Map<string, number> {
  let rank = ranks.get(schema);
  if (!rank) {
    rank = new Map(schema.fields.map((f, i) => [f.json, i]));
    ranks.set(schema, rank);
  }
  return rank;
}

/** The members of `level` the schema does not know, in order, each after the known member before it. */
export function unknownMembersOf(schema: StructSchema, level: Record<string, unknown>): UnknownMember[] {
  const rank = memberRanks(schema);
  const out: UnknownMember[] = [];
  let after: string | null = null;
  for (const key of Object.keys(level)) {
    if (rank.has(key)) after = key;
    else if (level[key] !== undefined) out.push({ after, key, value: level[key] });
  }
  return out;
}

/** `known`'s members of the schema in Go order (any others left out), with `unknown` placed among them. */
export function placeMembers(schema: StructSchema, known: Record<string, unknown>, unknown: readonly UnknownMember[]): Record<string, unknown> {
  const rank = memberRanks(schema);
  const out: Record<string, unknown> = {};
  const placeAfter = (after: string | null) => {
    for (const member of unknown) if (member.after === after) setMember(out, member.key, member.value);
  };
  placeAfter(null);
  for (const f of schema.fields) {
    if (Object.hasOwn(known, f.json)) out[f.json] = known[f.json];
    if (unknown.length) placeAfter(f.json);
  }
  // After a member this schema does not have (not one unknownMembersOf gives): last.
  for (const member of unknown) if (member.after !== null && !rank.has(member.after)) setMember(out, member.key, member.value);
  return out;
}

/** JSON.parse makes "__proto__" an own key; assigning it would set the prototype instead. */
function setMember(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
