// /healthz, /livez and /readyz answer `ok` as kube-apiserver does; readiness also checks that
// the database answers (503 while it does not: a load balancer sends requests to another replica),
// and in mirror mode that the mirror is in sync with its source.
import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import { MirrorStatus } from '../mirror/mirror-status';
import type { FastifyReply } from 'fastify';
import { SERVICE_READ_STORE } from '../store/ports/service-read-store';
import type { ServiceReadStore } from '../store/ports/service-read-store';

@Controller()
export class HealthController {
  constructor(
    @Inject(SERVICE_READ_STORE) private readonly store: ServiceReadStore,
    @Optional() private readonly mirror?: MirrorStatus,
  ) {}

  @Get(['healthz', 'livez'])
  live(@Res() reply: FastifyReply): void {
    reply.code(200).header('content-type', 'text/plain; charset=utf-8').send('ok');
  }

  @Get('readyz')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const database = await this.store.ready();
    const mirror = this.mirror ? this.mirror.ready : true;
    // kube-apiserver's verbose-less form: `ok`, or each failed check and the closing line.
    const failed = [...(database ? [] : ['[-]database failed: reason withheld']), ...(mirror ? [] : [`[-]mirror-sync failed: ${this.mirror!.notReadyReason}`])];
    reply
      .code(failed.length ? 503 : 200)
      .header('content-type', 'text/plain; charset=utf-8')
      .send(failed.length ? `${failed.join('\n')}\nreadyz check failed` : 'ok');
  }
}
