// Legacy discovery (/api, /apis, /api/v1) and /version, shaped like kube-apiserver's so kubectl
// resolves `svc`, `service`, `services` and `all` (client-protocol.md §2.6, §3.2).
import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { AppConfig, APP_CONFIG } from '../config/app-config';
import { aggregatedCoreDiscovery, aggregatedDiscoveryVersion, aggregatedGroupsDiscovery, apiGroupList, legacyResourceList } from './api-resources';
import { sendObject } from './kube-response';
import { apiErrors } from './api-errors';
import { eventsApiGroup, eventsResourceList } from './events-api-group';
import { findReviewGroup, reviewApiGroup, reviewResourceList } from './review-api';

export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-svctrail',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-11-29T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

/** The exact Content-Type kubectl requires for aggregated discovery (client-protocol.md §3.3). */
const discoveryContentType = (version: 'v2' | 'v2beta1') => `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;

/**
 * With kube-apiserver's ETag (ServeHTTPWithETag: the quoted upper-case hex SHA-512 of the
 * document): the aggregator asks again every minute with If-None-Match and keeps its copy on a 304.
 */
function sendAggregated(request: FastifyRequest, reply: FastifyReply, version: 'v2' | 'v2beta1', body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  const etag = `"${createHash('sha512').update(bytes).digest('hex').toUpperCase()}"`;
  reply.header('etag', etag).header('vary', 'Accept').header('cache-control', 'public');
  if (request.headers['if-none-match'] === etag) {
    reply.code(304).send();
    return;
  }
  // A Buffer, so Fastify does not rewrite the media type (it would quote the parameters and add a charset).
  reply.code(200).header('content-type', discoveryContentType(version)).send(bytes);
}

@Controller()
export class DiscoveryController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('version')
  version(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendObject(request, reply, 200, SERVER_VERSION);
  }

  @Get('api')
  api(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const aggregated = aggregatedDiscoveryVersion(request.headers.accept);
    if (aggregated) return sendAggregated(request, reply, aggregated, aggregatedCoreDiscovery(`apidiscovery.k8s.io/${aggregated}`));
    reply.header('vary', 'Accept');
    const serverAddress = request.headers.host ?? `${this.config.host}:${this.config.port}`;
    sendObject(request, reply, 200, {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    });
  }

  @Get('apis')
  apis(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const aggregated = aggregatedDiscoveryVersion(request.headers.accept);
    if (aggregated) return sendAggregated(request, reply, aggregated, aggregatedGroupsDiscovery(`apidiscovery.k8s.io/${aggregated}`));
    reply.header('vary', 'Accept');
    sendObject(request, reply, 200, apiGroupList());
  }

  @Get('apis/events.k8s.io')
  eventsGroup(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendObject(request, reply, 200, { kind: 'APIGroup', apiVersion: 'v1', ...eventsApiGroup() });
  }

  @Get('apis/events.k8s.io/v1')
  eventsResources(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendObject(request, reply, 200, eventsResourceList());
  }

  /** /apis/authentication.k8s.io and /apis/authorization.k8s.io (history.svctrail.io has its own controller). */
  @Get(['apis/authentication.k8s.io', 'apis/authorization.k8s.io'])
  reviewGroup(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const group = findReviewGroup(request.url.split(/[/?]/)[2] ?? '');
    if (!group) throw apiErrors.notFoundRoute();
    sendObject(request, reply, 200, { kind: 'APIGroup', apiVersion: 'v1', ...reviewApiGroup(group) });
  }

  @Get(['apis/authentication.k8s.io/:version', 'apis/authorization.k8s.io/:version'])
  reviewResources(@Param('version') version: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const group = findReviewGroup(request.url.split(/[/?]/)[2] ?? '');
    if (!group || !group.versions.includes(version)) throw apiErrors.notFoundRoute();
    sendObject(request, reply, 200, reviewResourceList(group, version));
  }

  @Get('api/v1')
  coreV1(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendObject(request, reply, 200, legacyResourceList());
  }
}
