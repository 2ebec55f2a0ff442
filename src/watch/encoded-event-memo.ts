// The bytes of one watch event, produced once however many watchers send it. A live change hands
// every watcher the same object, so the memo is keyed by that object (weakly: it goes when the
// change does), then by the encoding and the event type. The encoding key must name everything
// the bytes depend on (the object encoder and the framing); watchers with equal keys share bytes.
export class EncodedEventMemo<V> {
  private readonly byObject = new WeakMap<object, Map<unknown, Map<string, V>>>();

  get(object: unknown, type: string, encoding: unknown, encode: () => V): V {
    if (typeof object !== 'object' || object === null) return encode();
    let byEncoding = this.byObject.get(object);
    if (!byEncoding) this.byObject.set(object, (byEncoding = new Map()));
    let byType = byEncoding.get(encoding);
    if (!byType) byEncoding.set(encoding, (byType = new Map()));
    let bytes = byType.get(type);
    if (bytes === undefined) byType.set(type, (bytes = encode()));
    return bytes;
  }
}
