// A point in the log, given as a resourceVersion or an RFC 3339 time, and the resourceVersion it
// stands for: the state "at" a point is every write up to and including it; "since" a point is
// every write after it. Writes are never split: all events of one write share its resourceVersion.
import type Database from 'better-sqlite3';
import { InvalidArgumentError, MaintenanceError } from './maintenance-error';
import { lastPositionRecorded } from '../store/service-read-repository';
import { ImmediateSqliteReader } from '../store/sqlite-sql-reader';

import type { LogPoint } from '../store/ports/log-point';

export type { LogPoint } from '../store/ports/log-point';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export function parseLogPoint(text: string, flag: string): LogPoint {
  if (/^\d+$/.test(text)) {
    const resourceVersion = Number(text);
    if (!Number.isSafeInteger(resourceVersion)) throw new InvalidArgumentError(`${flag} ${text}: resourceVersion is too large`);
    return { kind: 'resourceVersion', resourceVersion };
  }
  const millis = RFC3339.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(millis)) {
    throw new InvalidArgumentError(`${flag} "${text}" is neither a resourceVersion (a non-negative integer) nor an RFC 3339 time (e.g. 2026-01-02T03:04:05Z)`);
  }
  // recorded_at is UTC with milliseconds, so the normalized text compares in time order.
  return { kind: 'time', time: new Date(millis).toISOString() };
}

export function describeLogPoint(point: LogPoint): string {
  return point.kind === 'time' ? point.time : `resourceVersion ${point.resourceVersion}`;
}

/**
 * The resourceVersion a point stands for, read in the caller's transaction. A time means the
 * newest write recorded at or before it (as the API's asOf reads it);
 * a resourceVersion past the head is refused rather than silently clamped.
 */
export function resolveLogPoint(sqlite: Database.Database, point: LogPoint, flag: string): number {
  const head = logHead(sqlite);
  if (point.kind === 'resourceVersion') {
    if (point.resourceVersion > head) throw new MaintenanceError(`${flag} ${point.resourceVersion} is newer than the log, whose newest resourceVersion is ${head}`);
    return point.resourceVersion;
  }
  return lastPositionRecorded(new ImmediateSqliteReader((sql) => sqlite.prepare(sql)), point.time, true);
}

export function logHead(sqlite: Database.Database): number {
  return sqlite.prepare('SELECT coalesce(max(position), 0) FROM events').pluck().get() as number;
}
