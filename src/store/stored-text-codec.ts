// How the history's texts are stored: a revision's object and patch, and the managedFields a
// compaction keeps of a revision (docs/history.md, "Compact encoding"). Raw deflate with a preset
// dictionary trained on Service JSON (stored-text-dictionary.ts): a Service's JSON is mostly its
// keys and the values every Service repeats, which the dictionary holds, so a 1 KB object takes
// 130-250 bytes and a patch 40-100. An event's data is encoded too (packed-event-data.ts); the
// live object (services.object, what GET serves) is not.
//
// A stored text is a string (a row written before this encoding, or PLAIN text on SQLite) or
// bytes whose first byte says how the rest reads, so a later dictionary is a new format byte and
// every row keeps decoding:
//   0  PLAIN       the UTF-8 text
//   1  DEFLATED    raw deflate of the UTF-8 text, with dictionary 1
//   2  WITH_TAIL   at (varint), n (varint), n bytes of raw deflate (dictionary 1) of the text
//                  without a span, then the span's UTF-8 bytes up to the end, which go back in at
//                  byte `at` of the inflated text
//   3  EVENT_DATA  raw deflate of the UTF-8 text, with the dictionary of events' data
//                  (event-data-dictionary.ts): an event's data (packed-event-data.ts), 36 bytes
//                  instead of 45 with dictionary 1 on the 30k bench set, and deflated in 16 µs
//                  instead of 26 (4 KB of dictionary to hash instead of 8)
// WITH_TAIL keeps a revision's resourceVersion out of the deflated part (revision-texts.ts says
// where it is): PostgreSQL learns it only under the append lock, after the text was encoded, and
// appends its digits there; on both engines the same revision is the same bytes.
import { deflateRawSync } from 'node:zlib';
import { reusedInflate } from './reused-zlib';
import { STORED_TEXT_DICTIONARY_1 } from './stored-text-dictionary';
import { EVENT_DATA_DICTIONARY } from './event-data-dictionary';

/** A stored text as a driver returns it: a string (plain text) or the encoding's bytes. */
export type StoredText = string | Buffer;

/** A span of a text, in its string indices. */
export interface TextSpan {
  start: number;
  end: number;
}

const PLAIN = 0;
const DEFLATED = 1;
const WITH_TAIL = 2;
const EVENT_DATA = 3;

/**
 * Level 6 (zlib's default): level 9 measured 0.5% smaller in the same time, 1 and 4 10-25% larger.
 * A 16 KiB window (the dictionary and a text fit) and memLevel 4: the same bytes out for the
 * bench's texts, and a third less time per text than zlib's defaults (32 KiB, 8), most of which
 * a fresh context spends setting up its tables. Inflate reads any window up to 32 KiB.
 */
const DEFLATE = { level: 6, windowBits: 14, memLevel: 4, dictionary: STORED_TEXT_DICTIONARY_1 };
const INFLATE = { dictionary: STORED_TEXT_DICTIONARY_1 };
// Deflated by a fresh context each time (reused-zlib.ts says why), inflated on a kept one.
const deflate = (input: Uint8Array) => deflateRawSync(input, DEFLATE);
const inflate = reusedInflate(INFLATE, Buffer.from('{"kind":"Service","apiVersion":"v1","metadata":{"name":"probe"}}'));
const EVENT_DEFLATE = { ...DEFLATE, dictionary: EVENT_DATA_DICTIONARY };
const eventInflate = reusedInflate({ dictionary: EVENT_DATA_DICTIONARY }, Buffer.from('{"ingress":[{"ip":"192.0.2.1","ipMode":"VIP"}],"previous":[]}'));

/** Whether the codec inflates on a kept zlib context (else Node's one-shot function: the same text, slower). */
export const KEPT_INFLATE = inflate.kept;

function varint(value: number): number[] {
  const out: number[] = [];
  for (let v = value; ; v = Math.floor(v / 128)) {
    if (v < 128) {
      out.push(v);
      return out;
    }
    out.push((v % 128) | 128);
  }
}

/**
 * `text` as stored: deflated (PLAIN when that is no shorter); with `tail`, the span kept raw at
 * the end (WITH_TAIL, whatever the sizes: a reader of PostgreSQL's append finds it there).
 */
export function encodeStoredText(text: string, tail?: TextSpan): Buffer {
  if (tail) {
    const head = text.slice(0, tail.start);
    const deflated = deflate(Buffer.from(head + text.slice(tail.end)));
    return Buffer.concat([Buffer.from([WITH_TAIL, ...varint(Buffer.byteLength(head)), ...varint(deflated.length)]), deflated, Buffer.from(text.slice(tail.start, tail.end))]);
  }
  const utf8 = Buffer.from(text);
  const deflated = deflate(utf8);
  return deflated.length < utf8.length ? Buffer.concat([Buffer.from([DEFLATED]), deflated]) : Buffer.concat([Buffer.from([PLAIN]), utf8]);
}

/** An event's data as stored: deflated against the events' dictionary (EVENT_DATA; PLAIN when that is no shorter). */
export function encodeEventText(text: string): Buffer {
  const utf8 = Buffer.from(text);
  const deflated = deflateRawSync(utf8, EVENT_DEFLATE);
  return deflated.length < utf8.length ? Buffer.concat([Buffer.from([EVENT_DATA]), deflated]) : Buffer.concat([Buffer.from([PLAIN]), utf8]);
}

/** The text a stored text holds, whichever way it was stored. */
export function decodeStoredText(stored: StoredText): string {
  if (typeof stored === 'string') return stored;
  switch (stored[0]) {
    case PLAIN:
      return stored.toString('utf8', 1);
    case DEFLATED:
      return inflate.run(stored.subarray(1)).toString();
    case EVENT_DATA:
      return eventInflate.run(stored.subarray(1)).toString();
    case WITH_TAIL: {
      let offset = 1;
      const read = () => {
        let value = 0;
        for (let scale = 1; ; scale *= 128) {
          const byte = stored[offset++];
          if (byte === undefined) throw new Error('stored text: its header is cut short');
          value += (byte & 127) * scale;
          if (byte < 128) return value;
        }
      };
      const at = read();
      const length = read();
      const tail = stored.toString('utf8', offset + length);
      // A view of the inflater's buffer: read out before anything else inflates.
      const inflated = inflate.run(stored.subarray(offset, offset + length));
      return inflated.toString('utf8', 0, at) + tail + inflated.toString('utf8', at);
    }
    default:
      throw new Error(`stored text: unknown format ${stored[0]}`);
  }
}

/** How many bytes a stored text takes (what removing it frees, as the engines count it). */
export function storedTextBytes(stored: StoredText): number {
  return typeof stored === 'string' ? Buffer.byteLength(stored) : stored.length;
}
