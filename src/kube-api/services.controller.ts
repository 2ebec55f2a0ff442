// /api/v1/namespaces/{namespace}/services[/{name}] and /api/v1/services. Thin: parse, build a
// command or query, dispatch, answer.
import { Controller, Delete, Get, Inject, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateServiceCommand, DeleteServiceCommand } from '../commands/service.commands';
import { NotFoundError } from '../domain/errors/domain-errors';
import { ListServicesQuery } from '../queries/service.queries';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { ServiceWatchService } from '../watch/service-watch.service';
import { protobufWatchWire } from '../watch/watch-wire';
import { ServiceEndpoints, storedResult } from './service-endpoints';
import { StoredService } from '../queries/stored-service';
import { sendService, sendServiceList, serviceWatchEncoder } from './service-representation';
import { parseTableRequest } from './table/table-request';
import { formatFor } from './kube-response';
import { isWatchRequest, parseServiceWatch } from './watch-options';
import { parseDeleteOptions } from './delete-options';
import { parseListOptions } from './list-options';
import { decodeServiceRequest } from './service-body';
import { parseWriteOptions, requestContext } from './write-options';

@Controller('api/v1')
export class ServicesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly watches: ServiceWatchService,
    private readonly endpoints: ServiceEndpoints,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('services')
  async listAll(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (isWatchRequest(request)) return this.watch(request, reply, undefined);
    const list = await this.queries.execute(new ListServicesQuery(parseListOptions(request, undefined)));
    sendServiceList(request, reply, list, this.clock.now());
  }

  @Get('namespaces/:namespace/services')
  async list(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (isWatchRequest(request)) return this.watch(request, reply, namespace);
    const list = await this.queries.execute(new ListServicesQuery(parseListOptions(request, namespace)));
    sendServiceList(request, reply, list, this.clock.now());
  }

  @Post('namespaces/:namespace/services')
  async create(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const options = parseWriteOptions(request, 'CreateOptions');
    const { object, warnings } = decodeServiceRequest(request, options.fieldValidation);
    const result = await this.commands.execute(new CreateServiceCommand({ kind: 'CreateService', namespace, object }, options.context));
    sendService(request, reply, 201, storedResult(result), this.clock.now(), warnings);
  }

  /**
   * deletecollection: every Service the selectors match, one delete each, all issued in one turn
   * so that they share one group commit (one fsync, not one per item); each still runs in its own
   * savepoint, publishes its DELETED and releases its allocations. As kube-apiserver's
   * registry store does, an item already gone (NotFound) is skipped and any other failure is the
   * answer. Answers the deleted list.
   */
  @Delete('namespaces/:namespace/services')
  async deleteCollection(@Param('namespace') namespace: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const options = parseDeleteOptions(request);
    const listOptions = parseListOptions(request, namespace);
    const dryRun = (options.dryRun ?? []).includes('All');
    const matching = await this.queries.execute(new ListServicesQuery({ namespace, labelSelector: listOptions.labelSelector, fieldSelector: listOptions.fieldSelector }));
    const results = await Promise.allSettled(
      matching.items.map((item) =>
        this.commands.execute(
          new DeleteServiceCommand({ kind: 'DeleteService', namespace, name: item.object.metadata.name!, propagationPolicy: options.propagationPolicy }, requestContext(request, dryRun)),
        ),
      ),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof NotFoundError));
    if (failed) throw failed.reason;
    const deleted = results.flatMap((r) => (r.status === 'fulfilled' ? [StoredService.of(r.value.object)] : []));
    sendServiceList(request, reply, { ...matching, items: deleted }, this.clock.now());
  }

  @Get('namespaces/:namespace/services/:name')
  get(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.endpoints.get(namespace, name, request, reply);
  }

  @Put('namespaces/:namespace/services/:name')
  replace(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.endpoints.replace(namespace, name, '', request, reply);
  }

  @Patch('namespaces/:namespace/services/:name')
  patch(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.endpoints.patch(namespace, name, '', request, reply);
  }

  @Delete('namespaces/:namespace/services/:name')
  async delete(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const options = parseDeleteOptions(request);
    const dryRun = (options.dryRun ?? []).includes('All');
    const result = await this.commands.execute(
      new DeleteServiceCommand({ kind: 'DeleteService', namespace, name, preconditions: options.preconditions, propagationPolicy: options.propagationPolicy }, requestContext(request, dryRun)),
    );
    sendService(request, reply, 200, storedResult(result), this.clock.now());
  }

  /** Errors before the first byte are ordinary Status responses; then the stream owns the socket. */
  private async watch(request: FastifyRequest, reply: FastifyReply, namespace: string | undefined): Promise<void> {
    const encode = serviceWatchEncoder(request, () => this.clock.now());
    const format = parseTableRequest(request.headers.accept) ? 'json' : formatFor(request, { protobuf: true, streams: true });
    const watch = parseServiceWatch(request, namespace, encode);
    const start = await this.watches.prepare({ ...watch, wire: format === 'protobuf' ? protobufWatchWire('Service') : undefined });
    reply.hijack();
    await start(reply.raw);
  }
}
