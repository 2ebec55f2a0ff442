// Accept negotiation for responses. svctrail answers JSON or YAML everywhere, and protobuf for
// the core/v1 kinds it serves (Service, Event, their lists, Status); a client that accepts none
// of what an endpoint offers gets kube-apiserver's 406.
import { AcceptMemo } from './accept-memo';
import { apiErrors } from './api-errors';

export type ResponseFormat = 'json' | 'yaml' | 'protobuf';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

export interface NegotiationOptions {
  /** The endpoint can answer in protobuf. */
  protobuf?: boolean;
  /** The endpoint also streams (LIST with watch): the 406 lists the stream media types. */
  streams?: boolean;
}

function available(options: NegotiationOptions): string {
  const types = ['application/json', 'application/yaml'];
  if (options.protobuf) types.push(PROTOBUF_MEDIA_TYPE);
  if (options.streams) types.push('application/json;stream=watch', ...(options.protobuf ? [`${PROTOBUF_MEDIA_TYPE};stream=watch`] : []));
  return types.join(', ');
}

interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part) => {
      const [type, ...rawParams] = part.trim().split(';');
      const params: Record<string, string> = {};
      for (const p of rawParams) {
        const [k, v = ''] = p.split('=');
        params[k.trim().toLowerCase()] = v.trim();
      }
      const q = params.q === undefined ? 1 : Number(params.q);
      return { type: type.trim().toLowerCase(), params, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((m) => m.type && m.q > 0);
}

/**
 * Picks the response format. Ranges that ask for a conversion svctrail does not offer (`as=`
 * other than what the caller supports, protobuf) are skipped, as the apiserver skips them.
 */
export function negotiateFormat(accept: string | undefined, options: NegotiationOptions = {}): ResponseFormat {
  if (!accept || !accept.trim()) return 'json';
  const offered = offers.get(accept);
  const format = options.protobuf ? offered.protobuf : offered.json;
  if (format) return format;
  throw apiErrors.notAcceptable(available(options));
}

/** What a header picks where protobuf is not offered, and where it is (undefined: nothing acceptable there). */
interface Offers {
  json?: 'json' | 'yaml';
  protobuf?: ResponseFormat;
}

const offers = new AcceptMemo((accept: string): Offers => {
  const pick = (protobuf: boolean): ResponseFormat | undefined => {
    for (const range of parseAccept(accept).sort((a, b) => b.q - a.q)) {
      if (range.params.as !== undefined) continue;
      if (range.type === 'application/json' || range.type === '*/*' || range.type === 'application/*') return 'json';
      if (range.type === 'application/yaml') return 'yaml';
      if (range.type === PROTOBUF_MEDIA_TYPE && protobuf) return 'protobuf';
    }
    return undefined;
  };
  return { json: pick(false) as Offers['json'], protobuf: pick(true) };
});
