// The one place where errors become HTTP: every error, from the domain, Fastify or Nest, is
// answered with a metav1.Status.
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiErrors } from './api-errors';
import { discardBody, MAX_BODY_BYTES } from './body-limits';
import { OBJECT_BODY_MEDIA_TYPES } from './content-type-parsers';
import { internalErrorStatus, KubeStatus, statusForError } from './kube-status';
import { sendStatus } from './kube-response';
import { isMethodNotAllowed } from './resource-routes';
import { isStoreUnreachable } from '../store/store-unreachable';
import { WriteNotStoredError } from '../store/ports/write-not-stored-error';
import { requestTarget } from './request-target';

/**
 * No parser for the body. PATCH routes declare their media types (go-restful's route-level 415);
 * create, update and delete routes take any type and the handler's negotiation refuses it.
 */
function unsupportedBody(request: FastifyRequest): Error {
  return request.method === 'PATCH' ? apiErrors.unsupportedMediaType() : apiErrors.unknownBodyFormat(OBJECT_BODY_MEDIA_TYPES);
}

const FASTIFY_ERRORS: Record<string, (request: FastifyRequest) => Error> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: unsupportedBody,
  FST_ERR_CTP_BODY_TOO_LARGE: () => apiErrors.entityTooLarge(MAX_BODY_BYTES),
};

@Catch()
export class KubeStatusFilter implements ExceptionFilter {
  private readonly logger = new Logger('KubeStatusFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (reply.sent) return;
    const status = this.toStatus(exception, request);
    if (status.code === 413 && !request.raw.readableEnded) {
      // A refused body: answered once the client has stopped sending, so that it can read it.
      void discardBody(request.raw).then(() => {
        if (!reply.sent) sendStatus(request, reply, status);
      });
      return;
    }
    const retryAfter = status.details?.retryAfterSeconds;
    if (retryAfter) reply.header('retry-after', String(retryAfter));
    sendStatus(request, reply, status);
  }

  private toStatus(exception: unknown, request: FastifyRequest): KubeStatus {
    // A write not stored because no database server could take it (down, failing over): retryable.
    if (exception instanceof WriteNotStoredError && isStoreUnreachable(exception.storeError)) return this.unreachable(exception.storeError, request);
    const code = (exception as { code?: unknown }).code;
    const fastify = typeof code === 'string' ? FASTIFY_ERRORS[code] : undefined;
    const mapped = statusForError(fastify ? fastify(request) : exception);
    if (mapped) return mapped;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        return statusForError(isMethodNotAllowed(request.method, request.url) ? apiErrors.methodNotAllowed() : apiErrors.notFoundRoute())!;
      }
      if (status === 413) return statusForError(apiErrors.entityTooLarge(MAX_BODY_BYTES))!;
      if (status === 415) return statusForError(unsupportedBody(request))!;
    }
    const fastifyStatus = (exception as { statusCode?: unknown }).statusCode;
    if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) {
      return statusForError(fastifyStatus === 415 ? unsupportedBody(request) : fastifyStatus === 413 ? apiErrors.entityTooLarge(MAX_BODY_BYTES) : apiErrors.notFoundRoute())!;
    }
    if (isStoreUnreachable(exception)) return this.unreachable(exception, request);
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return internalErrorStatus(exception instanceof Error ? exception.message : String(exception));
  }

  private unreachable(exception: unknown, request: FastifyRequest): KubeStatus {
    this.logger.warn(`the store is unreachable: ${(exception as Error).message}`);
    const { resource, operation } = requestTarget({ method: request.method, url: request.originalUrl });
    return statusForError(apiErrors.serverTimeout(resource, operation))!;
  }
}
