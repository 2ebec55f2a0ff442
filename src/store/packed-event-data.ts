// An event's data as the log stores it: packed, a stored text (stored-text-codec.ts: raw deflate
// against the codec's dictionary of Service JSON, behind its format byte), in packed_data, with ''
// in data. A row written before migration 0014 holds its JSON text in data and NULL in
// packed_data until the conversion (event-data-packing.ts) packs it. Every reader takes either.
//
// On the bench's 30,000-event history the data of an event takes 46 bytes instead of 266: an
// ingress change 28 of 90, a condition change 58 of 384, a creation 102 of 676.
import { decodeStoredText, encodeStoredText } from './stored-text-codec';

/** The two columns an event's data is in. */
export interface StoredEventData {
  /** The JSON text, in a row not packed yet; '' in a packed row. */
  plainData: string;
  /** The packed JSON text; null in a row not packed yet. */
  packedData: Buffer | null;
}

/** The stored form of an event's JSON text. */
export function packEventData(json: string): Buffer {
  return encodeStoredText(json);
}

/** An event's JSON text, packed or not. */
export function eventDataText(row: StoredEventData): string {
  return row.packedData === null ? row.plainData : decodeStoredText(row.packedData);
}
