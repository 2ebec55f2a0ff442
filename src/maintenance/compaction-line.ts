// Compactions in an export: after the events, one NDJSON line each, {"compaction": {…}} with the
// record as the compactions API lists it. An import records them as they are and brings what it
// folds to the newest horizon, so the imported store answers as the original did, 410s included.
import type { Compaction } from '../store/ports/history-compaction';
import { EventLineError } from './event-line';
import { MaintenanceError } from './maintenance-error';

const PREFIX = '{"compaction":';

export function encodeCompactionLine(compaction: Compaction): string {
  return JSON.stringify({ compaction });
}

export function isCompactionLine(text: string): boolean {
  return text.startsWith(PREFIX);
}

export function decodeCompactionLine(text: string, lineNumber: number): Compaction {
  const fail = (message: string): never => {
    throw new EventLineError(lineNumber, message);
  };
  let value: unknown;
  try {
    value = (JSON.parse(text) as { compaction?: unknown }).compaction;
  } catch (error) {
    return fail(`not JSON (${(error as Error).message})`);
  }
  const c = value as Partial<Compaction> | undefined;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  const nonEmpty = (t: unknown) => typeof t === 'string' && t.length > 0;
  if (typeof c !== 'object' || c === null) return fail('compaction must be an object');
  if (!Number.isSafeInteger(c.id) || c.id! < 1) fail('compaction.id must be a positive integer');
  if (!c.horizon || !Number.isSafeInteger(c.horizon.resourceVersion) || c.horizon.resourceVersion < 1 || !nonEmpty(c.horizon.time)) {
    fail('compaction.horizon must be {resourceVersion, time}');
  }
  if (!c.actor || !nonEmpty(c.actor.user)) fail('compaction.actor.user must be a string');
  if (!nonEmpty(c.startedAt) || (c.finishedAt !== undefined && !nonEmpty(c.finishedAt))) fail('compaction.startedAt (and finishedAt) must be times');
  if (!c.removed || !count(c.removed.writes) || !count(c.removed.objects) || !count(c.removed.bytes)) fail('compaction.removed must be {writes, objects, bytes}');
  if (c.facts !== undefined && (typeof c.facts !== 'object' || c.facts === null || !/^sha256:[0-9a-f]{64}$/.test(String(c.facts.checksum)) || !count(c.facts.after))) {
    fail('compaction.facts must be {checksum: "sha256:<hex>", after}');
  }
  return c as Compaction;
}

/** The compaction lines of an import, checked against the log they follow; the newest horizon (0: none). */
export function importedHorizon(compactions: readonly Compaction[], head: number): number {
  let horizon = 0;
  for (const [i, c] of compactions.entries()) {
    if (c.id !== i + 1) throw new MaintenanceError(`compaction ${c.id} is out of order (expected ${i + 1})`);
    if (c.horizon.resourceVersion < horizon) throw new MaintenanceError(`compaction ${c.id} moves the horizon back`);
    if (c.horizon.resourceVersion > head) throw new MaintenanceError(`compaction ${c.id}'s horizon ${c.horizon.resourceVersion} is past the log's head ${head}`);
    horizon = c.horizon.resourceVersion;
  }
  return horizon;
}
