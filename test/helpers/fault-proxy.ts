// A TLS proxy in front of a source API server (a real svctrail) that can misbehave the ways a
// real kube-apiserver and its network do: cut watches, hold watch data back, answer a watch from
// a compacted resourceVersion with 410 Expired in-band (the watch cache's answer), fail requests,
// hold requests back, go away and come back on the same port (a source restart), and rewrite the
// JSON it passes on (a newer kube-apiserver's fields svctrail does not know). Everything else
// passes through unchanged, the Authorization header included (client certificates are not: the
// proxy ends TLS).
// It logs every request for assertions: its credentials, its body and the answer's code.
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { createServer, request as httpsRequest } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { createCertificateAuthority, issueServingCertificate } from '../../src/tls/certificates';

export interface ProxiedRequest {
  method: string;
  /** Path with its query. */
  path: string;
  /** Date.now() when it arrived. */
  time: number;
  /** The Authorization header it carried. */
  authorization?: string;
  /** Its body, once it has all arrived (a POST's review). */
  body?: string;
  /** The code it was answered with (the source's, or an injected failure's). */
  status?: number;
}

/** Rewrites one JSON value the source sent (a whole answer, or one watch event) on its way to the client. */
export type JsonRewrite = (value: unknown, path: string) => unknown;

export interface FaultProxy {
  /** https://127.0.0.1:<port>; the same after stop() and start(). */
  url: string;
  /** The CA that signed the proxy's serving certificate: what a client of the proxy trusts. */
  caPem: string;
  /** Every request in arrival order, the injected failures included. */
  requests: ProxiedRequest[];
  /**
   * Destroys every open watch (a request with watch=true or watch=1) and answers how many: the
   * client sees its connection reset mid-answer. With `cleanly`, each answer ends as when the
   * source's own watch timeout passes. Data held by holdWatches is dropped either way.
   */
  closeWatches(options?: { cleanly?: boolean }): number;
  /** While held, watch answers' bytes are buffered (headers are sent); releasing sends them in order. */
  holdWatches(hold: boolean): void;
  /**
   * A watch from a numeric resourceVersion below `rv` (not "0", not empty) is answered as the
   * watch cache answers after compaction: 200 and one ERROR event with a 410 Expired Status. null: none.
   */
  expireBelow(rv: number | null): void;
  /**
   * The next `count` requests (those whose path `match` accepts, when given) get a Status with
   * `status` as their code without reaching the source.
   */
  failRequests(count: number, status?: number, match?: (path: string) => boolean): void;
  /**
   * Rewrites every 2xx JSON answer and every line of a watch from now on (null: none), e.g. to add
   * the fields a newer kube-apiserver would send.
   */
  rewriteJson(rewrite: JsonRewrite | null): void;
  /**
   * Requests whose path `match` accepts wait, not sent to the source, until `match` is replaced
   * (null: none wait; every waiting one goes on, unless its client went away meanwhile). For
   * requests without a body (a LIST's pages).
   */
  pauseRequests(match: ((path: string) => boolean) | null): void;
  /** Paths of the requests waiting now. */
  paused(): string[];
  /** Stops listening and cuts every connection, both sides (the source went away). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

interface OpenWatch {
  response: ServerResponse;
  forward: { destroy(): unknown };
  upstream?: IncomingMessage;
  held: Buffer[];
  /** The source ended the watch while it was held: the answer ends once what is held is released. */
  ended: boolean;
}

// Connection-level headers belong to one hop (RFC 9110 §7.6.1); Node writes its own.
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];
const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Expired',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

export const isWatchPath = (path: string): boolean => {
  const watch = new URL(path, 'https://proxy').searchParams.get('watch');
  return watch === 'true' || watch === '1';
};

