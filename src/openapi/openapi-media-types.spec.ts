import { negotiateOpenApiV2, negotiateOpenApiV3 } from './openapi-media-types';

describe('OpenAPI Accept negotiation', () => {
  it('gives client-go protobuf for either spelling of the gnostic media type', () => {
    expect(negotiateOpenApiV2('application/com.github.proto-openapi.spec.v2@v1.0+protobuf')).toBe('protobuf');
    expect(negotiateOpenApiV2('application/com.github.proto-openapi.spec.v2.v1.0+protobuf')).toBe('protobuf');
  });

  it('honours q and order, and sends JSON for wildcards or no Accept', () => {
    expect(negotiateOpenApiV2('application/json;q=0.5, application/com.github.proto-openapi.spec.v2@v1.0+protobuf')).toBe('protobuf');
    expect(negotiateOpenApiV2('application/json, application/com.github.proto-openapi.spec.v2@v1.0+protobuf')).toBe('json');
    expect(negotiateOpenApiV2('*/*')).toBe('json');
    expect(negotiateOpenApiV2(undefined)).toBe('json');
    expect(negotiateOpenApiV2('text/html, application/*;q=0.1')).toBe('json');
  });

  it('refuses what it cannot produce', () => {
    expect(negotiateOpenApiV2('application/yaml')).toBeUndefined();
    expect(negotiateOpenApiV2('application/json;q=0')).toBeUndefined();
    expect(negotiateOpenApiV3('application/com.github.proto-openapi.spec.v3@v1.0+protobuf')).toBeUndefined();
    expect(negotiateOpenApiV3('application/com.github.proto-openapi.spec.v3@v1.0+protobuf, application/json')).toBe('json');
  });
});
