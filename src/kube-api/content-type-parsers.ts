// Request bodies reach the decoders as text: the Service decoder needs the raw JSON to report
// duplicate fields and Go-style type errors; protobuf bodies reach them as bytes. Media types
// without a parser answer 415.
import type { FastifyInstance } from 'fastify';
import { parse as parseYaml } from 'yaml';
import { BadRequestError } from '../domain/errors/domain-errors';
import { PROTOBUF_MEDIA_TYPE } from './content-negotiation';

export const JSON_MEDIA_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  // Parsed so the handler can answer server-side apply with its own clear 415.
  'application/apply-patch+yaml',
];

/** What create, update and delete bodies may be, in kube-apiserver's order. */
export const OBJECT_BODY_MEDIA_TYPES: readonly string[] = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE];

export function registerContentTypeParsers(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(JSON_MEDIA_TYPES, { parseAs: 'string' }, (_request, body, done) => done(null, body));
  // Protobuf bodies stay bytes: the decoders read the Kubernetes envelope themselves.
  fastify.addContentTypeParser(PROTOBUF_MEDIA_TYPE, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // kube-apiserver also accepts YAML bodies; they are converted to JSON text for the decoder.
  fastify.addContentTypeParser('application/yaml', { parseAs: 'string' }, (_request, body, done) => {
    try {
      const text = String(body);
      done(null, text.trim() === '' ? '' : JSON.stringify(parseYaml(text, { maxAliasCount: 100 })));
    } catch (error) {
      done(new BadRequestError(`yaml: ${(error as Error).message.split('\n')[0]}`), undefined);
    }
  });
}
