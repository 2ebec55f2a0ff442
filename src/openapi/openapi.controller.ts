// /openapi/v3, its group-version documents (/openapi/v3/api/v1, /openapi/v3/apis/events.k8s.io/v1)
// and /openapi/v2, with kube-openapi's caching rules: the hashed v3 URL is immutable, a stale hash
// is redirected to the current one, and every document carries an ETag that If-None-Match can
// turn into a 304. kubectl caches these under --cache-dir.
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiErrors } from '../kube-api/api-errors';
import { identityOf } from '../kube-api/request-identity';
import { isAggregatorOpenApiDownload } from './aggregator-openapi-download';
import { ifNoneMatchHits } from './entity-tag';
import { negotiateOpenApiV2, negotiateOpenApiV3, OPENAPI_V2_PROTOBUF } from './openapi-media-types';
import { EVENTS_V1_OPENAPI_PATH } from './events-v1-openapi-v3';
import { OPENAPI_V2_JSON_DOCUMENT, OPENAPI_V2_PROTOBUF_DOCUMENT } from './openapi-v2';
import { OPENAPI_V3_DOCUMENTS, openApiV3Index, serverRelativeUrl } from './openapi-v3-index';
import { PublishedDocument, publishDocument } from './published-document';
import { CORE_V1_OPENAPI_PATH } from './service-openapi-v3';

const JSON_TYPE = 'application/json';
// What kube-apiserver's WithCacheControl filter puts on everything not marked otherwise.
const NO_CACHE = 'no-cache, private';
const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

const V3_INDEX = publishDocument(Buffer.from(JSON.stringify(openApiV3Index()), 'utf8'));

function queryValue(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

function serve(request: FastifyRequest, reply: FastifyReply, document: PublishedDocument, contentType: string, cacheControl: string): void {
  if (isAggregatorOpenApiDownload(identityOf(request).user.name)) throw apiErrors.notFoundRoute();
  reply.header('etag', document.etag).header('cache-control', cacheControl).header('vary', 'Accept');
  if (ifNoneMatchHits(request.headers['if-none-match'], document.etag)) {
    reply.code(304).send();
    return;
  }
  reply.code(200).header('content-type', contentType).send(document.bytes);
}

@Controller('openapi')
export class OpenApiController {
  @Get('v3')
  index(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    serve(request, reply, V3_INDEX, JSON_TYPE, NO_CACHE);
  }

  @Get(`v3/${CORE_V1_OPENAPI_PATH}`)
  coreV1(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    serveGroupVersion(request, reply, CORE_V1_OPENAPI_PATH);
  }

  @Get(`v3/${EVENTS_V1_OPENAPI_PATH}`)
  eventsV1(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    serveGroupVersion(request, reply, EVENTS_V1_OPENAPI_PATH);
  }

  @Get('v2')
  v2(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const format = negotiateOpenApiV2(request.headers.accept);
    if (format === undefined) throw apiErrors.notAcceptable(`${JSON_TYPE}, ${OPENAPI_V2_PROTOBUF}`);
    if (format === 'protobuf') serve(request, reply, OPENAPI_V2_PROTOBUF_DOCUMENT, OPENAPI_V2_PROTOBUF, NO_CACHE);
    else serve(request, reply, OPENAPI_V2_JSON_DOCUMENT, JSON_TYPE, NO_CACHE);
  }
}

/** One group-version's v3 document: immutable at its current hash, redirected from a stale one. */
function serveGroupVersion(request: FastifyRequest, reply: FastifyReply, path: string): void {
  if (negotiateOpenApiV3(request.headers.accept) === undefined) throw apiErrors.notAcceptable(JSON_TYPE);
  const document = OPENAPI_V3_DOCUMENTS.get(path)!;
  const hash = queryValue(request, 'hash');
  if (hash === undefined) {
    serve(request, reply, document, JSON_TYPE, NO_CACHE);
    return;
  }
  // A stale hash (a client's cached index from an older server) is sent to the current URL.
  if (hash !== document.hash) {
    reply.code(301).header('location', serverRelativeUrl(path, document.hash)).header('cache-control', NO_CACHE).send();
    return;
  }
  reply.header('expires', new Date(Date.now() + ONE_YEAR_MS).toUTCString());
  serve(request, reply, document, JSON_TYPE, 'public, immutable');
}
