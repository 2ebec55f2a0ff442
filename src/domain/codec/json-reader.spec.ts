import fc from 'fast-check';
import { DEFAULT_MAX_JSON_DEPTH, duplicateKeyPaths, readJson } from './json-reader';
import { JsonSyntaxError } from './json-syntax-error';
import { fromPlainJson, toPlainJson } from './json-value';

function syntaxError(text: string, maxDepth?: number): string {
  try {
    readJson(text, { maxDepth });
  } catch (e) {
    expect(e).toBeInstanceOf(JsonSyntaxError);
    return (e as JsonSyntaxError).message;
  }
  throw new Error(`expected ${JSON.stringify(text)} to fail`);
}

describe('readJson', () => {
  it('keeps number literals as written', () => {
    expect(readJson('[1.50, -0, 1e400, 2147483648]')).toEqual({
      kind: 'array',
      items: [
        { kind: 'number', text: '1.50' },
        { kind: 'number', text: '-0' },
        { kind: 'number', text: '1e400' },
        { kind: 'number', text: '2147483648' },
      ],
    });
  });

  it('keeps every member in order, duplicates included', () => {
    const v = readJson('{"a":1,"b":{"c":true,"c":false},"a":null}');
    expect(v.kind === 'object' && v.members.map((m) => m.key)).toEqual(['a', 'b', 'a']);
    expect(duplicateKeyPaths(v)).toEqual(['b.c', 'a']);
    expect(duplicateKeyPaths(readJson('{"spec":{"ports":[{"name":"a","name":"b"}],"type":"x","type":"y"}}'))).toEqual(['spec.ports[0].name', 'spec.type']);
  });

  it('treats __proto__ and constructor as ordinary data', () => {
    const plain = toPlainJson(readJson('{"__proto__":{"polluted":true},"constructor":1}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBeNull();
    expect(Object.keys(plain)).toEqual(['__proto__', 'constructor']);
    expect(plain['__proto__']).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('unquotes escapes, surrogate pairs and lone surrogates the way Go does', () => {
    const s = (text: string): unknown => toPlainJson(readJson(text));
    expect(s('"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t"')).toBe('a"b\\c/d\b\f\n\r\t');
    expect(s('"\\u00e9\\ud83d\\ude00"')).toBe('é😀');
    expect(s('"\\ud800x"')).toBe('\ufffdx');
    expect(s('"\\udc00"')).toBe('\ufffd');
    expect(s('"\\ud800\\u0041"')).toBe('\ufffdA');
    expect(s('"é\u007f"')).toBe('é\u007f');
    // A lone surrogate in the JS text reaches the reader as the UTF-8 of U+FFFD.
    expect(s('"\ud800"')).toBe('\ufffd');
  });

  it.each([
    ['', 'unexpected end of JSON input'],
    ['   ', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['"abc', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['-', "invalid character ' ' in numeric literal"],
    ['-a', "invalid character 'a' in numeric literal"],
    ['1.', "invalid character ' ' after decimal point in numeric literal"],
    ['1.e5', "invalid character 'e' after decimal point in numeric literal"],
    ['1e', "invalid character ' ' in exponent of numeric literal"],
    ['1e+x', "invalid character 'x' in exponent of numeric literal"],
    ['tru', "invalid character ' ' in literal true (expecting 'e')"],
    ['{"a":tx}', "invalid character 'x' in literal true (expecting 'r')"],
    ['nul', "invalid character ' ' in literal null (expecting 'l')"],
    ['fals e', "invalid character ' ' in literal false (expecting 'e')"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"a\tb"', "invalid character '\\t' in string literal"],
    ['"\u0001"', "invalid character '\\x01' in string literal"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\', "invalid character ' ' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['"\\u12', "invalid character ' ' in \\u hexadecimal character escape"],
    ['\ufeff{}', "invalid character 'ï' looking for beginning of value"],
    ['é', "invalid character 'Ã' looking for beginning of value"],
    ['\u0000', "invalid character '\\x00' looking for beginning of value"],
    ['{"a":1}}', "invalid character '}' after top-level value"],
  ])("fails %j with Go's message", (text, message) => {
    expect(syntaxError(text)).toBe(message);
  });

  it('enforces the maximum depth', () => {
    expect(DEFAULT_MAX_JSON_DEPTH).toBe(100);
    expect(() => readJson('['.repeat(100) + ']'.repeat(100))).not.toThrow();
    expect(syntaxError('['.repeat(101) + ']'.repeat(101))).toBe("invalid character '[' exceeded max depth");
    expect(syntaxError('{"a":{"b":{}}}', 2)).toBe("invalid character '{' exceeded max depth");
  });

  it('reports the byte offset of the error', () => {
    expect.assertions(1);
    try {
      readJson('{"é":x}');
    } catch (e) {
      expect((e as JsonSyntaxError).offset).toBe(6);
    }
  });

  it('reads an ASCII text (sliced from the text) exactly as a text with other characters (decoded from its bytes)', () => {
    // The same members after a first one that is ASCII or not: only the reading path differs.
    const ascii = fc.string({ unit: fc.constantFrom(...' az09"\\/\n\t{}[]:,.-+e'.split('')), maxLength: 12 });
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.tuple(ascii, ascii)), (value, escaped) => {
        const members = `"v":${JSON.stringify(value)},"s":${JSON.stringify(Object.fromEntries(escaped))},"n":[0,-1.5e3,12345678901234567890]`;
        const viaSlices = readJson(`{"first":"e",${members}}`);
        const viaBytes = readJson(`{"first":"é",${members}}`);
        expect(viaSlices.kind === 'object' && viaBytes.kind === 'object').toBe(true);
        if (viaSlices.kind !== 'object' || viaBytes.kind !== 'object') return;
        expect(viaSlices.members.slice(1)).toEqual(viaBytes.members.slice(1));
        expect(toPlainJson(viaSlices.members[1].value)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips plain values', () => {
    const value = { a: [1, 'x', true, null, { b: 1.5 }] };
    expect(toPlainJson(fromPlainJson(value))).toEqual(value);
  });
});
