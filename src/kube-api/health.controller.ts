// /healthz, /livez and /readyz answer `ok` as kube-apiserver does; readiness also checks that
// the database answers.
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { DatabaseHandle } from '../store/database';
import { DATABASE } from '../store/store.tokens';

@Controller()
export class HealthController {
  constructor(@Inject(DATABASE) private readonly handle: DatabaseHandle) {}

  @Get(['healthz', 'livez'])
  live(@Res() reply: FastifyReply): void {
    reply.code(200).header('content-type', 'text/plain; charset=utf-8').send('ok');
  }

  @Get('readyz')
  ready(@Res() reply: FastifyReply): void {
    let ok = false;
    try {
      ok = this.handle.sqlite.prepare('SELECT 1').pluck().get() === 1;
    } catch {
      ok = false;
    }
    reply
      .code(ok ? 200 : 500)
      .header('content-type', 'text/plain; charset=utf-8')
      .send(ok ? 'ok' : '[-]database failed: reason withheld\nreadyz check failed');
  }
}
