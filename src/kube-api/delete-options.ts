// DeleteOptions from the body (kubectl sends JSON, client-go's typed clients protobuf) or, when
// the body is empty, the query.
import type { FastifyRequest } from 'fastify';
import { deleteOptionsSchema } from '../domain/codec/meta-schema';
import { decodeEnvelope } from '../domain/codec/protobuf/kube-envelope';
import { decodeMessage } from '../domain/codec/protobuf/proto-message-codec';
import { ProtobufDecodeError } from '../domain/codec/protobuf/protobuf-decode-error';
import type { DeletePreconditions } from '../domain/service.commands';
import { BadRequestError, InvalidError } from '../domain/errors/domain-errors';
import { validateDeleteOptions } from '../domain/validation/options.validation';
import { type QueryParams, queryInt64, queryOptionalBool, queryValue, queryValues } from './query-parameters';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: DeletePreconditions;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  dryRun?: string[];
}

const cannotDecode = (detail: string) => new BadRequestError(`DeleteOptions in version "v1" cannot be handled as a DeleteOptions: ${detail}`);

function fromJson(text: string): DeleteOptions {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw cannotDecode((error as Error).message);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw cannotDecode('json: cannot unmarshal into Go value of type v1.DeleteOptions');
  return fromObject(raw as Record<string, unknown>);
}

/** A protobuf DeleteOptions (client-go typed clients send one): its JSON view, then the same rules. */
function fromProtobuf(bytes: Buffer): DeleteOptions {
  let envelope;
  try {
    envelope = decodeEnvelope(bytes);
  } catch (error) {
    if (error instanceof ProtobufDecodeError) throw new BadRequestError(error.message);
    throw error;
  }
  let view;
  try {
    view = decodeMessage(deleteOptionsSchema, envelope.raw);
  } catch (error) {
    if (error instanceof ProtobufDecodeError) throw cannotDecode(error.message);
    throw error;
  }
  return fromObject({ ...(envelope.kind ? { kind: envelope.kind } : {}), ...view });
}

function fromObject(body: Record<string, unknown>): DeleteOptions {
  if (body.kind !== undefined && body.kind !== 'DeleteOptions') {
    throw new BadRequestError(`the object provided is unrecognized (must be of type DeleteOptions)`);
  }
  const options: DeleteOptions = {};
  const typed = <T>(key: string, type: string, goType: string): T | undefined => {
    const v = body[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== type || (type === 'number' && !Number.isInteger(v))) {
      throw cannotDecode(`json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go struct field DeleteOptions.${key} of type ${goType}`);
    }
    return v as T;
  };
  options.gracePeriodSeconds = typed<number>('gracePeriodSeconds', 'number', 'int64');
  options.propagationPolicy = typed<string>('propagationPolicy', 'string', 'v1.DeletionPropagation');
  options.orphanDependents = typed<boolean>('orphanDependents', 'boolean', 'bool');
  if (body.dryRun !== undefined && body.dryRun !== null) {
    if (!Array.isArray(body.dryRun) || body.dryRun.some((v) => typeof v !== 'string')) {
      throw cannotDecode('json: cannot unmarshal into Go struct field DeleteOptions.dryRun of type []string');
    }
    options.dryRun = body.dryRun as string[];
  }
  const pre = body.preconditions;
  if (pre !== undefined && pre !== null) {
    if (typeof pre !== 'object' || Array.isArray(pre)) throw cannotDecode('json: cannot unmarshal into Go struct field DeleteOptions.preconditions of type v1.Preconditions');
    const p = pre as Record<string, unknown>;
    options.preconditions = {};
    if (typeof p.uid === 'string') options.preconditions.uid = p.uid;
    if (typeof p.resourceVersion === 'string') options.preconditions.resourceVersion = p.resourceVersion;
  }
  return options;
}

/** Convert_url_Values_To_v1_DeleteOptions, in its field order. */
function fromQuery(query: QueryParams): DeleteOptions {
  const options: DeleteOptions = {};
  const grace = queryInt64(query, 'gracePeriodSeconds');
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  const orphan = queryOptionalBool(query, 'orphanDependents');
  if (orphan !== undefined) options.orphanDependents = orphan;
  options.propagationPolicy = queryValue(query, 'propagationPolicy');
  options.dryRun = queryValues(query, 'dryRun');
  return options;
}

export function parseDeleteOptions(request: FastifyRequest): DeleteOptions {
  const body = typeof request.body === 'string' ? request.body.trim() : '';
  const options = Buffer.isBuffer(request.body) && request.body.length > 0 ? fromProtobuf(request.body) : body ? fromJson(body) : fromQuery(request.query as QueryParams);
  const errors = validateDeleteOptions(options);
  if (errors.length) throw new InvalidError('DeleteOptions', '', errors, 'meta.k8s.io');
  return options;
}
