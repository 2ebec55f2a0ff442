// /api/v1/namespaces/{namespace}/services/{name}/status: what load-balancer controllers write.
import { Controller, Get, Inject, Param, Patch, Put, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PatchServiceCommand, ReplaceServiceStatusCommand } from '../commands/service.commands';
import { GetServiceQuery } from '../queries/service.queries';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { pointInTimeForGet } from './point-in-time';
import { sendService } from './service-representation';
import { parsePatchRequest } from './patch-request';
import { decodeServiceBody } from './service-body';
import { parseWriteOptions } from './write-options';

@Controller('api/v1/namespaces/:namespace/services/:name/status')
export class ServiceStatusController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async get(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    sendService(request, reply, 200, await this.queries.execute(new GetServiceQuery(namespace, name, pointInTimeForGet(request))), this.clock.now());
  }

  @Put()
  async replace(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const options = parseWriteOptions(request, 'UpdateOptions');
    const { object, warnings } = decodeServiceBody(request.body, options.fieldValidation);
    const result = await this.commands.execute(
      new ReplaceServiceStatusCommand({ kind: 'ReplaceServiceStatus', namespace, name, object }, { ...options.context }),
    );
    sendService(request, reply, 200, result.object, this.clock.now(), warnings);
  }

  @Patch()
  async patch(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { patch, context } = parsePatchRequest(request);
    const result = await this.commands.execute(new PatchServiceCommand(namespace, name, 'status', patch, context));
    sendService(request, reply, 200, result.object, this.clock.now(), result.warnings);
  }
}
