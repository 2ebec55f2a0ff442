// GET, PUT and PATCH of one Service, shared by the main resource and its /status subresource:
// they differ only in which command a write becomes.
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PatchServiceCommand, ReplaceServiceCommand, ReplaceServiceStatusCommand } from '../commands/service.commands';
import type { WriteResult } from '../commands/write-result';
import { GetServiceQuery } from '../queries/service.queries';
import { StoredService } from '../queries/stored-service';
import { CLOCK } from '../shared/clock';
import type { Clock } from '../shared/clock';
import { parsePatchRequest } from './patch-request';
import { pointInTimeForGet } from './point-in-time';
import { decodeServiceRequest } from './service-body';
import { sendService } from './service-representation';
import { parseWriteOptions } from './write-options';
import type { Subresource } from '../domain/field-management';

/** A write's answer, with the JSON the commit already encoded for the projections when it has it. */
export function storedResult(result: WriteResult): StoredService {
  return result.json !== undefined ? new StoredService(result.json, result.object) : StoredService.of(result.object);
}

@Injectable()
export class ServiceEndpoints {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async get(namespace: string, name: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const service = await this.queries.execute(new GetServiceQuery(namespace, name, pointInTimeForGet(request)));
    sendService(request, reply, 200, service, this.clock.now());
  }

  async replace(namespace: string, name: string, subresource: Subresource, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const options = parseWriteOptions(request, 'UpdateOptions');
    const { object, warnings } = decodeServiceRequest(request, options.fieldValidation);
    const command =
      subresource === 'status'
        ? new ReplaceServiceStatusCommand({ kind: 'ReplaceServiceStatus', namespace, name, object }, options.context)
        : new ReplaceServiceCommand({ kind: 'ReplaceService', namespace, name, object }, options.context);
    const result = await this.commands.execute(command);
    sendService(request, reply, result.created ? 201 : 200, storedResult(result), this.clock.now(), warnings);
  }

  async patch(namespace: string, name: string, subresource: Subresource, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { patch, context } = parsePatchRequest(request);
    const result = await this.commands.execute(new PatchServiceCommand(namespace, name, subresource, patch, context));
    // Server-side apply creates a missing object.
    sendService(request, reply, result.created ? 201 : 200, storedResult(result), this.clock.now(), result.warnings);
  }
}
