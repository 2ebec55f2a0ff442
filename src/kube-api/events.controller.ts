// core/v1 Events: /api/v1/namespaces/{ns}/events[/{name}] (every verb kube-apiserver serves for
// Events) and /api/v1/events (LIST and WATCH). The Events controllers write live beside the ones
// svctrail derives from the Services' log. Thin: parse, build a command or query, dispatch, answer.
import { Controller, Delete, Get, Inject, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../domain/errors/domain-errors';
import type { KubeEvent } from '../domain/kube-event/kube-event.types';
import { CreateKubeEventCommand, DeleteKubeEventCommand, PatchKubeEventCommand, ReplaceKubeEventCommand, type KubeEventWriteResult } from '../kube-events/commands/kube-event.commands';
import { KubeEventsService } from '../kube-events/kube-events.service';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { protobufWatchWire } from '../watch/watch-wire';
import { parseDeleteOptions } from './delete-options';
import { decodeKubeEventRequest } from './kube-event-body';
import { formatFor, sendKubeObject } from './kube-response';
import { parseListOptions } from './list-options';
import { parsePatchRequest } from './patch-request';
import { QueryParams, queryValue } from './query-parameters';
import { buildEventTable } from './table/event-table';
import { parseIncludeObject, parseTableRequest } from './table/table-request';
import { isWatchRequest, parseWatchParams } from './watch-options';
import { apiErrors } from './api-errors';
import { parseWriteOptions, requestContext } from './write-options';

@Controller('api/v1')
export class EventsController {
  constructor(
    private readonly events: KubeEventsService,
    private readonly commands: CommandBus,
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
    if (!this.sendTable(request, reply, [event], event.metadata.resourceVersion ?? '')) sendKubeObject(request, reply, 200, 'Event', event);
  }

  @Post('namespaces/:namespace/events')
  async create(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const options = parseWriteOptions(request, 'CreateOptions');
    const { object, warnings } = decodeKubeEventRequest(request, options.fieldValidation);
    const result: KubeEventWriteResult = await this.commands.execute(new CreateKubeEventCommand({ kind: 'CreateKubeEvent', namespace, object, api: 'v1' }, options.context));
    this.sendWritten(request, reply, 201, result, warnings);
  }

  @Put('namespaces/:namespace/events/:name')
  async replace(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const options = parseWriteOptions(request, 'UpdateOptions');
    const { object, warnings } = decodeKubeEventRequest(request, options.fieldValidation);
    const result: KubeEventWriteResult = await this.commands.execute(new ReplaceKubeEventCommand({ kind: 'ReplaceKubeEvent', namespace, name, object, api: 'v1' }, options.context));
    this.sendWritten(request, reply, result.created ? 201 : 200, result, warnings);
  }

  @Patch('namespaces/:namespace/events/:name')
  async patch(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { patch, context } = parsePatchRequest(request);
    // Server-side apply needs the Event's field ownership, which svctrail does not keep.
    if (patch.type === 'apply') throw apiErrors.unsupportedMediaType();
    const result: KubeEventWriteResult = await this.commands.execute(new PatchKubeEventCommand(namespace, name, patch, 'v1', context));
    this.sendWritten(request, reply, 200, result, result.warnings ?? []);
  }

  @Delete('namespaces/:namespace/events/:name')
  async delete(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const options = parseDeleteOptions(request);
    const dryRun = (options.dryRun ?? []).includes('All');
    const result: KubeEventWriteResult = await this.commands.execute(
      new DeleteKubeEventCommand({ kind: 'DeleteKubeEvent', namespace, name, preconditions: options.preconditions }, 'v1', requestContext(request, dryRun)),
    );
    if (!result.ended) return this.sendWritten(request, reply, 200, result, []);
    // The generic store answers a finished delete of a kind without ReturnDeletedObject with a Status.
    sendKubeObject(request, reply, 200, 'Status', {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: result.object.metadata.name, kind: 'events', uid: result.object.metadata.uid },
    });
  }

  /**
   * deletecollection: every written Event the selectors match, one delete each, in one turn (one
   * group commit); an item already gone is skipped, any other failure is the answer. Derived
   * Events are the log's and are not deleted. Answers the deleted list.
   */
  @Delete('namespaces/:namespace/events')
  async deleteCollection(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const options = parseDeleteOptions(request);
    const listOptions = parseListOptions(request, namespace);
    const dryRun = (options.dryRun ?? []).includes('All');
    const matching = await this.events.listWritten({ namespace, labelSelector: listOptions.labelSelector, fieldSelector: listOptions.fieldSelector });
    const results = await Promise.allSettled(
      matching.items.map(
        (item): Promise<KubeEventWriteResult> =>
          this.commands.execute(new DeleteKubeEventCommand({ kind: 'DeleteKubeEvent', namespace, name: item.metadata.name! }, 'v1', requestContext(request, dryRun))),
      ),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof NotFoundError));
    if (failed) throw failed.reason;
    const items = results.flatMap((r) => (r.status === 'fulfilled' ? [withoutTypeMeta(r.value.object)] : []));
    sendKubeObject(request, reply, 200, 'EventList', { kind: 'EventList', apiVersion: 'v1', metadata: { resourceVersion: matching.metadata.resourceVersion }, items });
  }

  private async listOrWatch(request: FastifyRequest, reply: FastifyReply, namespace: string | undefined): Promise<void> {
    const options = parseListOptions(request, namespace);
    const selection = { namespace, labelSelector: options.labelSelector, fieldSelector: options.fieldSelector };
    if (!isWatchRequest(request)) {
      const list = await this.events.list(selection, options.limit, options.continue);
      if (!this.sendTable(request, reply, list.items, list.metadata.resourceVersion, list.metadata.continue)) sendKubeObject(request, reply, 200, 'EventList', list);
      return;
    }
    const table = this.tableOptions(request);
    const format = table ? 'json' : formatFor(request, { protobuf: true, streams: true });
    const encode = (event: KubeEvent, first: boolean) =>
      table ? buildEventTable([event], { ...table, now: this.clock.now(), resourceVersion: event.metadata.resourceVersion ?? '', noHeaders: !first }) : event;
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

  private sendWritten(request: FastifyRequest, reply: FastifyReply, code: number, result: KubeEventWriteResult, warnings: readonly string[]): void {
    if (this.sendTable(request, reply, [result.object], result.object.metadata.resourceVersion ?? '', undefined, code)) return;
    sendKubeObject(request, reply, code, 'Event', result.object, warnings);
  }

  /** Answers with a Table when kubectl asks for one; undefined otherwise. */
  private sendTable(request: FastifyRequest, reply: FastifyReply, items: KubeEvent[], resourceVersion: string, continueToken?: string, code = 200): true | undefined {
    const table = this.tableOptions(request);
    if (!table) return undefined;
    const body = buildEventTable(items, { ...table, now: this.clock.now(), resourceVersion, continue: continueToken });
    reply.code(code).header('content-type', 'application/json').send(JSON.stringify(body));
    return true;
  }
}

function withoutTypeMeta(event: KubeEvent): KubeEvent {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = event;
  return rest;
}
