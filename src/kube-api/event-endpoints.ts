// Every verb of the Events resource, shared by /api/v1 and /apis/events.k8s.io/v1 (one store, as
// kube-apiserver's): parse, build a command or query, dispatch, answer in the API's version.
import { Inject, Injectable } from '@nestjs/common';
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
import { type EventApi, listItemOf } from './event-api';
import { formatFor, sendKubeObject } from './kube-response';
import { parseListOptions } from './list-options';
import { parsePatchRequest } from './patch-request';
import { QueryParams, queryValue } from './query-parameters';
import { buildEventTable } from './table/event-table';
import { parseIncludeObject, parseTableRequest } from './table/table-request';
import { isWatchRequest, parseWatchParams } from './watch-options';
import { parseWriteOptions, requestContext } from './write-options';

@Injectable()
export class EventEndpoints {
  constructor(
    private readonly events: KubeEventsService,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** LIST or WATCH, of a namespace or (undefined) of all. */
  async listOrWatch(api: EventApi, request: FastifyRequest, reply: FastifyReply, namespace: string | undefined): Promise<void> {
    const options = parseListOptions(request, namespace);
    const selection = { namespace, labelSelector: options.labelSelector, fieldSelector: options.fieldSelector, api: api.version };
    if (!isWatchRequest(request)) {
      const list = await this.events.list(selection, options.limit, options.continue);
      if (this.sendTable(api, request, reply, list.items, list.metadata.resourceVersion, list.metadata.continue)) return;
      sendKubeObject(request, reply, 200, api.listKind, { kind: 'EventList', apiVersion: api.groupVersion, metadata: list.metadata, items: list.items.map((e) => listItemOf(api, e)) });
      return;
    }
    const table = this.tableOptions(request);
    const format = table ? 'json' : formatFor(request, { protobuf: true, streams: true });
    // One encoder per API (not per watcher), so watchers of a change share its encoded bytes.
    const encode = table
      ? (event: KubeEvent, first: boolean) =>
          buildEventTable([event], { ...table, now: this.clock.now(), resourceVersion: event.metadata.resourceVersion ?? '', noHeaders: !first, served: api.served })
      : api.served;
    const wire = format === 'protobuf' ? protobufWatchWire(api.objectKind) : undefined;
    const start = await this.events.prepareWatch(selection, { ...parseWatchParams(request), encode, wire });
    reply.hijack();
    await start(reply.raw);
  }

  async get(api: EventApi, namespace: string, name: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const event = await this.events.get(namespace, name, api.version);
    if (!this.sendTable(api, request, reply, [event], event.metadata.resourceVersion ?? '')) sendKubeObject(request, reply, 200, api.objectKind, api.served(event));
  }

  async create(api: EventApi, namespace: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const options = parseWriteOptions(request, 'CreateOptions');
    const { object, warnings } = api.decodeBody(request, options.fieldValidation);
    const result: KubeEventWriteResult = await this.commands.execute(new CreateKubeEventCommand({ kind: 'CreateKubeEvent', namespace, object, api: api.version }, options.context));
    this.sendWritten(api, request, reply, 201, result, warnings);
  }

  async replace(api: EventApi, namespace: string, name: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const options = parseWriteOptions(request, 'UpdateOptions');
    const { object, warnings } = api.decodeBody(request, options.fieldValidation);
    const result: KubeEventWriteResult = await this.commands.execute(new ReplaceKubeEventCommand({ kind: 'ReplaceKubeEvent', namespace, name, object, api: api.version }, options.context));
    this.sendWritten(api, request, reply, result.created ? 201 : 200, result, warnings);
  }

  async patch(api: EventApi, namespace: string, name: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { patch, context } = parsePatchRequest(request);
    const result: KubeEventWriteResult = await this.commands.execute(new PatchKubeEventCommand(namespace, name, patch, api.version, context));
    // Server-side apply creates a missing Event: 201.
    this.sendWritten(api, request, reply, result.created ? 201 : 200, result, result.warnings ?? []);
  }

  async delete(api: EventApi, namespace: string, name: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const options = parseDeleteOptions(request);
    const dryRun = (options.dryRun ?? []).includes('All');
    const result: KubeEventWriteResult = await this.commands.execute(
      new DeleteKubeEventCommand({ kind: 'DeleteKubeEvent', namespace, name, preconditions: options.preconditions }, api.version, requestContext(request, dryRun)),
    );
    if (!result.ended) return this.sendWritten(api, request, reply, 200, result, []);
    // The generic store answers a finished delete of a kind without ReturnDeletedObject with a
    // Status naming the request's resource (store.go Delete: Kind is the resource, with its group).
    sendKubeObject(request, reply, 200, 'Status', {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: result.object.metadata.name, ...(api.group ? { group: api.group } : {}), kind: 'events', uid: result.object.metadata.uid },
    });
  }

  /**
   * deletecollection: every written Event the selectors match, one delete each, in one turn (one
   * group commit); an item already gone is skipped, any other failure is the answer. Derived
   * Events are the log's and are not deleted. Answers the deleted list.
   */
  async deleteCollection(api: EventApi, namespace: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const options = parseDeleteOptions(request);
    const listOptions = parseListOptions(request, namespace);
    const dryRun = (options.dryRun ?? []).includes('All');
    const matching = await this.events.listWritten({ namespace, labelSelector: listOptions.labelSelector, fieldSelector: listOptions.fieldSelector, api: api.version });
    const results = await Promise.allSettled(
      matching.items.map((item): Promise<KubeEventWriteResult> =>
        this.commands.execute(new DeleteKubeEventCommand({ kind: 'DeleteKubeEvent', namespace, name: item.metadata.name! }, api.version, requestContext(request, dryRun))),
      ),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof NotFoundError));
    if (failed) throw failed.reason;
    const items = results.flatMap((r) => (r.status === 'fulfilled' ? [listItemOf(api, r.value.object)] : []));
    sendKubeObject(request, reply, 200, api.listKind, { kind: 'EventList', apiVersion: api.groupVersion, metadata: { resourceVersion: matching.metadata.resourceVersion }, items });
  }

  private tableOptions(request: FastifyRequest) {
    const conversion = parseTableRequest(request.headers.accept);
    if (conversion?.as !== 'Table') return undefined;
    return { apiVersion: `meta.k8s.io/${conversion.version}` as const, includeObject: parseIncludeObject(queryValue(request.query as QueryParams, 'includeObject')) };
  }

  private sendWritten(api: EventApi, request: FastifyRequest, reply: FastifyReply, code: number, result: KubeEventWriteResult, warnings: readonly string[]): void {
    if (this.sendTable(api, request, reply, [result.object], result.object.metadata.resourceVersion ?? '', undefined, code)) return;
    sendKubeObject(request, reply, code, api.objectKind, api.served(result.object), warnings);
  }

  /** Answers with a Table when kubectl asks for one; undefined otherwise. */
  private sendTable(api: EventApi, request: FastifyRequest, reply: FastifyReply, items: KubeEvent[], resourceVersion: string, continueToken?: string, code = 200): true | undefined {
    const table = this.tableOptions(request);
    if (!table) return undefined;
    const body = buildEventTable(items, { ...table, now: this.clock.now(), resourceVersion, continue: continueToken, served: api.served });
    reply.code(code).header('content-type', 'application/json').send(JSON.stringify(body));
    return true;
  }
}
