// /healthz, /livez and /readyz answer `ok` as kube-apiserver does; readiness also checks that
// the database answers (503 while it does not: a load balancer sends requests to another replica).
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SERVICE_READ_STORE } from '../store/service-read-store';
import type { ServiceReadStore } from '../store/service-read-store';

@Controller()
export class HealthController {
  constructor(@Inject(SERVICE_READ_STORE) private readonly store: ServiceReadStore) {}

  @Get(['healthz', 'livez'])
  live(@Res() reply: FastifyReply): void {
    reply.code(200).header('content-type', 'text/plain; charset=utf-8').send('ok');
  }

  @Get('readyz')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const ok = await this.store.ready();
    reply
      .code(ok ? 200 : 503)
      .header('content-type', 'text/plain; charset=utf-8')
      .send(ok ? 'ok' : '[-]database failed: reason withheld\nreadyz check failed');
  }
}
