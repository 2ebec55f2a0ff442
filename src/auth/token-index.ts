// Bearer-token lookup over the token file's records. Every lookup compares against every entry
// with timingSafeEqual on SHA-256 digests, so the time taken reveals neither which entry
// matched nor how long a matching prefix was.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { TokenRecord } from './token-file';
import type { UserInfo } from './user-info';

interface IndexedToken {
  digest: Buffer;
  user: UserInfo;
}

export class TokenIndex {
  private constructor(private readonly entries: readonly IndexedToken[]) {}

  /** Later records win over earlier ones with the same token, as in kube-apiserver's map. */
  static fromRecords(records: readonly TokenRecord[]): TokenIndex {
    const byToken = new Map<string, TokenRecord>();
    for (const record of records) if (record.token !== '') byToken.set(record.token, record);
    return new TokenIndex(
      [...byToken.values()].map((record) => ({
        digest: digest(record.token),
        user: {
          name: record.user,
          ...(record.uid !== '' ? { uid: record.uid } : {}),
          groups: [...record.groups],
        },
      })),
    );
  }

  static empty(): TokenIndex {
    return new TokenIndex([]);
  }

  get size(): number {
    return this.entries.length;
  }

  /** A copy of the user the token belongs to, or null. */
  lookup(token: string): UserInfo | null {
    const presented = digest(token);
    let found: UserInfo | null = null;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, presented) && found === null) found = entry.user;
    }
    return found && { ...found, groups: [...found.groups] };
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
