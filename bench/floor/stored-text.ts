// The floor's own few lines for svctrail's stored texts (src/store/stored-text-codec.ts): a
// revision's object and patch are stored deflated against a preset dictionary, so every floor
// read of a past object or a stored patch inflates it, as svctrail does (with one kept zlib
// context, as svctrail does: the same work for the same request), and floor-full's writes and the
// raw rebuild store them as svctrail does (format 2: deflated, the resourceVersion last and raw).
// Written apart from src/ like the rest of the floor; the dictionary, data, is svctrail's
// (dist/store/stored-text-dictionary.js). bench:check-floor compares the bytes both store.
// An event's data is packed against the events' dictionary (format 3): floor-full packs it, every read unpacks it.
import { constants, deflateRawSync, InflateRaw } from 'node:zlib';
import { real } from '../real';

// Loaded at first use: a module that only imports this one (the Event floor, its spec) needs no dist/.
interface Codec {
  options: { level: number; windowBits: number; memLevel: number; dictionary: Buffer };
  inflater: Kept;
}
let loaded: { revisions: Codec; events: Codec } | undefined;
const codecOf = (dictionary: Buffer): Codec => ({ options: { level: 6, windowBits: 14, memLevel: 4, dictionary }, inflater: new InflateRaw({ dictionary }) as unknown as Kept });
/** Format 1's and 2's (dictionary 1), and format 3's (the events' dictionary: an event's data). */
function codecs() {
  loaded ??= { revisions: codecOf(real.storedTextDictionary().STORED_TEXT_DICTIONARY_1), events: codecOf(real.eventDataDictionary().EVENT_DATA_DICTIONARY) };
  return loaded;
}
const codec = () => codecs().revisions;

interface Kept {
  _handle: { reset(): void; writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, out: Uint8Array, outOffset: number, outLength: number): void };
  _writeState: Uint32Array;
}
const out = Buffer.allocUnsafe(1 << 20);

function inflate(input: Uint8Array, { inflater } = codec()): Buffer {
  inflater._handle.reset();
  inflater._handle.writeSync(constants.Z_FINISH, input, 0, input.length, out, 0, out.length);
  return out.subarray(0, out.length - inflater._writeState[0]);
}

/** The text of a stored object or patch (a string: a row written before the encoding). */
export function storedText(stored: string | Buffer): string {
  if (typeof stored === 'string') return stored;
  if (stored[0] === 0) return stored.toString('utf8', 1);
  if (stored[0] === 1) return inflate(stored.subarray(1)).toString();
  if (stored[0] === 3) return inflate(stored.subarray(1), codecs().events).toString();
  let offset = 1;
  const varint = () => {
    let value = 0;
    for (let scale = 1; ; scale *= 128) {
      const byte = stored[offset++];
      value += (byte & 127) * scale;
      if (byte < 128) return value;
    }
  };
  const at = varint();
  const length = varint();
  const tail = stored.toString('utf8', offset + length);
  const text = inflate(stored.subarray(offset, offset + length));
  return text.toString('utf8', 0, at) + tail + text.toString('utf8', at);
}

/** A revision's object or patch as svctrail stores it: `rv`, where the text sets the resourceVersion, kept last. */
export function storeRevisionText(text: string, rv: number): Buffer {
  const marker = text.includes('"path":"/metadata/resourceVersion","value":"') ? '"path":"/metadata/resourceVersion","value":"' : '"resourceVersion":"';
  const start = text.indexOf(marker) + marker.length;
  const end = start + String(rv).length;
  const head = Buffer.from(text.slice(0, start));
  const deflated = deflateRawSync(Buffer.concat([head, Buffer.from(text.slice(end))]), codec().options);
  const varint = (n: number) => {
    const bytes: number[] = [];
    for (; n >= 128; n = Math.floor(n / 128)) bytes.push((n % 128) | 128);
    return [...bytes, n];
  };
  return Buffer.concat([Buffer.from([2, ...varint(head.length), ...varint(deflated.length)]), deflated, Buffer.from(String(rv))]);
}

/** An event's data as svctrail stores it (src/store/packed-event-data.ts): deflated against the events' dictionary (format 3), or plain when that is no shorter. */
export function packEventData(json: string): Buffer {
  const utf8 = Buffer.from(json);
  const deflated = deflateRawSync(utf8, codecs().events.options);
  return deflated.length < utf8.length ? Buffer.concat([Buffer.from([3]), deflated]) : Buffer.concat([Buffer.from([0]), utf8]);
}

/** An event's JSON text from its two columns (data: a row not packed). */
export function eventData(data: string, packed: Buffer | null): string {
  return packed === null ? data : storedText(packed);
}
