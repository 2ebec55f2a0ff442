import { CsvParseError, formatCsvField, parseCsvRecords } from './csv-records';

const fields = (text: string) => parseCsvRecords(text).map((record) => record.fields);

describe('parseCsvRecords (Go encoding/csv rules)', () => {
  it.each([
    ['plain fields', 'a,b,c\n', [['a', 'b', 'c']]],
    ['no trailing newline', 'a,b', [['a', 'b']]],
    ['empty fields kept', 'a,,c,\n', [['a', '', 'c', '']]],
    ['blank lines skipped', '\n\na,b\n\r\n\nc\n', [['a', 'b'], ['c']]],
    [
      'CRLF normalised',
      'a,b\r\nc,d\r\n',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    ['trailing CR before EOF dropped', 'a,b\r', [['a', 'b']]],
    ['quoted comma', 't,u,i,"g1,g2"\n', [['t', 'u', 'i', 'g1,g2']]],
    ['doubled quote', '"say ""hi""",x\n', [['say "hi"', 'x']]],
    ['quoted field spans lines', '"a\r\nb",c\nd\n', [['a\nb', 'c'], ['d']]],
    ['empty quoted field', '"",x\n', [['', 'x']]],
    ['leading space is data', ' a, b\n', [[' a', ' b']]],
    ['no comment character', '# t,u,i\n', [['# t', 'u', 'i']]],
    ['whitespace-only line is a record', '  \n', [['  ']]],
  ])('%s', (_name, text, expected) => {
    expect(fields(text)).toEqual(expected);
  });

  it('reports the starting line of each record', () => {
    expect(parseCsvRecords('\na\n"b\nc"\nd').map((record) => record.line)).toEqual([2, 3, 5]);
  });

  it.each([
    ['bare quote', 'a,b"c\n', 'parse error on line 1, column 4: bare " in non-quoted field'],
    ['space before quote', 'a, "b"\n', 'parse error on line 1, column 4: bare " in non-quoted field'],
    ['text after closing quote', '"a"b,c\n', 'parse error on line 1, column 4: extraneous or missing " in quoted-field'],
    ['unterminated quote', 'x\n"abc\n', 'parse error on line 2, column 6: extraneous or missing " in quoted-field'],
    ['error after a multi-line field', '"a\nb"x\n', 'record on line 1; parse error on line 2, column 3: extraneous or missing " in quoted-field'],
    ['byte columns', 'é,a"\n', 'parse error on line 1, column 5: bare " in non-quoted field'],
  ])('rejects %s', (_name, text, message) => {
    expect(() => parseCsvRecords(text)).toThrow(CsvParseError);
    expect(() => parseCsvRecords(text)).toThrow(message);
  });
});

describe('formatCsvField', () => {
  it.each([
    ['abc', 'abc'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    [' lead', '" lead"'],
    ['line\nbreak', '"line\nbreak"'],
  ])('%j -> %j', (field, expected) => {
    expect(formatCsvField(field)).toBe(expected);
  });

  it('round-trips through the parser', () => {
    const record = ['tok', 'a "quoted", user', ' x', 'multi\nline', ''];
    expect(fields(record.map((field) => formatCsvField(field)).join(',') + '\n')).toEqual([record]);
  });
});
