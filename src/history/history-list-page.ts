// One page of a history list in Kubernetes list style: the snapshot (the log's head when the
// first page was read, carried by the continue token), a keyset cursor, limit+1 rows read to
// know whether more follow, and the token for the next page.
import { decodeHistoryContinue, encodeHistoryContinue, queryFingerprint } from './history-continue-token';
import { HISTORY_API_VERSION } from './history-api';
import type { HistoryQuery } from './history-query';
import { EncodedJson, JsonPieces } from '../kube-api/kube-response';

export type PageKey = (string | number)[];

export interface HistoryList<T> {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion: string; continue?: string };
  items: T[];
}

export interface PageSpec<Row, Item> {
  listKind: string;
  /** The resource and its path scope: part of the fingerprint, so tokens do not cross paths. */
  scope: string;
  query: HistoryQuery;
  keyShape: readonly ('string' | 'number')[];
  head: number;
  read(snapshot: number, after: PageKey | undefined, limit: number): Promise<Row[]>;
  keyOf(row: Row): PageKey;
  toItem(row: Row, snapshot: number): Item | Promise<Item>;
}

/** Effectively unlimited, but a bound SQLite accepts. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER - 1;

export async function readPage<Row, Item>(spec: PageSpec<Row, Item>): Promise<HistoryList<Item>> {
  const fingerprint = queryFingerprint(`${spec.scope}\u0000${spec.query.fingerprintSource()}`);
  const token = spec.query.string('continue');
  const page = token ? decodeHistoryContinue(fingerprint, token, spec.keyShape) : undefined;
  const snapshot = page?.snapshot ?? spec.head;
  const limit = spec.query.limit();
  const rows = await spec.read(snapshot, page?.key, limit === undefined ? NO_LIMIT : limit + 1);
  const more = limit !== undefined && rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const metadata: HistoryList<Item>['metadata'] = { resourceVersion: String(snapshot) };
  if (more) metadata.continue = encodeHistoryContinue(fingerprint, { snapshot, key: spec.keyOf(shown[shown.length - 1]) });
  const items: Item[] = [];
  for (const row of shown) items.push(await spec.toItem(row, snapshot));
  return { kind: spec.listKind, apiVersion: HISTORY_API_VERSION, metadata, items };
}

/** A page whose items are JSON text already: sent as is in JSON, parsed only for YAML. */
export function encodedHistoryList(list: HistoryList<string>): EncodedJson {
  const jsonPieces = [`${JSON.stringify({ kind: list.kind, apiVersion: list.apiVersion, metadata: list.metadata }).slice(0, -1)},"items":[`];
  list.items.forEach((item, i) => jsonPieces.push(i > 0 ? ',' : '', item));
  jsonPieces.push(']}');
  return new EncodedJson(new JsonPieces(jsonPieces, () => JSON.parse(jsonPieces.join('')) as unknown));
}
