// core/v1 Events derived from the Service history: /api/v1/namespaces/{ns}/events[/{name}] and
// /api/v1/events, list and watch. Read-only: the log is their only source.
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KubeEventsService } from '../events/kube-events.service';
import { formatFor, sendObject } from './kube-response';
import { parseListOptions } from './list-options';
import { isWatchRequest, parseWatchParams } from './watch-options';

@Controller('api/v1')
export class EventsController {
  constructor(private readonly events: KubeEventsService) {}

  @Get('events')
  async listAll(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.listOrWatch(request, reply, undefined);
  }

  @Get('namespaces/:namespace/events')
  async list(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.listOrWatch(request, reply, namespace);
  }

  @Get('namespaces/:namespace/events/:name')
  get(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendObject(request, reply, 200, this.events.get(namespace, name));
  }

  private async listOrWatch(request: FastifyRequest, reply: FastifyReply, namespace: string | undefined): Promise<void> {
    const options = parseListOptions(request, namespace);
    const selection = { namespace, labelSelector: options.labelSelector, fieldSelector: options.fieldSelector };
    if (!isWatchRequest(request)) {
      sendObject(request, reply, 200, this.events.list(selection, options.limit, options.continue));
      return;
    }
    formatFor(request);
    const start = this.events.prepareWatch(selection, { ...parseWatchParams(request), encode: (event) => event });
    reply.hijack();
    await start(reply.raw);
  }
}
