// A hand-written JSON reader that fails exactly where and how Go's encoding/json scanner fails
// (scanner.go: stateBeginValue, stateEndValue, stateInString, ...), so decode errors can quote
// Go's text: `unexpected end of JSON input`, `invalid character 'x' looking for beginning of
// value`, `invalid character '}' after object key`, `invalid character '\n' in string literal`.
// It works on the UTF-8 bytes, as Go does, and keeps number literals and duplicate members.
import { type JsonArray, type JsonMember, type JsonObject, type JsonValue } from './json-value';
import { JsonSyntaxError, quoteScannerByte } from './json-syntax-error';

export interface ReadJsonOptions {
  /** Maximum nesting of objects/arrays; deeper input fails with `exceeded max depth`. Go allows 10000. */
  maxDepth?: number;
  /** Maximum elements in one array (svctrail's limit; Go has none beyond the 3 MiB body). */
  maxArrayLength?: number;
}

export const DEFAULT_MAX_JSON_DEPTH = 100;
/** No field of a Service needs more; a 3 MiB body of `0,` could otherwise hold 1.5M elements. */
export const DEFAULT_MAX_JSON_ARRAY_LENGTH = 10000;

/** Input beyond svctrail's own size limits (not a syntax error): answered 400 by the callers. */
export class JsonLimitError extends JsonSyntaxError {}

const SPACE = 0x20;

/** The one-character escapes JSON allows, by the byte after the backslash. */
const SIMPLE_ESCAPES: Readonly<Record<number, string>> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

class Reader {
  private pos = 0;
  private depth = 0;
  /** The source text when it is ASCII: then a byte offset is a string index, and a run of bytes is a slice of it. */
  private readonly ascii: string | undefined;

  constructor(
    text: string,
    private readonly bytes: Buffer,
    private readonly maxDepth: number,
    private readonly maxArrayLength: number,
  ) {
    this.ascii = bytes.length === text.length ? text : undefined;
  }

  /** The text of bytes [start, end): sliced from the source when it is ASCII, else decoded. */
  private text(start: number, end: number): string {
    return this.ascii !== undefined ? this.ascii.slice(start, end) : this.bytes.toString('utf8', start, end);
  }

  read(): JsonValue {
    const value = this.value();
    this.skipSpace();
    if (this.pos < this.bytes.length) this.fail(this.bytes[this.pos], 'after top-level value');
    return value;
  }

  private fail(c: number, context: string): never {
    throw new JsonSyntaxError(`invalid character ${quoteScannerByte(c)} ${context}`, this.pos);
  }

  private unexpectedEnd(): never {
    throw new JsonSyntaxError('unexpected end of JSON input', this.bytes.length);
  }

  /** Go feeds a space to the scanner at EOF: states in the middle of a token reject it. */
  private peekOrSpace(): number {
    return this.pos < this.bytes.length ? this.bytes[this.pos] : SPACE;
  }

  private skipSpace(): void {
    while (this.pos < this.bytes.length && isSpace(this.bytes[this.pos])) this.pos++;
  }

  private nextNonSpace(): number {
    this.skipSpace();
    if (this.pos >= this.bytes.length) this.unexpectedEnd();
    return this.bytes[this.pos];
  }

  private value(): JsonValue {
    const c = this.nextNonSpace();
    switch (c) {
      case 0x7b:
        return this.object();
      case 0x5b:
        return this.array();
      case 0x22:
        return { kind: 'string', value: this.string() };
      case 0x74:
        this.literal('true');
        return { kind: 'bool', value: true };
      case 0x66:
        this.literal('false');
        return { kind: 'bool', value: false };
      case 0x6e:
        this.literal('null');
        return { kind: 'null' };
      default:
        if (c === 0x2d || isDigit(c)) return this.number();
        return this.fail(c, 'looking for beginning of value');
    }
  }

  private enter(c: number): void {
    this.depth++;
    if (this.depth > this.maxDepth) this.fail(c, 'exceeded max depth');
    this.pos++;
  }

  private object(): JsonObject {
    this.enter(0x7b);
    const members: JsonMember[] = [];
    let c = this.nextNonSpace();
    if (c === 0x7d) {
      this.pos++;
      this.depth--;
      return { kind: 'object', members };
    }
    for (;;) {
      if (c !== 0x22) this.fail(c, 'looking for beginning of object key string');
      const key = this.string();
      c = this.nextNonSpace();
      if (c !== 0x3a) this.fail(c, 'after object key');
      this.pos++;
      members.push({ key, value: this.value() });
      c = this.nextNonSpace();
      if (c === 0x2c) {
        this.pos++;
        c = this.nextNonSpace();
        continue;
      }
      if (c === 0x7d) {
        this.pos++;
        this.depth--;
        return { kind: 'object', members };
      }
      this.fail(c, 'after object key:value pair');
    }
  }

