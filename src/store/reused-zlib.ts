// Raw inflate of short texts with one zlib context kept and reset between texts. Node's one-shot
// inflateRawSync builds a whole stream object per call: 8-10 µs, more than inflating a 200-byte
// stored patch takes, and as much as a LIST of 100 past objects spends on everything else. A
// context kept per option set (its preset dictionary included: zlib's reset sets it again) does
// the same work without that: measured on the bench's revisions with an 8 KiB dictionary, an
// object in 2-3 µs instead of 12-19, a patch in 0.5-1 µs instead of 6-8.
//
// Not deflate: a reset deflate context still holds the previous text's bytes past the end of the
// new one's window, which its match search may compare, so the same text could deflate to other
// (valid) bytes after another text. Stored texts are compared byte for byte (verify, the engines'
// rows), so they are deflated by a fresh context each, as the one-shot function does.
//
// The context is the stream's native handle (`_handle`, its `writeSync` and the `_writeState` it
// reports into), which is what those one-shot functions drive, but not public API: at creation a
// round trip is checked against the one-shot function, and where Node no longer has that shape
// (or answers differently) the one-shot function is used, slower and the same bytes.
import { constants, deflateRawSync, InflateRaw, inflateRawSync, type ZlibOptions } from 'node:zlib';

interface NativeZlib {
  reset(): void;
  writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, output: Uint8Array, outOffset: number, outLength: number): void;
  onerror: (message: string, errno: number) => void;
}

interface ZlibStreamInternals {
  _handle?: Partial<NativeZlib>;
  _writeState?: unknown;
  close(): void;
}

/** Node's own Uint32Array (not `instanceof`: a test's sandbox has other globals). */
const isUint32Array = (value: unknown): value is Uint32Array => Object.prototype.toString.call(value) === '[object Uint32Array]';

/** Output room per call; a longer result is gathered from several. */
const OUTPUT_BYTES = 64 * 1024;

/**
 * One raw inflate of a whole input (`Z_FINISH`). The answer may be a view of a buffer the next
 * call overwrites: read or copy it before calling again.
 */
export type ZlibRun = (input: Uint8Array) => Buffer;

/** A kept context when Node's zlib stream has the expected shape, else undefined. */
function keptContext(options: ZlibOptions): ZlibRun | undefined {
  const open = () => new InflateRaw(options) as unknown as ZlibStreamInternals;
  let stream = open();
  const usable = (s: ZlibStreamInternals) => typeof s._handle?.writeSync === 'function' && typeof s._handle.reset === 'function' && isUint32Array(s._writeState) && s._writeState.length >= 2;
  if (!usable(stream)) {
    stream.close();
    return undefined;
  }
  const output = Buffer.allocUnsafe(OUTPUT_BYTES);
  let failure: string | undefined;
  const watch = (s: ZlibStreamInternals) => {
    // Called during writeSync when zlib reports an error (corrupt input): the context cannot go
    // on after one, so it is replaced.
    s._handle!.onerror = (message) => void (failure = message);
    return s;
  };
  watch(stream);
  return (input) => {
    const handle = stream._handle as NativeZlib;
    const state = stream._writeState as Uint32Array;
    handle.reset();
    const chunks: Buffer[] = [];
    for (let offset = 0, left = input.length; ;) {
      handle.writeSync(constants.Z_FINISH, input, offset, left, output, 0, OUTPUT_BYTES);
      if (failure !== undefined) {
        const message = failure;
        failure = undefined;
        stream.close();
        stream = watch(open());
        throw new Error(`inflate failed: ${message}`);
      }
      const [roomLeft, inputLeft] = state;
      if (roomLeft > 0) {
        const last = output.subarray(0, OUTPUT_BYTES - roomLeft);
        return chunks.length ? Buffer.concat([...chunks, last]) : last;
      }
      // The output was full: keep it and go on with what is left of the input.
      chunks.push(Buffer.from(output));
      offset += left - inputLeft;
      left = inputLeft;
    }
  };
}

export interface ZlibRunner {
  run: ZlibRun;
  /** False where Node's one-shot function stands in (a spec pins that this Node keeps contexts). */
  kept: boolean;
}

/**
 * Raw inflate with `options`, on a kept context when Node allows it (checked on `probe`, deflated
 * with the same options), else Node's one-shot function.
 */
export function reusedInflate(options: ZlibOptions, probe: Uint8Array): ZlibRunner {
  const fallback: ZlibRun = (input) => inflateRawSync(input, options);
  try {
    const kept = keptContext(options);
    const input = deflateRawSync(probe, options);
    if (kept && Buffer.from(kept(input)).equals(fallback(input))) return { run: kept, kept: true };
  } catch {
    // Not the shape this expects: the one-shot function below.
  }
  return { run: fallback, kept: false };
}
