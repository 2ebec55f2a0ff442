// A Service as the projections store it. Stored objects are canonical (the JSON of an encoded
// Service, key order included), so a JSON answer sends the stored text as is; the object is
// parsed only when a representation needs it (a Table, a selector, protobuf, YAML).
import type { Service } from '../domain/service.types';

/** How every stored Service begins; a list item is the same text without kind and apiVersion. */
const TYPE_META_PREFIX = '{"kind":"Service","apiVersion":"v1",';

export class StoredService {
  private parsed?: Service;

  constructor(
    readonly json: string,
    object?: Service,
  ) {
    this.parsed = object;
  }

  static of(object: Service): StoredService {
    return new StoredService(JSON.stringify(object), object);
  }

  get object(): Service {
    return (this.parsed ??= JSON.parse(this.json) as Service);
  }

  /** The object as a list item (kube-apiserver lists items without their TypeMeta). */
  get item(): Service {
    const { kind: _kind, apiVersion: _apiVersion, ...item } = this.object;
    return item;
  }

  /**
   * Appends `separator` and the JSON of `item` to a body's pieces: the stored text sliced after
   * its usual prefix, not copied.
   */
  pushItemJson(pieces: string[], separator: string): void {
    if (this.json.startsWith(TYPE_META_PREFIX)) pieces.push(`${separator}{`, this.json.slice(TYPE_META_PREFIX.length));
    else pieces.push(separator, JSON.stringify(this.item));
  }
}
