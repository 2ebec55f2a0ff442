import { JsonLines } from './json-lines';

describe('JsonLines', () => {
  const events = [
    { type: 'ADDED', object: { name: 'ü-ß-€-😀' } },
    { type: 'BOOKMARK', object: { metadata: { resourceVersion: '7' } } },
    { type: 'MODIFIED', object: {} },
  ];
  const bytes = Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(''));

  const split = (sizes: (at: number) => number) => {
    const sut = new JsonLines();
    const out: unknown[] = [];
    for (let at = 0; at < bytes.length;) {
      const size = Math.max(1, sizes(at));
      out.push(...sut.push(bytes.subarray(at, at + size)));
      at += size;
    }
    out.push(...sut.end());
    return out;
  };

  it('should yield every object whole when the bytes come one at a time (multi-byte characters split)', () => {
    expect(split(() => 1)).toEqual(events);
  });

  it('should yield every object whole for chunks of every size, several lines per chunk included', () => {
    for (let size = 2; size <= bytes.length; size++) expect(split(() => size)).toEqual(events);
  });

  it('should yield objects as soon as their line ends, not at the end of the answer', () => {
    const sut = new JsonLines();
    expect(sut.push(Buffer.from('{"a":1}\n{"b"'))).toEqual([{ a: 1 }]);
    expect(sut.push(Buffer.from(':2}\n'))).toEqual([{ b: 2 }]);
    expect(sut.end()).toEqual([]);
  });

  it('should take a last line without its newline, and skip blank lines and CRLF endings', () => {
    const sut = new JsonLines();
    expect(sut.push(Buffer.from('\n\r\n{"a":1}\r\n  \n{"b":2}'))).toEqual([{ a: 1 }]);
    expect(sut.end()).toEqual([{ b: 2 }]);
  });

  it('should say what it got when a line is not JSON', () => {
    expect(() => new JsonLines().push(Buffer.from('<html>502 Bad Gateway</html>\n'))).toThrow(/a watch line that is not JSON: "<html>502 Bad Gateway<\/html>"/);
    const truncated = new JsonLines();
    truncated.push(Buffer.from('{"type":"ADD'));
    expect(() => truncated.end()).toThrow(/not JSON/);
  });

  it('should refuse a line longer than its limit instead of buffering without end', () => {
    const sut = new JsonLines('the source', 10);
    expect(sut.push(Buffer.from('{"a":"12'))).toEqual([]);
    expect(() => sut.push(Buffer.from('345678"'))).toThrow(/longer than 10 bytes/);
  });
});
