// One address whose server changes underneath it, as a CloudNativePG `-rw` Service or a Patroni
// HAProxy moves to the new primary: a TCP proxy on 127.0.0.1 forwarding to a target port. Moving
// it ends every session through it (HAProxy's on-marked-down shutdown-sessions; CloudNativePG
// fences the old primary), so nothing keeps talking to the old server through the new address.
// Holding it stops the bytes from the server (a slow or partitioned link: a standby streaming
// through it falls behind).
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface MovingAddress {
  /** The port clients connect to. */
  readonly port: number;
  /** Where new connections go from now on; every open one is cut. */
  moveTo(targetPort: number): void;
  /** While held, nothing the server sends goes through (it is delivered on release). */
  hold(held: boolean): void;
  close(): Promise<void>;
}

export async function movingAddress(targetPort: number): Promise<MovingAddress> {
  let target = targetPort;
  let held = false;
  const open = new Set<Socket>();
  /** What each server-side socket sent while held, for its client. */
  const heldBack = new Map<Socket, { client: Socket; chunks: Buffer[] }>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    const back = { client, chunks: [] as Buffer[] };
    heldBack.set(upstream, back);
    upstream.on('close', () => heldBack.delete(upstream));
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => (held ? back.chunks.push(chunk) : client.write(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    moveTo(next) {
      target = next;
      for (const socket of open) socket.destroy();
    },
    hold(on) {
      held = on;
      if (on) return;
      for (const back of heldBack.values()) for (const chunk of back.chunks.splice(0)) back.client.write(chunk);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
