// events.k8s.io/v1 Events: /apis/events.k8s.io/v1/namespaces/{ns}/events[/{name}] (every verb)
// and /apis/events.k8s.io/v1/events (LIST and WATCH). The same Events as core/v1's, written and
// derived, converted (kube-apiserver serves one store in both groups). Thin: the verbs are
// EventEndpoints', in events.k8s.io/v1.
import { Controller, Delete, Get, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EVENTS_V1_EVENT_API } from './event-api';
import { EventEndpoints } from './event-endpoints';

@Controller('apis/events.k8s.io/v1')
export class EventsV1Controller {
  constructor(private readonly endpoints: EventEndpoints) {}

  @Get('events')
  async listAll(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.listOrWatch(EVENTS_V1_EVENT_API, request, reply, undefined);
  }

  @Get('namespaces/:namespace/events')
  async list(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.listOrWatch(EVENTS_V1_EVENT_API, request, reply, namespace);
  }

  @Get('namespaces/:namespace/events/:name')
  async get(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.get(EVENTS_V1_EVENT_API, namespace, name, request, reply);
  }

  @Post('namespaces/:namespace/events')
  async create(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.create(EVENTS_V1_EVENT_API, namespace, request, reply);
  }

  @Put('namespaces/:namespace/events/:name')
  async replace(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.replace(EVENTS_V1_EVENT_API, namespace, name, request, reply);
  }

  @Patch('namespaces/:namespace/events/:name')
  async patch(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.patch(EVENTS_V1_EVENT_API, namespace, name, request, reply);
  }

  @Delete('namespaces/:namespace/events/:name')
  async delete(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.delete(EVENTS_V1_EVENT_API, namespace, name, request, reply);
  }

  @Delete('namespaces/:namespace/events')
  async deleteCollection(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.deleteCollection(EVENTS_V1_EVENT_API, namespace, request, reply);
  }
}
