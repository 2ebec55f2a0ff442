// One event per NDJSON line: every column of the events row, under its schema property name, in
// schema order. `data` and `actorGroups` are stored as JSON text and written as JSON values (so
// `jq .data.object` works); JSON.stringify reproduces the stored text exactly, since the store
// wrote it with JSON.stringify.
import { EVENT_KEYS, type EventKey, type EventRow } from './event-columns';
import { MaintenanceError } from './maintenance-error';

const JSON_COLUMNS = new Set<EventKey>(['data', 'actorGroups']);
const INTEGER_COLUMNS = new Set<EventKey>(['position', 'resourceVersion', 'streamVersion']);
const KEYS = new Set<string>(EVENT_KEYS);

export function encodeEventLine(row: EventRow): string {
  const line: Record<string, unknown> = {};
  for (const key of EVENT_KEYS) line[key] = JSON_COLUMNS.has(key) ? JSON.parse(row[key] as string) : row[key];
  return JSON.stringify(line);
}

export class EventLineError extends MaintenanceError {
  constructor(lineNumber: number, message: string) {
    super(`line ${lineNumber}: ${message}`);
  }
}

export function decodeEventLine(text: string, lineNumber: number): EventRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EventLineError(lineNumber, `not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EventLineError(lineNumber, 'not a JSON object');
  const line = value as Record<string, unknown>;
  const unknown = Object.keys(line).filter((k) => !KEYS.has(k));
  if (unknown.length) throw new EventLineError(lineNumber, `unknown field(s) ${unknown.join(', ')}`);
  const row: Record<string, unknown> = {};
  for (const key of EVENT_KEYS) {
    const field = line[key];
    if (field === undefined) throw new EventLineError(lineNumber, `missing field ${key}`);
    if (INTEGER_COLUMNS.has(key)) {
      if (!Number.isSafeInteger(field) || (field as number) < 1) throw new EventLineError(lineNumber, `${key} must be a positive integer`);
      row[key] = field;
    } else if (key === 'data') {
      if (typeof field !== 'object' || field === null || Array.isArray(field)) throw new EventLineError(lineNumber, 'data must be a JSON object');
      row[key] = JSON.stringify(field);
    } else if (key === 'actorGroups') {
      if (!Array.isArray(field) || field.some((g) => typeof g !== 'string')) throw new EventLineError(lineNumber, 'actorGroups must be an array of strings');
      row[key] = JSON.stringify(field);
    } else {
      if (typeof field !== 'string') throw new EventLineError(lineNumber, `${key} must be a string`);
      row[key] = field;
    }
  }
  return row as unknown as EventRow;
}
