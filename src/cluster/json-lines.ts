// A watch answer's framing: one JSON object per line (kube-apiserver's JSON watch encoding),
// cut by TCP anywhere — inside an object, inside a multi-byte character. Lines are split on the
// byte 0x0A, which UTF-8 never uses inside a multi-byte character, and decoded only when whole.

/** A line longer than this is a cluster (or something in between) that is not sending watch events. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export class JsonLines {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    /** Names the cluster in messages. */
    private readonly who = 'the cluster',
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  /** The objects completed by `chunk`, in order. */
  push(chunk: Buffer): unknown[] {
    const out: unknown[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const line = this.pendingBytes ? Buffer.concat([...this.pending, chunk.subarray(start, nl)]) : chunk.subarray(start, nl);
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
      const parsed = parseLine(line, this.who);
      if (parsed !== undefined) out.push(parsed);
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxLineBytes) throw new Error(`${this.who} sent a watch line longer than ${this.maxLineBytes} bytes`);
      this.pending.push(chunk.subarray(start));
    }
    return out;
  }

  /** The last object, when the answer ended without a newline after it. */
  end(): unknown[] {
    const rest = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    const parsed = parseLine(rest, this.who);
    return parsed === undefined ? [] : [parsed];
  }
}

function parseLine(bytes: Buffer, who: string): unknown {
  const text = bytes.toString('utf8').trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${who} sent a watch line that is not JSON: ${JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text)}`);
  }
}