  private array(): JsonArray {
    this.enter(0x5b);
    const items: JsonValue[] = [];
    let c = this.nextNonSpace();
    if (c === 0x5d) {
      this.pos++;
      this.depth--;
      return { kind: 'array', items };
    }
    for (;;) {
      items.push(this.value());
      if (items.length > this.maxArrayLength) {
        throw new JsonLimitError(`array longer than ${this.maxArrayLength} elements`, this.pos);
      }
      c = this.nextNonSpace();
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x5d) {
        this.pos++;
        this.depth--;
        return { kind: 'array', items };
      }
      this.fail(c, 'after array element');
    }
  }

  private literal(word: string): void {
    this.pos++;
    for (let i = 1; i < word.length; i++) {
      const c = this.peekOrSpace();
      if (c !== word.charCodeAt(i)) this.fail(c, `in literal ${word} (expecting '${word[i]}')`);
      this.pos++;
    }
  }

  private number(): JsonValue {
    const start = this.pos;
    if (this.bytes[this.pos] === 0x2d) {
      this.pos++;
      const c = this.peekOrSpace();
      if (!isDigit(c)) this.fail(c, 'in numeric literal');
    }
    if (this.bytes[this.pos] === 0x30) this.pos++;
    else while (this.pos < this.bytes.length && isDigit(this.bytes[this.pos])) this.pos++;
    if (this.bytes[this.pos] === 0x2e) {
      this.pos++;
      const c = this.peekOrSpace();
      if (!isDigit(c)) this.fail(c, 'after decimal point in numeric literal');
      while (this.pos < this.bytes.length && isDigit(this.bytes[this.pos])) this.pos++;
    }
    if (this.bytes[this.pos] === 0x65 || this.bytes[this.pos] === 0x45) {
      this.pos++;
      if (this.bytes[this.pos] === 0x2b || this.bytes[this.pos] === 0x2d) this.pos++;
      const c = this.peekOrSpace();
      if (!isDigit(c)) this.fail(c, 'in exponent of numeric literal');
      while (this.pos < this.bytes.length && isDigit(this.bytes[this.pos])) this.pos++;
    }
    return { kind: 'number', text: this.text(start, this.pos) };
  }

  /** Reads a string token starting at the opening quote; unquotes it the way Go's unquote does. */
  private string(): string {
    this.pos++;
    let out = '';
    let runStart = this.pos;
    for (;;) {
      if (this.pos >= this.bytes.length) this.unexpectedEnd();
      const c = this.bytes[this.pos];
      if (c === 0x22) {
        out += this.text(runStart, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail(c, 'in string literal');
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += this.text(runStart, this.pos);
      this.pos++;
      const e = this.peekOrSpace();
      if (SIMPLE_ESCAPES[e] !== undefined) {
        out += SIMPLE_ESCAPES[e];
        this.pos++;
      } else if (e === 0x75) {
        this.pos++;
        out += this.unicodeEscape();
      } else {
        this.fail(e, 'in string escape code');
      }
      runStart = this.pos;
    }
  }

  private hex4(): number {
    let r = 0;
    for (let i = 0; i < 4; i++) {
      const c = this.peekOrSpace();
      const h = hexValue(c);
      if (h < 0) this.fail(c, 'in \\u hexadecimal character escape');
      r = r * 16 + h;
      this.pos++;
    }
    return r;
  }

  /** Go's unquote: a valid surrogate pair combines, any other surrogate becomes U+FFFD. */
  private unicodeEscape(): string {
    const r = this.hex4();
    if (r < 0xd800 || r > 0xdfff) return String.fromCharCode(r);
    if (r <= 0xdbff && this.bytes[this.pos] === 0x5c && this.bytes[this.pos + 1] === 0x75) {
      const save = this.pos;
      this.pos += 2;
      const r2 = this.hex4();
      if (r2 >= 0xdc00 && r2 <= 0xdfff) return String.fromCharCode(r, r2);
      // Not a pair: Go emits U+FFFD for the first and re-reads the second escape on its own.
      this.pos = save;
    }
    return '\ufffd';
  }
}

/** Parses `text` (as its UTF-8 bytes) or throws a JsonSyntaxError with Go's message. */
export function readJson(text: string, opts: ReadJsonOptions = {}): JsonValue {
  return new Reader(text, Buffer.from(text, 'utf8'), opts.maxDepth ?? DEFAULT_MAX_JSON_DEPTH, opts.maxArrayLength ?? DEFAULT_MAX_JSON_ARRAY_LENGTH).read();
}

/** Paths of repeated object keys (`spec.type`, `spec.ports[0].name`), in document order. */
export function duplicateKeyPaths(value: JsonValue, path = ''): string[] {
  const out: string[] = [];
  if (value.kind === 'array') {
    value.items.forEach((item, i) => out.push(...duplicateKeyPaths(item, `${path}[${i}]`)));
  } else if (value.kind === 'object') {
    const seen = new Set<string>();
    for (const m of value.members) {
      const childPath = path ? `${path}.${m.key}` : m.key;
      if (seen.has(m.key)) out.push(childPath);
      seen.add(m.key);
      out.push(...duplicateKeyPaths(m.value, childPath));
    }
  }
  return out;
}
