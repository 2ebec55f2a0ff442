// A bench server is up once it prints "serving https://…" on stdout. Only that line is read:
// svctrail logs every write to stdout, and a log kept and scanned whole after each chunk costs
// the bench process (the one running the load) more CPU per request the longer a case runs. That
// slowed bench:framework's svctrail write figures as a case went on (136 → 74 req/s over 40 s at
// one connection, where the same server answered 286 → 524 req/s).
import type { Readable } from 'node:stream';

/** Calls `started` with the server's URL once its serving line has arrived; later output is drained unread. */
export function onServingLine(stdout: Readable, started: (url: string) => void): void {
  let head = '';
  let seen = false;
  stdout.on('data', (chunk: Buffer) => {
    if (seen) return;
    head += chunk.toString();
    const match = /serving (https:\/\/\S+)/.exec(head);
    if (!match) return;
    seen = true;
    head = '';
    started(match[1]);
  });
}
