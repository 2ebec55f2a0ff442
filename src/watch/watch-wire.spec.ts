import fc from 'fast-check';
import { withStoredJson } from '../domain/codec/stored-object-json';
import { JSON_WATCH_WIRE } from './watch-wire';

describe('JSON_WATCH_WIRE', () => {
  it('given an object marked with the text it was parsed from, when framed, then the bytes are those of encoding the object', () => {
    fc.assert(
      fc.property(fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'), fc.object(), (type, value) => {
        const json = JSON.stringify(value);
        const parsed = JSON.parse(json) as object;
        expect(JSON_WATCH_WIRE.frame(type, withStoredJson(JSON.parse(json) as object, json))).toBe(JSON_WATCH_WIRE.frame(type, parsed));
      }),
    );
  });

  it('given a marked object, when framed, then its stored text is spliced as it is', () => {
    const json = '{"kind":"Service","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"7"}}';
    const object = withStoredJson(JSON.parse(json) as object, json);
    // Proof that the text, not the object, is what went out: a text that differs from the object.
    const marked = withStoredJson({ different: true }, json);
    expect(JSON_WATCH_WIRE.frame('MODIFIED', marked)).toBe(`{"type":"MODIFIED","object":${json}}\n`);
    expect(JSON_WATCH_WIRE.frame('MODIFIED', object)).toBe(`${JSON.stringify({ type: 'MODIFIED', object: JSON.parse(json) })}\n`);
  });
});
