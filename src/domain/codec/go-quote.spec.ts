import { strconvQuote } from './go-quote';

describe('strconvQuote (Go %q)', () => {
  it.each([
    ['spec.foo', '"spec.foo"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['tab\there\nnl\x07\v', '"tab\\there\\nnl\\a\\v"'],
    ['\x01\x7f', '"\\x01\\x7f"'],
    ['é 😀', '"é 😀"'],
    ['\u00a0\u00ad\u200b', '"\\u00a0\\u00ad\\u200b"'],
    ['\u{e0001}', '"\\U000e0001"'],
  ])('%j -> %s', (input, quoted) => {
    expect(strconvQuote(input)).toBe(quoted);
  });
});
