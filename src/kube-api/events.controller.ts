// core/v1 Events: /api/v1/namespaces/{ns}/events[/{name}] (every verb kube-apiserver serves for
// Events) and /api/v1/events (LIST and WATCH). The Events controllers write live beside the ones
// svctrail derives from the Services' log. Thin: the verbs are EventEndpoints', in core/v1.
import { Controller, Delete, Get, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CORE_V1_EVENT_API } from './event-api';
import { EventEndpoints } from './event-endpoints';

@Controller('api/v1')
export class EventsController {
  constructor(private readonly endpoints: EventEndpoints) {}

  @Get('events')
  async listAll(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.listOrWatch(CORE_V1_EVENT_API, request, reply, undefined);
  }

  @Get('namespaces/:namespace/events')
  async list(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.listOrWatch(CORE_V1_EVENT_API, request, reply, namespace);
  }

  @Get('namespaces/:namespace/events/:name')
  async get(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.get(CORE_V1_EVENT_API, namespace, name, request, reply);
  }

  @Post('namespaces/:namespace/events')
  async create(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.create(CORE_V1_EVENT_API, namespace, request, reply);
  }

  @Put('namespaces/:namespace/events/:name')
  async replace(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.replace(CORE_V1_EVENT_API, namespace, name, request, reply);
  }

  @Patch('namespaces/:namespace/events/:name')
  async patch(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.patch(CORE_V1_EVENT_API, namespace, name, request, reply);
  }

  @Delete('namespaces/:namespace/events/:name')
  async delete(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.delete(CORE_V1_EVENT_API, namespace, name, request, reply);
  }

  @Delete('namespaces/:namespace/events')
  async deleteCollection(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.endpoints.deleteCollection(CORE_V1_EVENT_API, namespace, request, reply);
  }
}
