// CSV exactly as Go's encoding/csv Reader reads it with the settings kube-apiserver's token file
// uses: Comma ',', no comment character, LazyQuotes false, TrimLeadingSpace false,
// FieldsPerRecord -1 (any count). Ported from Go's readRecord so that a file accepted here is
// accepted by kube-apiserver and vice versa: empty lines are skipped, "\r\n" becomes "\n",
// a quoted field may span lines, `""` is a literal quote, and any other stray quote is an error.

export const ERR_BARE_QUOTE = 'bare " in non-quoted field';
export const ERR_QUOTE = 'extraneous or missing " in quoted-field';

/** Same text as Go's csv.ParseError; `column` is a 1-based byte index, as in Go 1.17+. */
export class CsvParseError extends Error {
  constructor(
    readonly startLine: number,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(startLine !== line ? `record on line ${startLine}; parse error on line ${line}, column ${column}: ${reason}` : `parse error on line ${line}, column ${column}: ${reason}`);
    this.name = 'CsvParseError';
  }
}

export interface CsvRecord {
  /** The physical line the record starts on (1-based). */
  line: number;
  fields: string[];
}

export function parseCsvRecords(text: string): CsvRecord[] {
  const reader = new LineReader(text);
  const records: CsvRecord[] = [];
  for (;;) {
    const record = readRecord(reader);
    if (!record) return records;
    records.push(record);
  }
}

/** Quotes a field only when Go's csv.Writer would (fieldNeedsQuotes), or when forced. */
export function formatCsvField(field: string, alwaysQuote = false): string {
  const needsQuotes = alwaysQuote || (field !== '' && (field === '\\.' || /[",\r\n]/.test(field) || field.startsWith(' ') || field.startsWith('\t')));
  return needsQuotes ? `"${field.replace(/"/g, '""')}"` : field;
}

class LineReader {
  private offset = 0;
  lineNumber = 0;

  constructor(private readonly text: string) {}

  /** The next physical line with "\r\n" normalised to "\n"; null at end of input. */
  next(): string | null {
    if (this.offset >= this.text.length) return null;
    const newline = this.text.indexOf('\n', this.offset);
    let line: string;
    if (newline >= 0) {
      line = this.text.slice(this.offset, newline + 1);
      this.offset = newline + 1;
    } else {
      line = this.text.slice(this.offset);
      this.offset = this.text.length;
      // Go drops a trailing "\r" before EOF.
      if (line.endsWith('\r')) line = line.slice(0, -1);
    }
    this.lineNumber++;
    if (line.endsWith('\r\n')) line = line.slice(0, -2) + '\n';
    return line;
  }
}

function lengthNL(line: string): number {
  return line.endsWith('\n') ? 1 : 0;
}

function byteColumn(physicalLine: string, charIndex: number): number {
  return Buffer.byteLength(physicalLine.slice(0, charIndex)) + 1;
}

function readRecord(reader: LineReader): CsvRecord | null {
  let line: string | null;
  do {
    line = reader.next();
    if (line === null) return null;
  } while (line.length === lengthNL(line)); // skip empty lines

  const startLine = reader.lineNumber;
  const fields: string[] = [];
  // `physical` is the whole current physical line; `pos` indexes into it.
  let physical = line;
  let pos = 0;

  for (;;) {
    if (physical[pos] !== '"') {
      const comma = physical.indexOf(',', pos);
      const end = comma >= 0 ? comma : physical.length - lengthNL(physical);
      const field = physical.slice(pos, end);
      const quote = field.indexOf('"');
      if (quote >= 0) {
        throw new CsvParseError(startLine, reader.lineNumber, byteColumn(physical, pos + quote), ERR_BARE_QUOTE);
      }
      fields.push(field);
      if (comma < 0) return { line: startLine, fields };
      pos = comma + 1;
      continue;
    }

    // Quoted field.
    pos++;
    let value = '';
    for (;;) {
      const quote = physical.indexOf('"', pos);
      if (quote >= 0) {
        value += physical.slice(pos, quote);
        pos = quote + 1;
        const rest = physical.slice(pos);
        if (rest.startsWith('"')) {
          value += '"';
          pos++;
        } else if (rest.startsWith(',')) {
          pos++;
          fields.push(value);
          break;
        } else if (rest.length === lengthNL(rest)) {
          fields.push(value);
          return { line: startLine, fields };
        } else {
          // Go reports the column just after the offending quote.
          throw new CsvParseError(startLine, reader.lineNumber, byteColumn(physical, quote + 1), ERR_QUOTE);
        }
      } else if (pos < physical.length) {
        // No closing quote on this line: the newline belongs to the field.
        value += physical.slice(pos);
        const nextLine = reader.next();
        if (nextLine === null) {
          throw new CsvParseError(startLine, reader.lineNumber, byteColumn(physical, physical.length), ERR_QUOTE);
        }
        physical = nextLine;
        pos = 0;
      } else {
        throw new CsvParseError(startLine, reader.lineNumber, byteColumn(physical, pos), ERR_QUOTE);
      }
    }
  }
}
