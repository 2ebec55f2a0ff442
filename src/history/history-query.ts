// The query string of a history request: only the parameters the resource documents (anything
// else is a 400 naming it), each parsed strictly, with a message that says what was expected.
import { BadRequestError } from '../domain/errors/domain-errors';
import { isTrueValue } from '../kube-api/query-parameters';

type RawQuery = Record<string, string | string[] | undefined>;

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i;
const DURATION = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?$/;

/** Parameters every request may carry and that change nothing. */
const IGNORED = new Set(['pretty']);

export class HistoryQuery {
  private constructor(
    private readonly resource: string,
    private readonly values: Map<string, string>,
  ) {}

  /** Rejects parameters outside `allowed`, and repeated ones. */
  static parse(resource: string, raw: unknown, allowed: readonly string[]): HistoryQuery {
    const values = new Map<string, string>();
    for (const [key, value] of Object.entries((raw ?? {}) as RawQuery)) {
      if (IGNORED.has(key)) continue;
      if (!allowed.includes(key)) {
        throw new BadRequestError(`unknown query parameter ${JSON.stringify(key)} for ${resource}; allowed: ${[...allowed].sort().join(', ')}`);
      }
      if (Array.isArray(value)) throw new BadRequestError(`query parameter ${JSON.stringify(key)} given more than once`);
      if (value !== undefined) values.set(key, value);
    }
    return new HistoryQuery(resource, values);
  }

  /** The parameters that select what is listed (everything but the page), in a stable form. */
  fingerprintSource(): string {
    const selecting = [...this.values].filter(([k]) => k !== 'limit' && k !== 'continue').sort(([a], [b]) => a.localeCompare(b));
    return JSON.stringify([this.resource, selecting]);
  }

  string(key: string): string | undefined {
    const v = this.values.get(key);
    if (v === '') throw new BadRequestError(`query parameter ${JSON.stringify(key)} must not be empty`);
    return v;
  }

  oneOf<T extends string>(key: string, options: readonly T[]): T | undefined {
    const v = this.string(key);
    if (v !== undefined && !options.includes(v as T)) {
      throw new BadRequestError(`invalid ${key} ${JSON.stringify(v)}: must be one of ${options.join(', ')}`);
    }
    return v as T | undefined;
  }

  /** An RFC 3339 time, normalised to the log's form (UTC, milliseconds). */
  time(key: string): string | undefined {
    const v = this.string(key);
    if (v === undefined) return undefined;
    const ms = RFC3339.test(v) ? Date.parse(v) : NaN;
    if (Number.isNaN(ms)) throw new BadRequestError(`invalid ${key} ${JSON.stringify(v)}: must be an RFC 3339 time such as 2026-01-02T03:04:05Z`);
    return new Date(ms).toISOString();
  }

  resourceVersion(key: string): number | undefined {
    const v = this.string(key);
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) {
      throw new BadRequestError(`invalid ${key} ${JSON.stringify(v)}: a resourceVersion is a non-negative integer`);
    }
    return Number(v);
  }

  positiveInteger(key: string): number | undefined {
    const v = this.string(key);
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v) || Number(v) < 1 || !Number.isSafeInteger(Number(v))) {
      throw new BadRequestError(`invalid ${key} ${JSON.stringify(v)}: must be a positive integer`);
    }
    return Number(v);
  }

  /** `limit`: as in Kubernetes, absent or 0 means no limit. */
  limit(): number | undefined {
    const v = this.values.get('limit');
    if (v === undefined || v === '' || v === '0') return undefined;
    if (!/^\d+$/.test(v)) throw new BadRequestError(`invalid limit ${JSON.stringify(v)}: must be a non-negative integer`);
    return Number(v);
  }

  /** As kube-apiserver reads a boolean parameter: only "0" and "false" (any case) are false; `?follow` is true. */
  boolean(key: string): boolean | undefined {
    const v = this.values.get(key);
    return v === undefined ? undefined : isTrueValue(v);
  }

  /** A Go-style duration such as 90s, 10m or 1h30m, in milliseconds. */
  duration(key: string): number | undefined {
    const v = this.string(key);
    if (v === undefined) return undefined;
    const m = DURATION.exec(v);
    const ms = m && (m[1] || m[2] || m[3]) ? (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000 : 0;
    if (!ms) throw new BadRequestError(`invalid ${key} ${JSON.stringify(v)}: must be a positive duration such as 90s, 10m or 1h30m`);
    return ms;
  }
}
