// The OpenAPI endpoints over real HTTPS: content types, hashes, ETags, redirects, auth.
import { request as httpsRequest } from 'node:https';
import { OPENAPI_V2_JSON_DOCUMENT, OPENAPI_V2_PROTOBUF_DOCUMENT } from '../../src/openapi/openapi-v2';
import { EVENTS_V1_OPENAPI_V3 } from '../../src/openapi/events-v1-openapi-v3';
import { SERVICE_OPENAPI_V3 } from '../../src/openapi/service-openapi-v3';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { str } from './protobuf-reader';

interface BinaryResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe('OpenAPI endpoints', () => {
  let t: TestServer;

  const get = (path: string, headers: Record<string, string> = {}, token: string | null = t.adminToken): Promise<BinaryResponse> =>
    new Promise((resolve, reject) => {
      const url = new URL(path, t.server.url);
      const req = httpsRequest(url, { method: 'GET', ca: t.ca, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('indexes api/v1 and apis/events.k8s.io/v1 under the hashes of their documents', async () => {
    const res = await get('/openapi/v3', { accept: 'application/json, */*' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('no-cache, private');
    expect(JSON.parse(res.body.toString())).toEqual({
      paths: {
        'api/v1': { serverRelativeURL: `/openapi/v3/api/v1?hash=${SERVICE_OPENAPI_V3.hash}` },
        'apis/events.k8s.io/v1': { serverRelativeURL: `/openapi/v3/apis/events.k8s.io/v1?hash=${EVENTS_V1_OPENAPI_V3.hash}` },
      },
    });
  });

  it('serves the events.k8s.io/v1 document at its hash, and redirects a stale hash to it', async () => {
    const url = `/openapi/v3/apis/events.k8s.io/v1?hash=${EVENTS_V1_OPENAPI_V3.hash}`;
    const res = await get(url, { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, immutable');
    expect(res.body.equals(EVENTS_V1_OPENAPI_V3.bytes)).toBe(true);
    const stale = await get('/openapi/v3/apis/events.k8s.io/v1?hash=0123', { accept: 'application/json' });
    expect(stale.status).toBe(301);
    expect(stale.headers.location).toBe(url);
  });

  it('serves the hashed document as immutable, with an ETag that answers 304', async () => {
    const url = `/openapi/v3/api/v1?hash=${SERVICE_OPENAPI_V3.hash}`;
    const res = await get(url, { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('public, immutable');
    expect(res.headers.etag).toBe(`"${SERVICE_OPENAPI_V3.hash}"`);
    expect(new Date(String(res.headers.expires)).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
    expect(res.body.equals(SERVICE_OPENAPI_V3.bytes)).toBe(true);

    const again = await get(url, { accept: 'application/json', 'if-none-match': `"${SERVICE_OPENAPI_V3.hash}"` });
    expect(again.status).toBe(304);
    expect(again.body).toHaveLength(0);
  });

  it('serves the document without a hash too, and redirects a stale hash', async () => {
    const plain = await get('/openapi/v3/api/v1', { accept: 'application/json' });
    expect(plain.status).toBe(200);
    expect(plain.headers['cache-control']).toBe('no-cache, private');
    expect(JSON.parse(plain.body.toString()).components.schemas['io.k8s.api.core.v1.Service']).toBeDefined();

    const stale = await get('/openapi/v3/api/v1?hash=0123', { accept: 'application/json' });
    expect(stale.status).toBe(301);
    expect(stale.headers.location).toBe(`/openapi/v3/api/v1?hash=${SERVICE_OPENAPI_V3.hash}`);
  });

  it('answers 406 with a Status when v3 is asked for as protobuf only', async () => {
    const res = await get('/openapi/v3/api/v1', { accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' });
    expect(res.status).toBe(406);
    expect(JSON.parse(res.body.toString())).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
  });

  it('serves /openapi/v2 as gnostic protobuf under a Go-parsable media type', async () => {
    const res = await get('/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect(res.headers.etag).toBe(OPENAPI_V2_PROTOBUF_DOCUMENT.etag);
    expect(res.body.equals(OPENAPI_V2_PROTOBUF_DOCUMENT.bytes)).toBe(true);
    expect(str(res.body, 1)).toBe('2.0');

    const cached = await get('/openapi/v2', {
      accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      'if-none-match': OPENAPI_V2_PROTOBUF_DOCUMENT.etag,
    });
    expect(cached.status).toBe(304);
  });

  it('serves /openapi/v2 as JSON when asked, and refuses YAML', async () => {
    const res = await get('/openapi/v2', { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers.etag).toBe(OPENAPI_V2_JSON_DOCUMENT.etag);
    expect(JSON.parse(res.body.toString()).swagger).toBe('2.0');
    expect((await get('/openapi/v2', { accept: 'application/yaml' })).status).toBe(406);
  });

  it('requires credentials like every other API path', async () => {
    const res = await get('/openapi/v3', { accept: 'application/json' }, null);
    expect(res.status).toBe(401);
  });
});
