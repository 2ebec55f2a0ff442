// What a client asked the apiserver to convert the response into: the `as`/`g`/`v` parameters of
// the Accept header (apiserver handlers/negotiation NegotiateOutputMediaType + acceptMediaTypeOptions,
// RequestScope.AllowsMediaTypeTransform) and the `includeObject` query parameter (TableOptions,
// validated by apimachinery ValidateTableOptions).
import { strconvQuote } from '../../domain/codec/go-quote';
import { BadRequestError } from '../../domain/errors/domain-errors';
import type { IncludeObject } from './table.types';
import { AcceptMemo } from '../accept-memo';

export type ConversionKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** A conversion the client asked for, and the serialization (json/yaml) of the range that won. */
export interface ConversionRequest {
  as: ConversionKind;
  version: 'v1' | 'v1beta1';
  format: 'json' | 'yaml';
}

interface AcceptClause {
  type: string;
  subType: string;
  q: number;
  params: Map<string, string>;
}

/** strconv.ParseFloat for the decimal forms clients send; anything else fails, leaving q = 0. */
function parseQ(text: string): number {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : 0;
}

/** goautoneg.accept_slice.Less, quirks included (it is not a strict weak order). */
function less(a: AcceptClause, b: AcceptClause): boolean {
  if (a.q > b.q) return true;
  if (a.type !== '*' && b.type === '*') return true;
  if (a.subType !== '*' && b.subType === '*') return true;
  return false;
}

/**
 * goautoneg.ParseAccept: case-sensitive, q=0 clauses kept, then sort.Sort — which for the handful
 * of clauses clients send (≤ 12) is Go's insertion sort, reproduced here so ties keep header order.
 */
function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const rawPart of header.split(',')) {
    const part = rawPart.replace(/^ +| +$/g, '');
    const [mediaRange, ...rawParams] = part.split(';');
    const sp = mediaRange.split('/');
    const type = sp[0].replace(/^ +| +$/g, '');
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = sp[1].replace(/^ +| +$/g, '');
    else continue;
    const clause: AcceptClause = { type, subType, q: 1, params: new Map() };
    for (const param of rawParams) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = param.slice(0, eq).replace(/^ +| +$/g, '');
      // Go parses q from the untrimmed value: `q= 0.5` fails and becomes 0.
      if (token === 'q') clause.q = parseQ(param.slice(eq + 1));
      else clause.params.set(token, param.slice(eq + 1).replace(/^ +| +$/g, ''));
    }
    clauses.push(clause);
  }
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j], clauses[j - 1]); j--) {
      [clauses[j], clauses[j - 1]] = [clauses[j - 1], clauses[j]];
    }
  }
  return clauses;
}

/** The serializers svctrail offers for a resource, in the apiserver's order. */
const SERIALIZERS = [
  { type: 'application', subType: 'json', format: 'json', streams: true },
  { type: 'application', subType: 'yaml', format: 'yaml', streams: false },
  { type: 'application', subType: 'vnd.kubernetes.protobuf', format: 'protobuf', streams: true },
] as const;

type Outcome = { accepted: false } | { accepted: true; conversion?: ConversionRequest };

/** acceptMediaTypeOptions + RequestScope.AllowsMediaTypeTransform for one clause and serializer. */
function acceptClause(params: Map<string, string>, serializer: (typeof SERIALIZERS)[number]): Outcome {
  let convert: { kind: string; group: string; version: string } | undefined;
  for (const [key, value] of params) {
    if (key === 'as' || key === 'g' || key === 'v') {
      convert ??= { kind: '', group: '', version: '' };
      if (key === 'as') convert.kind = value;
      else if (key === 'g') convert.group = value;
      else convert.version = value;
    } else if (key === 'stream') {
      // AllowsStreamSchema accepts only "watch", and only serializers with a stream form.
      if (value !== '' && (!serializer.streams || value !== 'watch')) return { accepted: false };
    } else if (key === 'sv') {
      // AllowsServerVersion: the meta group version the server speaks.
      if (value !== '' && value !== 'v1') return { accepted: false };
    }
  }
  if (!convert) return { accepted: true };
  // Tables and metadata conversions are served in JSON and YAML only.
  if (serializer.format === 'protobuf') return { accepted: false };
  // Any of as/g/v requests a conversion; only meta.k8s.io/v1 and v1beta1 offer any.
  if (convert.group !== 'meta.k8s.io' || (convert.version !== 'v1' && convert.version !== 'v1beta1')) return { accepted: false };
  const version = convert.version;
  switch (convert.kind) {
    case 'Table':
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList':
      return { accepted: true, conversion: { as: convert.kind, version, format: serializer.format } };
  }
  return { accepted: false };
}

/**
 * The conversion the winning Accept range asks for, or undefined when the winner is a plain
 * range (the resource itself) or nothing is acceptable — leave those to negotiateFormat.
 * Ranges asking for an unknown `as=`, another group/version, or a serializer svctrail lacks are
 * skipped, exactly as the apiserver skips them.
 */
export function parseTableRequest(accept: string | undefined): ConversionRequest | undefined {
  return accept ? conversions.get(accept) : undefined;
}

const conversions = new AcceptMemo((accept: string): ConversionRequest | undefined => {
  for (const clause of parseAccept(accept)) {
    for (const serializer of SERIALIZERS) {
      const matches = (clause.type === serializer.type && (clause.subType === serializer.subType || clause.subType === '*')) || (clause.type === '*' && clause.subType === '*');
      if (!matches) continue;
      const outcome = acceptClause(clause.params, serializer);
      if (outcome.accepted) return outcome.conversion && Object.freeze(outcome.conversion);
    }
  }
  return undefined;
});

/**
 * `?includeObject=` as TableOptions decodes it (pass the first value; empty means Metadata). Only
 * read for `as=Table` (optionsForTransform). Any other value fails ValidateTableOptions with a
 * field.Invalid whose BadValue, a named string type, prints via `%#v`, i.e. strconv.Quote.
 */
export function parseIncludeObject(value: string | undefined): IncludeObject {
  if (value === undefined || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw new BadRequestError(`Unable to convert to Table as requested: includeObject: Invalid value: ${strconvQuote(value)}: must be 'Metadata', 'Object', 'None', or empty`);
}
