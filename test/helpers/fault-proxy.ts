// A TLS proxy in front of a source API server (a real svctrail) that can misbehave the ways a
// real kube-apiserver and its network do: cut watches, hold watch data back, answer a watch from
// a compacted resourceVersion with 410 Expired in-band (the watch cache's answer), fail requests,
// and go away and come back (a source restart). It logs every request for assertions.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request as httpsRequest, Server } from 'node:https';
import type { Socket } from 'node:net';
import { createCertificateAuthority, issueServingCertificate } from '../../src/tls/certificates';

export interface ProxiedRequest {
  method: string;
  /** Path with its query. */
  path: string;
  time: number;
}

export interface FaultProxy {
  url: string;
  caPem: string;
  requests: ProxiedRequest[];
  /** Ends every open watch response at once; returns how many. */
  closeWatches(): number;
  /** While held, watch response bytes are buffered; releasing sends them in order. */
  holdWatches(hold: boolean): void;
  /** Watches from a numeric resourceVersion below `rv` get 410 Expired in-band; null: none. */
  expireBelow(rv: number | null): void;
  /** The next `count` requests get a Status with `code` without reaching the source. */
  failRequests(count: number, code?: number): void;
  /** Stops listening and cuts every connection (the source went away). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

interface OpenWatch {
  response: ServerResponse;
  upstream: IncomingMessage;
  held: Buffer[];
  /** The upstream ended while held: the response ends once what is held is released. */
  ended: boolean;
}

const isWatch = (path: string) => /[?&]watch=(true|1)(&|$)/.test(path);

export async function startFaultProxy(options: { upstream: string; upstreamCa: string }): Promise<FaultProxy> {
  const ca = await createCertificateAuthority('fault-proxy-ca', () => new Date());
  const serving = await issueServingCertificate(ca, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }, () => new Date());
  const upstream = new URL(options.upstream);
  const requests: ProxiedRequest[] = [];
  const watches = new Set<OpenWatch>();
  const sockets = new Set<Socket>();
  let holding = false;
  let expiredBelow: number | null = null;
  let failures: { count: number; code: number } = { count: 0, code: 503 };

  const status = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, time: Date.now() });
    if (failures.count > 0) {
      failures.count--;
      res.writeHead(failures.code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status(failures.code, failures.code === 503 ? 'ServiceUnavailable' : 'InternalError', 'injected failure')));
      return;
    }
    const rv = new URL(path, 'https://x').searchParams.get('resourceVersion');
    if (isWatch(path) && expiredBelow !== null && rv && /^\d+$/.test(rv) && rv !== '0' && Number(rv) < expiredBelow) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${JSON.stringify({ type: 'ERROR', object: status(410, 'Expired', `too old resource version: ${rv} (${expiredBelow})`) })}\n`);
      return;
    }
    const headers = { ...req.headers, host: upstream.host };
    const forward = httpsRequest(
      { hostname: upstream.hostname, port: upstream.port, path, method: req.method, headers, ca: options.upstreamCa, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!isWatch(path)) {
          answer.pipe(res);
          return;
        }
        res.flushHeaders();
        const watch: OpenWatch = { response: res, upstream: answer, held: [], ended: false };
        watches.add(watch);
        answer.on('data', (chunk: Buffer) => {
          if (holding) watch.held.push(chunk);
          else res.write(chunk);
        });
        answer.on('end', () => {
          // Held data stays held when the source ends the watch (its timeout) meanwhile.
          if (holding) {
            watch.ended = true;
            return;
          }
          watches.delete(watch);
          res.end();
        });
        const drop = () => {
          watches.delete(watch);
          answer.destroy();
        };
        answer.on('error', () => res.destroy());
        res.on('close', drop);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status(502, 'InternalError', 'the upstream could not be reached')));
    });
    req.pipe(forward);
  };

  let server: Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer({ cert: serving.certPem, key: serving.keyPem }, handle);
      server.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  const shut = () =>
    new Promise<void>((resolve) => {
      for (const watch of watches) watch.response.destroy();
      watches.clear();
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  await listen();

  return {
    url: `https://127.0.0.1:${port}`,
    caPem: ca.certPem,
    requests,
    closeWatches: () => {
      const open = [...watches];
      for (const watch of open) {
        watches.delete(watch);
        watch.upstream.destroy();
        watch.response.end();
      }
      return open.length;
    },
    holdWatches: (hold) => {
      holding = hold;
      if (hold) return;
      for (const watch of [...watches]) {
        for (const chunk of watch.held) watch.response.write(chunk);
        watch.held = [];
        if (watch.ended) {
          watches.delete(watch);
          watch.response.end();
        }
      }
    },
    expireBelow: (rv) => {
      expiredBelow = rv;
    },
    failRequests: (count, code = 503) => {
      failures = { count, code };
    },
    stop: shut,
    start: listen,
    close: shut,
  };
}
