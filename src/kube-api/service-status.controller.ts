// /api/v1/namespaces/{namespace}/services/{name}/status: what load-balancer controllers write.
import { Controller, Get, Param, Patch, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceEndpoints } from './service-endpoints';

@Controller('api/v1/namespaces/:namespace/services/:name/status')
export class ServiceStatusController {
  constructor(private readonly endpoints: ServiceEndpoints) {}

  @Get()
  get(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.endpoints.get(namespace, name, request, reply);
  }

  @Put()
  replace(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.endpoints.replace(namespace, name, 'status', request, reply);
  }

  @Patch()
  patch(@Param('namespace') namespace: string, @Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.endpoints.patch(namespace, name, 'status', request, reply);
  }
}
