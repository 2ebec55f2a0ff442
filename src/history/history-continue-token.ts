// Continue tokens of history lists: base64url JSON of the snapshot (the log's head when the first
// page was read, so every page sees the same history), the keyset position of the last item,
// and a fingerprint of the query: a token only continues the query that issued it.
import { createHash } from 'node:crypto';
import { BadRequestError } from '../domain/errors/domain-errors';
import { HISTORY_API_VERSION } from './history-api';

export interface HistoryPage {
  snapshot: number;
  key: (string | number)[];
}

export function queryFingerprint(source: string): string {
  return createHash('sha256').update(source).digest('base64url').slice(0, 16);
}

export function encodeHistoryContinue(fingerprint: string, page: HistoryPage): string {
  return Buffer.from(JSON.stringify({ v: HISTORY_API_VERSION, q: fingerprint, rv: page.snapshot, k: page.key })).toString('base64url');
}

export function decodeHistoryContinue(fingerprint: string, token: string, keyShape: readonly ('string' | 'number')[]): HistoryPage {
  const invalid = (detail: string) => new BadRequestError(`invalid continue token: ${detail}`);
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw invalid('not base64url');
  let parsed: { v?: unknown; q?: unknown; rv?: unknown; k?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid('not a history continue token');
  }
  if (typeof parsed !== 'object' || parsed === null || parsed.v !== HISTORY_API_VERSION) throw invalid('not a history continue token');
  if (parsed.q !== fingerprint) {
    throw invalid('it was issued for a different query (resource, path or filters); repeat the query that returned it, changing only limit');
  }
  const key = parsed.k;
  if (typeof parsed.rv !== 'number' || !Number.isSafeInteger(parsed.rv) || parsed.rv < 0) throw invalid('bad snapshot resourceVersion');
  if (!Array.isArray(key) || key.length !== keyShape.length || key.some((v, i) => typeof v !== keyShape[i])) throw invalid('bad position');
  return { snapshot: parsed.rv, key: key as (string | number)[] };
}
