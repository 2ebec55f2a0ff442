import { jsonPatchText } from '../domain/json-patch-diff';
import { encodeRevisionObject, encodeRevisionPatch, objectResourceVersion, patchResourceVersion } from './revision-texts';
import { decodeStoredText } from './stored-text-codec';

const object = (resourceVersion: string, labels: Record<string, string> = {}) =>
  JSON.stringify({ kind: 'Service', apiVersion: 'v1', metadata: { name: 'web', namespace: 'shop', uid: 'u-1', resourceVersion, labels }, spec: { type: 'ClusterIP' }, status: { loadBalancer: {} } });
const at = (text: string, span: { start: number; end: number } | undefined) => (span ? text.slice(span.start, span.end) : undefined);

describe("a revision's texts as stored", () => {
  it("given a stored object, then its resourceVersion is metadata's, even with a label of that name", () => {
    const json = object('42', { resourceVersion: 'not-this' });
    expect(at(json, objectResourceVersion(json))).toBe('42');
  });

  it('given the patch of an update, then its resourceVersion is the value that replaces /metadata/resourceVersion, even when an earlier operation holds that key', () => {
    const patch = jsonPatchText(object('41', { a: 'b' }), object('42', { resourceVersion: 'x' }));
    expect(patch.indexOf('"resourceVersion":"x"')).toBeLessThan(patch.indexOf('/metadata/resourceVersion'));
    expect(at(patch, patchResourceVersion(patch))).toBe('42');
  });

  it("given the patch of a create (the whole object added), then its resourceVersion is the object's", () => {
    const patch = jsonPatchText(null, object('7'));
    expect(at(patch, patchResourceVersion(patch))).toBe('7');
  });

  it('given a patch that does not set the resourceVersion, then it has no span', () => {
    expect(patchResourceVersion('[{"op":"remove","path":"/metadata/labels/a"}]')).toBeUndefined();
  });

  it('when encoded, then both keep the resourceVersion last (format 2) and decode to themselves', () => {
    const json = object('12345');
    const patch = jsonPatchText(object('12344'), json);
    for (const [stored, text] of [
      [encodeRevisionObject(json), json],
      [encodeRevisionPatch(patch), patch],
    ] as const) {
      expect(stored[0]).toBe(2);
      expect(stored.subarray(-5).toString()).toBe('12345');
      expect(decodeStoredText(stored)).toBe(text);
    }
  });
});
