// Fastify preParsing hook of a replica that follows the write leader (store/ports/write-leadership.ts):
// a recorded write, authenticated, impersonated and authorized here, is sent to the leader over a
// kept-alive TLS connection and the leader's answer relayed as it is, so the writes of every
// replica are batched together. The body is read here first, so that when the leader is not
// reached (nothing was sent) or answers that it no longer leads (nothing was run), the write goes
// on here, as on a replica with no leader. Once the leader may have run it, a lost answer is a 500
// that says the write may or may not have been stored, as a lost COMMIT is.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { Readable } from 'node:stream';
import { requestAttributes } from '../authz/request-attributes';
import { InternalServerError } from '../domain/errors/domain-errors';
import type { WriteLeader, WriteLeadership } from '../store/ports/write-leadership';
import { MAX_BODY_BYTES } from './body-limits';
import { forwardedHeaders, NOT_LEADER_HEADER, REPLICA_TOKEN_HEADER } from './forwarded-write';
import { sendStatus } from './kube-response';
import { statusForError } from './kube-status';
import { isRecordedWrite } from './recorded-writes';
import { identityOf, isUiRequest } from './request-identity';

/**
 * How long a connection to the leader may stay silent: a forwarded write without an answer for
 * that long counts as lost, and an idle connection is closed, before the leader's own keep-alive
 * timeout (Fastify's 72 s), so a kept connection is never one the leader is closing.
 */
const SILENCE_MS = 60_000;

/** Not relayed from the leader's answer: hop-by-hop headers. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade']);

type Outcome = { answer: IncomingMessage } | { notSent: unknown } | { notRun: true } | { lost: unknown };

export type ForwardOutcome = 'answered' | 'not_sent' | 'not_run' | 'lost';

export function writeForwardingHook(leadership: () => WriteLeadership | undefined, counted: (outcome: ForwardOutcome) => void) {
  const agents = new LeaderAgents();
  return async (request: FastifyRequest, reply: FastifyReply, payload: Readable): Promise<Readable | undefined> => {
    const leader = leadership()?.forwardTarget();
    if (!leader || reply.sent || isUiRequest(request) || request.headers[REPLICA_TOKEN_HEADER] !== undefined) return payload;
    if (!isRecordedWrite(requestAttributes(request.method, request.originalUrl))) return payload;
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) return payload;
    const read = await readBody(payload);
    // Too large: the rest is parsed here, where the limit answers it.
    if (read.rest) return read.rest;
    const outcome = await forward(agents.of(leader), leader, request, read.body);
    counted('answer' in outcome ? 'answered' : 'lost' in outcome ? 'lost' : 'notRun' in outcome ? 'not_run' : 'not_sent');
    if ('answer' in outcome) {
      relay(reply, outcome.answer);
      return undefined;
    }
    if ('lost' in outcome) {
      const message = `the write may or may not have been stored: the connection to the writing replica ${leader.url} was lost while it ran (${describe(outcome.lost)}); read the object before retrying`;
      sendStatus(request, reply, statusForError(new InternalServerError(message))!);
      return undefined;
    }
    leadership()?.failed(leader);
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

function forward(agent: LeaderAgent, leader: WriteLeader, request: FastifyRequest, body: Buffer): Promise<Outcome> {
  return new Promise((resolve) => {
    let connected = false;
    const upstream = httpsRequest({
      host: agent.host,
      port: agent.port,
      path: request.originalUrl,
      method: request.method,
      headers: forwardedHeaders(request.headers, identityOf(request), leader.token, body.length),
      agent: agent.agent,
    });
    upstream.on('socket', (socket: TLSSocket) => {
      if (upstream.reusedSocket) connected = true;
      else socket.once('secureConnect', () => (connected = true));
    });
    upstream.on('response', (answer) => {
      if (answer.statusCode === 421 && answer.headers[NOT_LEADER_HEADER] !== undefined) {
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

interface LeaderAgent {
  token: string;
  host: string;
  port: number;
  agent: Agent;
}

/** One kept-alive pool per leader term: its CA trusted and its serving certificate pinned. */
class LeaderAgents {
  private current?: LeaderAgent;

  of(leader: WriteLeader): LeaderAgent {
    if (this.current?.token === leader.token) return this.current;
    // The previous term's pool is left to its writes still under way; its idle connections time out.
    const agent = new Agent({
      keepAlive: true,
      timeout: SILENCE_MS,
      ca: leader.caCertificate,
      checkServerIdentity: (_host: string, certificate: PeerCertificate) =>
        certificate.fingerprint256 === leader.certificateSha256
          ? undefined
          : new Error(`the replica at ${leader.url} is not the write leader it announced (certificate ${certificate.fingerprint256})`),
    });
    const url = new URL(leader.url);
    this.current = { token: leader.token, host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 443), agent };
    return this.current;
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
