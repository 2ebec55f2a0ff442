import type { IncomingMessage } from 'node:http';

/** kube-apiserver's request body limit (3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** How much of a refused body is read and dropped before the 413 answer (see discardBody). */
export const MAX_DISCARDED_BYTES = 16 * 1024 * 1024;

/**
 * Reads and drops the rest of a refused request body, up to `maxBytes`, and resolves when the
 * body has ended (or that much was dropped). Answering and closing while the body still arrives
 * makes the kernel reset the connection, and a client still sending (Node.js clients do) then
 * sees the reset instead of the 413 Status. A body beyond the bound is not waited for; slow
 * clients are cut off by the request timeout.
 */
export function discardBody(raw: IncomingMessage, maxBytes = MAX_DISCARDED_BYTES): Promise<void> {
  return new Promise((resolve) => {
    if (raw.readableEnded || raw.destroyed) return resolve();
    let dropped = 0;
    const finish = () => {
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('error', finish);
      raw.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > maxBytes) finish();
    };
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('error', finish);
    raw.once('close', finish);
    raw.resume();
  });
}
