import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { EVENT_DATA_DICTIONARY } from './event-data-dictionary';
import { decodeStoredText, encodeEventText, encodeStoredText, KEPT_INFLATE, storedTextBytes } from './stored-text-codec';
import { STORED_TEXT_DICTIONARY_1 } from './stored-text-dictionary';

const SERVICE = JSON.stringify({
  kind: 'Service',
  apiVersion: 'v1',
  metadata: { name: 'web', namespace: 'shop', uid: '0a84da91-bc81-4867-a9fb-c5f6ae75fd55', resourceVersion: '15219', labels: { app: 'web' } },
  spec: { ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 'web' }, type: 'LoadBalancer' },
  status: { loadBalancer: { ingress: [{ ip: '203.0.113.7', ipMode: 'VIP' }] } },
});

describe('the stored-text codec', () => {
  it('given a Service, when encoded, then it is deflated against the dictionary (format 1) to a fraction of its size and decodes to the same text', () => {
    const stored = encodeStoredText(SERVICE);
    expect(stored[0]).toBe(1);
    expect(stored.length).toBeLessThan(SERVICE.length / 3);
    expect(decodeStoredText(stored)).toBe(SERVICE);
  });

  it('given a text deflate does not shorten, when encoded, then it is stored plain (format 0)', () => {
    const stored = encodeStoredText('x');
    expect([...stored]).toEqual([0, 'x'.charCodeAt(0)]);
    expect(decodeStoredText(stored)).toBe('x');
  });

  it('given a span, when encoded, then its bytes are the last ones, raw (format 2), and the text decodes whole', () => {
    const start = SERVICE.indexOf('15219');
    const stored = encodeStoredText(SERVICE, { start, end: start + 5 });
    expect(stored[0]).toBe(2);
    expect(stored.subarray(-5).toString()).toBe('15219');
    expect(decodeStoredText(stored)).toBe(SERVICE);
  });

  it('given the bytes before a span with other digits appended, when decoded, then the text has those digits in the span (what PostgreSQL appends)', () => {
    const start = SERVICE.indexOf('15219');
    const stored = encodeStoredText(SERVICE, { start, end: start + 5 });
    const appended = Buffer.concat([stored.subarray(0, -5), Buffer.from('987654321')]);
    expect(decodeStoredText(appended)).toBe(SERVICE.replace('15219', '987654321'));
  });

  it('given a row written before the encoding (a string, or PostgreSQL bytes after a 0), when decoded, then it is the text', () => {
    expect(decodeStoredText(SERVICE)).toBe(SERVICE);
    expect(decodeStoredText(Buffer.concat([Buffer.from([0]), Buffer.from('[{"op":"remove","path":"/a"}]')]))).toBe('[{"op":"remove","path":"/a"}]');
  });

  it('given a text longer than one output buffer, when encoded and decoded, then it comes back whole', () => {
    const long = JSON.stringify({ items: Array.from({ length: 20_000 }, (_, i) => ({ name: `svc-${i}`, ip: `10.0.${i % 256}.${i % 7}` })) });
    expect(long.length).toBeGreaterThan(256 * 1024);
    expect(decodeStoredText(encodeStoredText(long))).toBe(long);
    const start = long.indexOf('svc-19999');
    expect(decodeStoredText(encodeStoredText(long, { start, end: start + 9 }))).toBe(long);
  });

  it('given an unknown format or a corrupt body, when decoded, then it throws, and the next text still decodes', () => {
    expect(() => decodeStoredText(Buffer.from([9, 1, 2]))).toThrow('unknown format 9');
    expect(() => decodeStoredText(Buffer.from([1, 0xff, 0xff, 0xff]))).toThrow();
    expect(() => decodeStoredText(Buffer.from([2, 0x80]))).toThrow('cut short');
    expect(decodeStoredText(encodeStoredText(SERVICE))).toBe(SERVICE);
  });

  it('writes the bytes of one-shot raw deflate with the dictionary, the same after other texts, and inflates on a kept context (this Node has its shape)', () => {
    expect(KEPT_INFLATE).toBe(true);
    const once = encodeStoredText(SERVICE);
    expect(once.subarray(1)).toEqual(deflateRawSync(Buffer.from(SERVICE), { level: 6, windowBits: 14, memLevel: 4, dictionary: STORED_TEXT_DICTIONARY_1 }));
    for (const other of [SERVICE.replace(/web/g, 'a-much-longer-name-than-web'), 'x'.repeat(5000)]) encodeStoredText(other);
    expect(encodeStoredText(SERVICE)).toEqual(once);
  });

  it("keeps format 1's dictionary as it was when rows were written with it (a new one is a new format)", () => {
    expect(createHash('sha256').update(STORED_TEXT_DICTIONARY_1).digest('hex')).toBe('0fa7b7ad8a5b29c9db0ffa687fc78190b5040fa5b05988fac7fa1d6eda1cefa9');
  });

  it("given an event's data, when encoded as one, then it is deflated against the events' dictionary (format 3), and decodes to the same text", () => {
    const condition = JSON.stringify({
      condition: { type: 'LoadBalancerReady', status: 'True', observedGeneration: 1, lastTransitionTime: '2026-01-01T00:14:47Z', reason: 'IPAllocated', message: 'ready' },
      previous: null,
    });
    const stored = encodeEventText(condition);
    expect(stored[0]).toBe(3);
    expect(stored.length).toBeLessThan(condition.length / 4);
    expect(decodeStoredText(stored)).toBe(condition);
    // The same text, the same bytes, whatever came before (rows are compared byte for byte).
    encodeEventText('{"ingress":[],"previous":[]}');
    expect(encodeEventText(condition)).toEqual(stored);
    expect(encodeEventText('x')).toEqual(Buffer.from([0, 'x'.charCodeAt(0)]));
  });

  it("keeps format 3's dictionary as it was when rows were written with it", () => {
    expect(createHash('sha256').update(EVENT_DATA_DICTIONARY).digest('hex')).toBe('850ba6a67299f74a4a7d5a221d1d01dadd495561921fcfc1ffb27f5327bf707b');
  });

  it('counts the bytes a stored text takes', () => {
    expect(storedTextBytes('é')).toBe(2);
    expect(storedTextBytes(Buffer.from([1, 2, 3]))).toBe(3);
  });

  it('for any well-formed string (JSON.stringify writes no other) and any span of it, decode(encode(x)) is x', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.nat(), fc.nat(), (text, a, b) => {
        expect(decodeStoredText(encodeStoredText(text))).toBe(text);
        expect(decodeStoredText(encodeEventText(text))).toBe(text);
        // A span on code point boundaries (a resourceVersion is ASCII; any span round-trips that does not split a pair).
        const points = [...text];
        const [i, j] = [a % (points.length + 1), b % (points.length + 1)].sort((x, y) => x - y);
        const start = points.slice(0, i).join('').length;
        const end = points.slice(0, j).join('').length;
        expect(decodeStoredText(encodeStoredText(text, { start, end }))).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });
});
