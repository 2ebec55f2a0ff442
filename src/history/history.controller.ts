// HTTP surface of history.svctrail.io/v1alpha1: read-only lists in Kubernetes list style at
// cluster, namespace and Service scope, the ownership and feed endpoints, and the group's own
// discovery documents. Thin: parse the path, call the service, send JSON or YAML.
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiErrors } from '../kube-api/api-errors';
import { formatFor, sendObject } from '../kube-api/kube-response';
import { ActivitySummaryService } from './activity-summary.service';
import { HistoryFeedService } from './history-feed.service';
import { ChangeLogService } from './change-log.service';
import { CompactionsService } from './compactions.service';
import { ConditionAuditService } from './condition-audit.service';
import { EventHistoryService } from './event-history.service';
import { FieldOwnershipService } from './field-ownership.service';
import { historyApiGroup, historyResourceList } from './history-api';
import type { HistoryScope } from './history-scope';
import { IngressHistoryService } from './ingress-history.service';

type ScopedList = (scope: HistoryScope, query: unknown) => unknown;

@Controller('apis/history.svctrail.io')
export class HistoryController {
  private readonly scoped: Record<string, ScopedList>;

  constructor(
    changes: ChangeLogService,
    conditions: ConditionAuditService,
    private readonly ingress: IngressHistoryService,
    private readonly feed: HistoryFeedService,
    ownership: FieldOwnershipService,
    activity: ActivitySummaryService,
    private readonly compactions: CompactionsService,
    events: EventHistoryService,
  ) {
    this.scoped = {
      changes: (s, q) => changes.list(s, q),
      conditiontransitions: (s, q) => conditions.transitions(s, q),
      conditionsummaries: (s, q) => conditions.summaries(s, q),
      ingressintervals: (s, q) => ingress.intervals(s, q),
      ingressconflicts: (s, q) => ingress.conflicts(s, q),
      fieldownerships: (s, q) => ownership.list(s, q),
      activitybuckets: (s, q) => activity.buckets(s, q),
      transitionrankings: (s, q) => activity.ranking(s, q),
      events: (s, q) => events.list(s, q),
    };
  }

  @Get()
  group(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendObject(request, reply, 200, { kind: 'APIGroup', apiVersion: 'v1', ...historyApiGroup() });
  }

  @Get('v1alpha1')
  resources(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendObject(request, reply, 200, historyResourceList());
  }

  @Get('v1alpha1/feed')
  async changeFeed(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    formatFor(request);
    const feed = await this.feed.parse(request.query);
    reply.hijack();
    await this.feed.stream(feed, reply.raw);
  }

  @Get('v1alpha1/ingressowners')
  async owners(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendObject(request, reply, 200, await this.ingress.owners(request.query));
  }

  @Get('v1alpha1/compactions')
  async compactionList(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    formatFor(request);
    sendObject(request, reply, 200, await this.compactions.list(request.query));
  }

  @Get('v1alpha1/:resource')
  cluster(@Param('resource') resource: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.list(resource, {}, request, reply);
  }

  @Get('v1alpha1/namespaces/:namespace/:resource')
  namespaced(@Param('namespace') namespace: string, @Param('resource') resource: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.list(resource, { namespace }, request, reply);
  }

  @Get('v1alpha1/namespaces/:namespace/services/:name/:resource')
  ofService(@Param('namespace') namespace: string, @Param('name') name: string, @Param('resource') resource: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.list(resource, { namespace, name }, request, reply);
  }

  private async list(resource: string, scope: HistoryScope, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const list = Object.prototype.hasOwnProperty.call(this.scoped, resource) ? this.scoped[resource] : undefined;
    if (!list) throw apiErrors.notFoundRoute();
    formatFor(request);
    sendObject(request, reply, 200, await list(scope, request.query));
  }
}
