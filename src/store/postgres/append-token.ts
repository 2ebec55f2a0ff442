// The resourceVersion is the log's to hand out, under the append lock: a write's texts are
// decided before it, with a token standing for it that svctrail_append replaces.
import { randomBytes } from 'node:crypto';

/** Stands for the write's resourceVersion in its texts until the log hands it out (unguessable, JSON-safe). */
export function appendToken(): string {
  return `rv~${randomBytes(12).toString('base64url')}`;
}

/** How often `token` occurs in `text` (a text must hold it exactly where the resourceVersion goes). */
export function occurrences(text: string, token: string): number {
  let count = 0;
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + token.length)) count++;
  return count;
}
