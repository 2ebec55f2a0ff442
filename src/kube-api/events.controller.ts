// core/v1 Events derived from the Service history: /api/v1/namespaces/{ns}/events[/{name}] and
// /api/v1/events, list and watch. Read-only: the log is their only source.
import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KubeEventsService } from '../kube-events/kube-events.service';
import type { KubeEvent } from '../kube-events/kube-event.types';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { buildEventTable } from './table/event-table';
import { parseIncludeObject, parseTableRequest } from './table/table-request';
import { QueryParams, queryValue } from './write-options';
import { formatFor, sendKubeObject } from './kube-response';
import { protobufWatchWire } from '../watch/watch-wire';
import { parseListOptions } from './list-options';
import { isWatchRequest, parseWatchParams } from './watch-options';

@Controller('api/v1')
export class EventsController {
  constructor(
    private readonly events: KubeEventsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('events')
  async listAll(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.listOrWatch(request, reply, undefined);
  }

  @Get('namespaces/:namespace/events')
  async list(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.listOrWatch(request, reply, namespace);
  }

  @Get('namespaces/:namespace/events/:name')
  async get(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const event = await this.events.get(namespace, name);
    if (!this.send(request, reply, [event], event.metadata.resourceVersion)) sendKubeObject(request, reply, 200, 'Event', event);
  }

  private async listOrWatch(request: FastifyRequest, reply: FastifyReply, namespace: string | undefined): Promise<void> {
    const options = parseListOptions(request, namespace);
    const selection = { namespace, labelSelector: options.labelSelector, fieldSelector: options.fieldSelector };
    if (!isWatchRequest(request)) {
      const list = await this.events.list(selection, options.limit, options.continue);
      if (!this.send(request, reply, list.items, list.metadata.resourceVersion, list.metadata.continue)) sendKubeObject(request, reply, 200, 'EventList', list);
      return;
    }
    const table = this.tableOptions(request);
    const format = table ? 'json' : formatFor(request, { protobuf: true, streams: true });
    const encode = (event: KubeEvent, first: boolean) =>
      table ? buildEventTable([event], { ...table, now: this.clock.now(), resourceVersion: event.metadata.resourceVersion, noHeaders: !first }) : event;
    const wire = format === 'protobuf' ? protobufWatchWire('Event') : undefined;
    const start = await this.events.prepareWatch(selection, { ...parseWatchParams(request), encode, wire });
    reply.hijack();
    await start(reply.raw);
  }

  private tableOptions(request: FastifyRequest) {
    const conversion = parseTableRequest(request.headers.accept);
    if (conversion?.as !== 'Table') return undefined;
    return { apiVersion: `meta.k8s.io/${conversion.version}` as const, includeObject: parseIncludeObject(queryValue(request.query as QueryParams, 'includeObject')) };
  }

  /** Answers with a Table when kubectl asks for one; undefined otherwise. */
  private send(request: FastifyRequest, reply: FastifyReply, items: KubeEvent[], resourceVersion: string, continueToken?: string): true | undefined {
    const table = this.tableOptions(request);
    if (!table) return undefined;
    const body = buildEventTable(items, { ...table, now: this.clock.now(), resourceVersion, continue: continueToken });
    reply.code(200).header('content-type', 'application/json').send(JSON.stringify(body));
    return true;
  }
}
