// A served OpenAPI representation: its bytes plus the hash kube-apiserver derives from them
// (upper-case hex SHA-512), used both as the ETag and as the `?hash=` of /openapi/v3 URLs.
import { createHash } from 'node:crypto';

export interface PublishedDocument {
  readonly bytes: Buffer;
  readonly hash: string;
  /** The quoted strong entity tag for the ETag header. */
  readonly etag: string;
}

export function publishDocument(bytes: Buffer): PublishedDocument {
  const hash = createHash('sha512').update(bytes).digest('hex').toUpperCase();
  return { bytes, hash, etag: `"${hash}"` };
}
