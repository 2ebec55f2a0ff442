// Writes Kubernetes objects and Status bodies in the negotiated format. Key order is kept
// exactly as built (Go struct order), so no serializer may reorder it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify as toYaml } from 'yaml';
import { negotiateFormat, ResponseFormat } from './content-negotiation';
import type { KubeStatus } from './kube-status';

const CONTENT_TYPES: Record<ResponseFormat, string> = {
  json: 'application/json',
  yaml: 'application/yaml',
};

export function formatFor(request: FastifyRequest): ResponseFormat {
  return negotiateFormat(request.headers.accept);
}

export function sendObject(request: FastifyRequest, reply: FastifyReply, code: number, body: unknown, warnings: readonly string[] = []): void {
  const format = formatFor(request);
  for (const w of warnings) addWarning(reply, w);
  reply
    .code(code)
    .header('content-type', CONTENT_TYPES[format])
    .send(format === 'yaml' ? toYaml(body) : JSON.stringify(body));
}

/** Errors fall back to JSON when the Accept header itself is what failed (as kube-apiserver does). */
export function sendStatus(request: FastifyRequest, reply: FastifyReply, status: KubeStatus): void {
  let format: ResponseFormat = 'json';
  try {
    format = formatFor(request);
  } catch {
    format = 'json';
  }
  reply
    .code(status.code ?? 500)
    .header('content-type', CONTENT_TYPES[format])
    .send(format === 'yaml' ? toYaml(status) : JSON.stringify(status));
}

/** RFC 7234 warning header as kube-apiserver writes it: `299 - "<text>"`. */
export function addWarning(reply: FastifyReply, text: string): void {
  const value = `299 - ${JSON.stringify(text)}`;
  const existing = reply.getHeader('warning');
  if (existing === undefined) reply.header('warning', value);
  else reply.header('warning', [...(Array.isArray(existing) ? existing : [String(existing)]), value]);
}
