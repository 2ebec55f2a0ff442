// A follower's connections to one write leader term (write-forwarding.hook.ts): kept-alive TLS
// connections that trust the CA the leader announced and pin its serving certificate, and whether
// the leader answers. A leader that stops answering (frozen, stalled, cut off) keeps its lease
// while its PostgreSQL session lives, so each follower judges it itself: it asks the leader's
// /livez every HEARTBEAT_MS, and writes go to it only while it answered within STALE_MS.
import { Agent, request as httpsRequest } from 'node:https';
import type { PeerCertificate } from 'node:tls';
import type { WriteLeader } from '../store/ports/write-leadership';

/**
 * How long a connection to the leader may stay silent: a forwarded write without an answer for
 * that long counts as lost, and an idle connection is closed, before the leader's own keep-alive
 * timeout (Fastify's 72 s), so a kept connection is never one the leader is closing.
 */
export const SILENCE_MS = 60_000;
/** How often a follower asks the leader whether it is alive (/livez), and how old its last answer may be. */
const HEARTBEAT_MS = 100;
const STALE_MS = 400;

/** Kept-alive connections to one leader term (its CA trusted, its certificate pinned), and whether it answers. */
export class LeaderConnection {
  readonly host: string;
  readonly port: number;
  readonly agent: Agent;
  /** Not written to until a first answer. */
  private lastAnswer = -Infinity;
  private asking = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(readonly announced: WriteLeader) {
    const url = new URL(announced.url);
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(url.port || 443);
    this.agent = new Agent({
      keepAlive: true,
      timeout: SILENCE_MS,
      ca: announced.caCertificate,
      checkServerIdentity: (_host: string, certificate: PeerCertificate) =>
        certificate.fingerprint256 === announced.certificateSha256
          ? undefined
          : new Error(`the replica at ${announced.url} is not the write leader it announced (certificate ${certificate.fingerprint256})`),
    });
    this.heartbeat = setInterval(() => this.ask(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.ask();
  }

  /** Whether writes may go to it now: it answered lately. */
  healthy(): boolean {
    return performance.now() - this.lastAnswer < STALE_MS;
  }

  answered(): void {
    this.lastAnswer = performance.now();
  }

  /** Not reached, no longer leading, or gone mid-write: nothing more goes to it until it answers again. */
  unanswered(): void {
    this.lastAnswer = -Infinity;
  }

  /** Stops asking (a later term replaced it); its kept connections serve the writes still under way. */
  retire(): void {
    clearInterval(this.heartbeat);
  }

  close(): void {
    this.retire();
    this.agent.destroy();
  }

  private ask(): void {
    if (this.asking) return;
    this.asking = true;
    const done = () => (this.asking = false);
    const probe = httpsRequest({ host: this.host, port: this.port, path: '/livez', agent: this.agent, timeout: STALE_MS }, (answer) => {
      // An answer cut off (the leader killed mid-answer) ends this ask like one that never came:
      // an 'error' unheard would end the process, and a close without 'end' would stop the asking.
      answer.on('error', () => undefined);
      answer.on('close', done);
      answer.resume();
      if (answer.statusCode === 200) this.answered();
    });
    probe.on('timeout', () => probe.destroy());
    probe.on('error', done);
    probe.end();
  }
}
