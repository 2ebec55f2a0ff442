// Errors Fastify and Node's HTTP parser answer themselves, before any hook, route or Nest filter
// runs: a path that does not decode, a path parameter over the router's length limit, headers
// over Node's size limit, a request that is not HTTP. Each is answered with a metav1.Status and
// the same code, as every other error, instead of the framework's own JSON.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { failureStatus, type KubeStatus } from './kube-status';
import { sendStatus } from './kube-response';

/** The Status for an error Fastify raised itself (FST_ERR_*), keeping its HTTP code. */
export function frameworkErrorStatus(error: { code?: string; statusCode?: number; message?: string }): KubeStatus {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return failureStatus(400, 'the request path is not a valid URL: a percent-encoding in it does not decode to UTF-8', 'BadRequest');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return failureStatus(414, 'the request URI is too long: a segment of its path is longer than the server accepts');
  }
  const code = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  return failureStatus(code, error.message || (STATUS_CODES[code] ?? 'error'), code >= 500 ? 'InternalError' : code === 400 ? 'BadRequest' : undefined);
}

/** Fastify's `frameworkErrors` option: routing errors raised before any route or hook. */
export function answerFrameworkError(error: Error & { code?: string; statusCode?: number }, request: FastifyRequest, reply: FastifyReply): void {
  sendStatus(request, reply, frameworkErrorStatus(error));
}

/** The Status for a request Node's HTTP parser refused (the server's 'clientError' event). */
export function clientErrorStatus(error: NodeJS.ErrnoException): KubeStatus {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return failureStatus(431, 'the request header fields are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return failureStatus(408, 'the request was not received in time', 'Timeout');
    default:
      return failureStatus(400, `the request is not valid HTTP: ${error.code ?? error.message}`, 'BadRequest');
  }
}

/**
 * Fastify's `clientErrorHandler` option. There is no request object to answer through: the
 * response is written to the socket as Node would, then the connection is closed once flushed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(error);
  const code = status.code ?? 400;
  const body = JSON.stringify(status);
  socket.write(`HTTP/1.1 ${code} ${STATUS_CODES[code] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  // end() and destroy once written (net.Socket.destroySoon), rather than destroy() at once,
  // which may drop the answer before it leaves.
  const net = socket as Duplex & { destroySoon?: () => void };
  if (net.destroySoon) net.destroySoon();
  else socket.end();
}
