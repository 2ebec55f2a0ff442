// Fastify preParsing hook of a replica that follows the write leader (store/ports/write-leadership.ts):
// a recorded write, authenticated, impersonated and authorized here, is sent to the leader over a
// kept-alive TLS connection and the leader's answer relayed as it is, so the writes of every
// replica are batched together. The body is read here first, so that when the leader is not
// reached (nothing was sent) or answers that it no longer leads (nothing was run), the write goes
// on here, as on a replica with no leader. Once the leader may have run it, a lost answer is a 500
// that says the write may or may not have been stored, as a lost COMMIT is.
//
// A leader that stops answering (frozen, stalled, cut off) keeps its lease while its PostgreSQL
// session lives, so each follower judges it itself: it asks the leader's /livez every
// HEARTBEAT_MS (leader-connection.ts), and sends writes only while it answered within STALE_MS; a leader not
// reached, or no longer leading, is not written to until it answers again (or another is
// announced). Only the writes already sent to a leader that stopped answering wait for it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { Readable } from 'node:stream';
import { requestAttributes } from '../authz/request-attributes';
import { InternalServerError } from '../domain/errors/domain-errors';
import type { WriteLeader, WriteLeadership } from '../store/ports/write-leadership';
import { MAX_BODY_BYTES } from './body-limits';
import { forwardedHeaders, NOT_LEADER_HEADER, REPLICA_TOKEN_HEADER } from './forwarded-write';
import { sendStatus } from './kube-response';
import { statusForError } from './kube-status';
import { isRecordedWrite } from './recorded-writes';
import { LeaderConnection, SILENCE_MS } from './leader-connection';
import { identityOf, isUiRequest } from './request-identity';

/** Not relayed from the leader's answer: hop-by-hop headers. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade']);

type Outcome = { answer: IncomingMessage } | { notSent: unknown } | { notRun: true } | { lost: unknown };

export type ForwardOutcome = 'answered' | 'not_sent' | 'not_run' | 'lost';

/** Registers the forwarding (a preParsing hook) on `fastify`; its connections close with it. */
export function registerWriteForwarding(fastify: FastifyInstance, leadership: () => WriteLeadership | undefined, counted: (outcome: ForwardOutcome) => void): void {
  const agents = new LeaderAgents();
  fastify.addHook('onClose', async () => agents.close());
  fastify.addHook('preParsing', forwardingHook(agents, leadership, counted));
}

function forwardingHook(agents: LeaderAgents, leadership: () => WriteLeadership | undefined, counted: (outcome: ForwardOutcome) => void) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: Readable): Promise<Readable | undefined> => {
    const announced = leadership()?.forwardTarget();
    if (!announced || reply.sent || isUiRequest(request) || request.headers[REPLICA_TOKEN_HEADER] !== undefined) return payload;
    if (!isRecordedWrite(requestAttributes(request.method, request.originalUrl))) return payload;
    const leader = agents.of(announced);
    if (!leader.healthy()) return payload;
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) return payload;
    const read = await readBody(payload);
    // Too large: the rest is parsed here, where the limit answers it.
    if (read.rest) return read.rest;
    const outcome = await forward(leader, request, read.body);
    counted('answer' in outcome ? 'answered' : 'lost' in outcome ? 'lost' : 'notRun' in outcome ? 'not_run' : 'not_sent');
    if ('answer' in outcome) {
      relay(reply, outcome.answer);
      return undefined;
    }
    if ('lost' in outcome) {
      leader.unanswered();
      const message = `the write may or may not have been stored: the connection to the writing replica ${leader.announced.url} was lost while it ran (${describe(outcome.lost)}); read the object before retrying`;
      sendStatus(request, reply, statusForError(new InternalServerError(message))!);
      return undefined;
    }
    leader.unanswered();
    leadership()?.recheck();
    return Readable.from([read.body]);
  };
}

/** The whole body, or (past the limit) what was read and the rest of the stream, to be refused by the parser. */
async function readBody(payload: Readable): Promise<{ body: Buffer; rest?: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of payload) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length > MAX_BODY_BYTES) {
      return {
        body: Buffer.alloc(0),
        rest: Readable.from(
          (async function* () {
            yield* chunks;
            yield* payload;
          })(),
        ),
      };
    }
  }
  return { body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length) };
}

function forward(leader: LeaderConnection, request: FastifyRequest, body: Buffer): Promise<Outcome> {
  return new Promise((resolve) => {
    let connected = false;
    const upstream = httpsRequest({
      host: leader.host,
      port: leader.port,
      path: request.originalUrl,
      method: request.method,
      headers: forwardedHeaders(request.headers, identityOf(request), leader.announced.token, body.length),
      agent: leader.agent,
    });

    upstream.on('socket', (socket: TLSSocket) => {
      if (upstream.reusedSocket) connected = true;
      else socket.once('secureConnect', () => (connected = true));
    });
    upstream.on('response', (answer) => {
      leader.answered();
      if (answer.statusCode === 421 && answer.headers[NOT_LEADER_HEADER] !== undefined) {
        // A body cut off is no error here: the answer was the status (an 'error' unheard would end the process).
        answer.on('error', () => undefined);
        answer.resume();
        resolve({ notRun: true });
      } else resolve({ answer });
    });
    upstream.on('timeout', () => upstream.destroy(new Error(`no answer in ${SILENCE_MS / 1000} s`)));
    // Before a connection existed nothing reached the leader; after, the write may have run.
    upstream.on('error', (error) => resolve(connected ? { lost: error } : { notSent: error }));
    upstream.end(body);
  });
}

function relay(reply: FastifyReply, answer: IncomingMessage): void {
  reply.hijack();
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer.headersDistinct)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value.length === 1 ? value[0] : value;
  reply.raw.writeHead(answer.statusCode ?? 502, headers);
  answer.pipe(reply.raw);
  // The leader went away mid-answer: the client sees its connection end, as it would from the leader.
  answer.on('error', () => reply.raw.destroy());
  answer.on('aborted', () => reply.raw.destroy());
}

/** The connection to the current leader term, and the few before it. */
class LeaderAgents {
  private current?: LeaderConnection;
  /** Earlier terms' connections, kept for their writes still under way (their idle connections time out). */
  private readonly previous: LeaderConnection[] = [];

  of(leader: WriteLeader): LeaderConnection {
    if (this.current?.announced.token !== leader.token) {
      if (this.current) {
        this.current.retire();
        this.previous.push(this.current);
        if (this.previous.length > 4) this.previous.shift()!.close();
      }
      this.current = new LeaderConnection(leader);
    }
    return this.current;
  }

  close(): void {
    this.current?.close();
    for (const connection of this.previous) connection.close();
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
