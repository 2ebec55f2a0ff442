// A mirror's facts in an export: after the events and before the compactions, one NDJSON line
// each, {"<kind>": {…}} with the fact as mirror-facts.ts words it, the kinds in MIRROR_FACT_KINDS'
// order. A svctrail from before these lines refuses them (an unknown field of an event line), so
// an export is never imported without them.
import { EventLineError } from './event-line';
import { MIRROR_FACT_KINDS, mirrorFactRow, type MirrorFact, type MirrorFactKind, type MirrorFactTable } from './mirror-facts';
import type { Row } from './projection-row-fold';

const PREFIXES = MIRROR_FACT_KINDS.map((kind) => `{"${kind}":`);

export function encodeMirrorFactLine(fact: MirrorFact): string {
  return JSON.stringify(fact);
}

export function isMirrorFactLine(text: string): boolean {
  return PREFIXES.some((prefix) => text.startsWith(prefix));
}

type Fields = Record<string, unknown>;

/** Checks that `value` is an object holding exactly `fields`, each of its type. */
function shaped(value: unknown, what: string, fields: Record<string, (v: unknown) => boolean>, fail: (message: string) => never): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(`${what} must be an object`);
  const object = value as Fields;
  const unknown = Object.keys(object).filter((k) => !(k in fields));
  if (unknown.length) fail(`${what} has unknown field(s) ${unknown.join(', ')}`);
  for (const [field, valid] of Object.entries(fields)) if (!valid(object[field])) fail(`${what}.${field} is missing or not of its type`);
  return object;
}

const isText = (v: unknown) => typeof v === 'string';
const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;
const textOrNull = (v: unknown) => v === null || typeof v === 'string';
const texts = (v: unknown) => Array.isArray(v) && v.every((t) => typeof t === 'string');
const resourceVersion = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 1;

function decodeMirrorFactLine(text: string, lineNumber: number): MirrorFact {
  const fail = (message: string): never => {
    throw new EventLineError(lineNumber, message);
  };
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch (error) {
    return fail(`not JSON (${(error as Error).message})`);
  }
  const keys = Object.keys(line as Fields);
  if (keys.length !== 1) fail(`a mirror fact line holds one fact, not ${keys.join(', ')}`);
  const kind = keys[0] as MirrorFactKind;
  const value = (line as Fields)[kind];
  switch (kind) {
    case 'mirrorSource': {
      const source = shaped(value, kind, { clusterUid: nonEmpty, server: isText, resumeFrom: (v) => typeof v === 'object' && v !== null, updatedAt: isText }, fail);
      shaped(source.resumeFrom, `${kind}.resumeFrom`, { services: textOrNull, events: textOrNull }, fail);
      break;
    }
    case 'observedWrite': {
      const observed = shaped(value, kind, { resourceVersion, source: (v) => typeof v === 'object' && v !== null }, fail);
      shaped(observed.source, `${kind}.source`, { resourceVersion: nonEmpty, observedAt: nonEmpty, via: nonEmpty }, fail);
      break;
    }
    case 'auditActor':
      shaped(
        value,
        kind,
        { resourceVersion, auditID: nonEmpty, verb: isText, user: isText, groups: texts, userAgent: isText, sourceIPs: texts, requestReceivedTimestamp: isText, identifiedAt: nonEmpty },
        fail,
      );
      break;
    case 'pendingAuditEvent': {
      const pending = shaped(value, kind, { receivedAt: nonEmpty, write: (v) => typeof v === 'object' && v !== null }, fail);
      // The write as the audit join stored it; the columns it is found by must be there.
      const write = pending.write as Fields;
      for (const field of ['auditID', 'namespace', 'name', 'sourceResourceVersion']) if (!nonEmpty(write[field])) fail(`${kind}.write.${field} must be a non-empty string`);
      break;
    }
    default:
      fail(`an unknown kind of mirror fact ${JSON.stringify(kind)}`);
  }
  return line as MirrorFact;
}

/** The order an export writes the facts in, checked as lines stream by: kinds in order, each key once, ascending. */
export class MirrorFactOrder {
  facts = 0;
  private kind = -1;
  private lastResourceVersion = 0;
  private readonly auditIDs = new Set<string>();

  /**
   * An import's mirror-fact line, checked in its place (after the events, before the compaction
   * lines that end an export): the row to insert.
   */
  acceptLine(text: string, lineNumber: number, logHead: number, afterCompactions: boolean): { table: MirrorFactTable; row: Row } {
    if (afterCompactions) throw new EventLineError(lineNumber, "a mirror's fact after the compaction lines (they end an export)");
    const fact = decodeMirrorFactLine(text, lineNumber);
    this.accept(fact, lineNumber, logHead);
    return mirrorFactRow(fact);
  }

  /** An import's event line: refused once a mirror's fact came (they follow the log). */
  acceptEvent(lineNumber: number): void {
    if (this.facts) throw new EventLineError(lineNumber, "an event after the mirror's facts (they follow the log)");
  }

  private accept(fact: MirrorFact, lineNumber: number, logHead: number): void {
    const fail = (message: string): never => {
      throw new EventLineError(lineNumber, message);
    };
    const kind = MIRROR_FACT_KINDS.indexOf(Object.keys(fact)[0] as MirrorFactKind);
    if (kind < this.kind) fail(`${MIRROR_FACT_KINDS[kind]} after the ${MIRROR_FACT_KINDS[this.kind]} lines (an export lists ${MIRROR_FACT_KINDS.join(', ')}, in this order)`);
    if (kind !== this.kind) this.lastResourceVersion = 0;
    else if (kind === 0) fail('a second mirrorSource line (a store records one cluster)');
    this.kind = kind;
    const rv = 'observedWrite' in fact ? fact.observedWrite.resourceVersion : 'auditActor' in fact ? fact.auditActor.resourceVersion : undefined;
    if (rv !== undefined) {
      if (rv <= this.lastResourceVersion) fail(`resourceVersion ${rv} does not follow ${this.lastResourceVersion}`);
      if (rv > logHead) fail(`resourceVersion ${rv} is after the log's last write (${logHead})`);
      this.lastResourceVersion = rv;
    }
    if ('pendingAuditEvent' in fact) {
      const id = fact.pendingAuditEvent.write.auditID;
      if (this.auditIDs.has(id)) fail(`a second pendingAuditEvent with auditID ${id}`);
      this.auditIDs.add(id);
    }
    this.facts++;
  }
}
