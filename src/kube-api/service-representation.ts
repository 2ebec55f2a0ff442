// What a Service response looks like for this client: the object itself, or the conversion the
// Accept header asks for (a meta.k8s.io Table for kubectl get, PartialObjectMetadata), as
// kube-apiserver's handlers/response.go transformObject does.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify as toYaml } from 'yaml';
import type { Service } from '../domain/service.types';
import type { ServiceList } from '../queries/service.queries';
import type { StoredService } from '../queries/stored-service';
import type { WatchObjectEncoder } from '../watch/watch-session';
import { EncodedJson, JsonPieces, sendKubeObject } from './kube-response';
import { buildPartialObjectMetadataList, partialObjectMetadataListOfObjectError, partialObjectMetadataOfListError, toPartialObjectMetadata } from './table/partial-object-metadata';
import { buildTable } from './table/table-builder';
import { type ConversionRequest, parseIncludeObject, parseTableRequest } from './table/table-request';
import type { MetaApiVersion } from './table/table.types';
import { type QueryParams, queryValue } from './query-parameters';

function conversionOf(request: FastifyRequest): ConversionRequest | undefined {
  return parseTableRequest(request.headers.accept);
}

function send(reply: FastifyReply, code: number, conversion: ConversionRequest, body: unknown, warnings: readonly string[]): void {
  for (const w of warnings) reply.header('warning', `299 - ${JSON.stringify(w)}`);
  reply
    .code(code)
    .header('content-type', conversion.format === 'yaml' ? 'application/yaml' : 'application/json')
    .send(conversion.format === 'yaml' ? toYaml(body) : JSON.stringify(body));
}

const metaVersion = (c: ConversionRequest): MetaApiVersion => `meta.k8s.io/${c.version}`;

export function sendService(request: FastifyRequest, reply: FastifyReply, code: number, stored: StoredService, now: Date, warnings: readonly string[] = []): void {
  const conversion = conversionOf(request);
  if (!conversion) return sendKubeObject(request, reply, code, 'Service', new EncodedJson(stored), warnings);
  const svc = stored.object;
  if (conversion.as === 'PartialObjectMetadataList') throw partialObjectMetadataListOfObjectError();
  if (conversion.as === 'PartialObjectMetadata') return send(reply, code, conversion, toPartialObjectMetadata(svc, metaVersion(conversion)), warnings);
  const includeObject = parseIncludeObject(queryValue(request.query as QueryParams, 'includeObject'));
  const table = buildTable([svc], { now, includeObject, apiVersion: metaVersion(conversion), resourceVersion: svc.metadata.resourceVersion });
  send(reply, code, conversion, table, warnings);
}

/** The list's JSON as pieces: its head, then each item's stored text (no copy of any). */
function listJsonPieces(list: ServiceList): string[] {
  const head = JSON.stringify({ kind: list.kind, apiVersion: list.apiVersion, metadata: list.metadata });
  const pieces = [`${head.slice(0, -1)},"items":[`];
  list.items.forEach((item, i) => item.pushItemJson(pieces, i > 0 ? ',' : ''));
  pieces.push(']}');
  return pieces;
}

export function sendServiceList(request: FastifyRequest, reply: FastifyReply, stored: ServiceList, now: Date): void {
  const conversion = conversionOf(request);
  if (!conversion) {
    const encoded = new JsonPieces(listJsonPieces(stored), () => ({ ...stored, items: stored.items.map((i) => i.item) }));
    return sendKubeObject(request, reply, 200, 'ServiceList', new EncodedJson(encoded));
  }
  if (conversion.as === 'PartialObjectMetadata') throw partialObjectMetadataOfListError();
  const list = { ...stored, items: stored.items.map((i) => i.item) };
  const meta = { resourceVersion: list.metadata.resourceVersion, continue: list.metadata.continue };
  if (conversion.as === 'PartialObjectMetadataList') {
    return send(reply, 200, conversion, buildPartialObjectMetadataList(list.items, { ...meta, apiVersion: metaVersion(conversion) }), []);
  }
  const includeObject = parseIncludeObject(queryValue(request.query as QueryParams, 'includeObject'));
  send(reply, 200, conversion, buildTable(list.items, { ...meta, now, includeObject, apiVersion: metaVersion(conversion) }), []);
}

// One encoder function per representation, shared by every watcher that asks for it: the watch
// stream encodes a change once per encoder (the function is the key), not once per watcher.
const asIs: WatchObjectEncoder<Service> = (svc) => svc;
const partialObjectMetadata = new Map<MetaApiVersion, WatchObjectEncoder<Service>>();

/** Watch events carry one-row Tables for kubectl get -w; headers only in the first (NoHeaders). */
export function serviceWatchEncoder(request: FastifyRequest, now: () => Date): WatchObjectEncoder<Service> {
  const conversion = conversionOf(request);
  if (!conversion || conversion.as !== 'Table') {
    if (conversion?.as === 'PartialObjectMetadata') {
      const version = metaVersion(conversion);
      let encoder = partialObjectMetadata.get(version);
      if (!encoder) partialObjectMetadata.set(version, (encoder = (svc) => toPartialObjectMetadata(svc, version)));
      return encoder;
    }
    return asIs;
  }
  const includeObject = parseIncludeObject(queryValue(request.query as QueryParams, 'includeObject'));
  return (svc, first) => buildTable([svc], { now: now(), includeObject, apiVersion: metaVersion(conversion), resourceVersion: svc.metadata.resourceVersion, noHeaders: !first });
}
