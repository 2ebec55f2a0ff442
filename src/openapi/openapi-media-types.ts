// Accept negotiation for the OpenAPI endpoints, which offer formats the resource endpoints do
// not (gnostic protobuf) and so cannot use the shared negotiator.

/** The v2 protobuf type as answered. The `@v1.0` spelling clients ask for is not a valid Go media type (§4.3). */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const OPENAPI_V2_PROTOBUF_REQUESTED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

export type OpenApiFormat = 'json' | 'protobuf';

const V2_OFFERS: Record<string, OpenApiFormat> = {
  'application/json': 'json',
  [OPENAPI_V2_PROTOBUF]: 'protobuf',
  [OPENAPI_V2_PROTOBUF_REQUESTED]: 'protobuf',
};

const V3_OFFERS: Record<string, OpenApiFormat> = { 'application/json': 'json' };

function mediaRanges(accept: string): string[] {
  return accept
    .split(',')
    .map((part, index) => {
      const [type, ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => /^q=/i.test(p));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { type: type.toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.type && r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((r) => r.type);
}

function negotiate(accept: string | undefined, offers: Record<string, OpenApiFormat>): OpenApiFormat | undefined {
  // No Accept at all means anything; JSON is what a person with curl wants to read.
  if (!accept || !accept.trim()) return 'json';
  for (const type of mediaRanges(accept)) {
    if (offers[type]) return offers[type];
    // Wildcards get the first offer, as kube-openapi's handler does: JSON.
    if (type === '*/*' || type === 'application/*') return 'json';
  }
  return undefined;
}

export function negotiateOpenApiV2(accept: string | undefined): OpenApiFormat | undefined {
  return negotiate(accept, V2_OFFERS);
}

export function negotiateOpenApiV3(accept: string | undefined): OpenApiFormat | undefined {
  return negotiate(accept, V3_OFFERS);
}