export async function startFaultProxy(options: { upstream: string; upstreamCa: string }): Promise<FaultProxy> {
  const ca = await createCertificateAuthority('svctrail-fault-proxy-ca', () => new Date());
  const serving = await issueServingCertificate(ca, {}, () => new Date());
  const upstream = new URL(options.upstream);
  const requests: ProxiedRequest[] = [];
  const watches = new Set<OpenWatch>();
  const sockets = new Set<Socket>();
  /** Requests to the source still running (any kind), so that stop() cuts them too. */
  const forwards = new Set<{ destroy(): unknown }>();
  let holding = false;
  let expiredBelow: number | null = null;
  let failures: { count: number; status: number; match?: (path: string) => boolean } = { count: 0, status: 503 };
  let rewriting: JsonRewrite | null = null;
  let pausing: ((path: string) => boolean) | null = null;
  const waiting: { path: string; go: () => void }[] = [];

  const statusBody = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
  const strip = (headers: IncomingHttpHeaders): OutgoingHttpHeaders => {
    const out: OutgoingHttpHeaders = { ...headers };
    for (const name of HOP_BY_HOP) delete out[name];
    return out;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    const logged: ProxiedRequest = { method: req.method ?? 'GET', path, time: Date.now(), ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) };
    requests.push(logged);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (chunks.length) logged.body = Buffer.concat(chunks).toString('utf8');
    });
    if (failures.count > 0 && (failures.match?.(path) ?? true)) {
      failures.count--;
      const code = failures.status;
      logged.status = code;
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(statusBody(code, REASONS[code] ?? 'InternalError', `injected failure (${code})`)));
      return;
    }
    const watch = isWatchPath(path);
    const rv = new URL(path, 'https://proxy').searchParams.get('resourceVersion');
    if (watch && expiredBelow !== null && rv && /^\d+$/.test(rv) && rv !== '0' && Number(rv) < expiredBelow) {
      // kube-apiserver's watch cache: the watch is accepted, then one ERROR event ends it.
      logged.status = 200;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${JSON.stringify({ type: 'ERROR', object: statusBody(410, 'Expired', `too old resource version: ${rv} (${expiredBelow})`) })}\n`);
      return;
    }

    if (pausing?.(path)) {
      waiting.push({ path, go: () => (res.destroyed ? undefined : send(req, res, logged, watch)) });
      return;
    }
    send(req, res, logged, watch);
  };

  const send = (req: IncomingMessage, res: ServerResponse, logged: ProxiedRequest, watch: boolean) => {
    const path = logged.path;
    const forward = httpsRequest(
      { protocol: 'https:', hostname: upstream.hostname, port: upstream.port, path, method: req.method, headers: { ...strip(req.headers), host: upstream.host }, ca: options.upstreamCa, agent: false },
      (answer) => {
        forwards.add(answer);
        answer.on('close', () => forwards.delete(answer));
        logged.status = answer.statusCode;
        const status = answer.statusCode ?? 502;
        const json = status < 300 && /^application\/json\b/.test(answer.headers['content-type'] ?? '');
        if (!open) {
          if (!json || !rewriting) {
            res.writeHead(status, strip(answer.headers));
            answer.pipe(res);
            return;
          }
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const text = rewritten(Buffer.concat(chunks).toString('utf8'), path);
            const headers = strip(answer.headers);
            delete headers['content-length'];
            res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
            res.end(text);
          });
          return;
        }
        res.writeHead(status, strip(answer.headers));
        open.upstream = answer;
        res.flushHeaders();
        // Watch events are rewritten line by line, as whole lines arrive.
        const decoder = new StringDecoder('utf8');
        let partial = '';
        answer.on('data', (received: Buffer) => {
          let chunk = received;
          if (json && rewriting) {
            partial += decoder.write(received);
            const end = partial.lastIndexOf('\n') + 1;
            if (end === 0) return;
            const lines = partial.slice(0, end - 1).split('\n');
            partial = partial.slice(end);
            chunk = Buffer.from(lines.map((line) => `${line.trim() ? rewritten(line, path) : line}\n`).join(''));
          }
          if (holding) open.held.push(chunk);
          else res.write(chunk);
        });
        answer.on('end', () => {
          // Held data stays held when the source ends the watch (its timeout) meanwhile.
          if (holding) {
            open.ended = true;
            return;
          }
          watches.delete(open);
          res.end();
        });
        answer.on('error', () => res.destroy());
      },
    );
    const open: OpenWatch | undefined = watch ? { response: res, forward, held: [], ended: false } : undefined;
    if (open) watches.add(open);
    forwards.add(forward);
    forward.on('close', () => forwards.delete(forward));
    forward.on('error', () => {
      if (open) watches.delete(open);
      // Mid-answer the client can only be told by a cut; before it, by a Status.
      if (res.headersSent) return res.destroy();
      logged.status = 502;
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify(statusBody(502, 'InternalError', 'the proxy could not reach the source')));
    });
    // The client went away (or was cut): so does its request to the source.
    res.on('close', () => {
      if (open) watches.delete(open);
      if (!res.writableFinished) {
        forward.destroy();
        open?.upstream?.destroy();
      }
    });
    req.pipe(forward);
  };

  const rewritten = (text: string, path: string): string => {
    const rewrite = rewriting;
    return rewrite ? JSON.stringify(rewrite(JSON.parse(text), path)) : text;
  };

  let server: Server | undefined;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve();
      const listening = createServer({ cert: serving.certPem, key: serving.keyPem }, handle);
      listening.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as AddressInfo).port;
        server = listening;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const listening = server;
      server = undefined;
      for (const watch of watches) watch.response.destroy();
      watches.clear();
      for (const forward of forwards) forward.destroy();
      forwards.clear();
      for (const socket of sockets) socket.destroy();
      if (!listening) return resolve();
      listening.close(() => resolve());
    });
  await start();

  return {
    url: `https://127.0.0.1:${port}`,
    caPem: ca.certPem,
    requests,
    closeWatches: ({ cleanly = false } = {}) => {
      const open = [...watches];
      watches.clear();
      for (const watch of open) {
        watch.held = [];
        watch.forward.destroy();
        watch.upstream?.destroy();
        if (cleanly && watch.response.headersSent) watch.response.end();
        else watch.response.destroy();
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
    failRequests: (count, status = 503, match) => {
      failures = { count, status, match };
    },
    rewriteJson: (rewrite) => {
      rewriting = rewrite;
    },
    pauseRequests: (match) => {
      pausing = match;
      for (const request of waiting.splice(0)) {
        if (match?.(request.path)) waiting.push(request);
        else request.go();
      }
    },
    paused: () => waiting.map((w) => w.path),
    stop,
    start,
    close: stop,
  };
}
