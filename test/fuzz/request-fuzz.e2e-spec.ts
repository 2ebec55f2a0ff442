// Throws generated requests at the running server: random methods, paths, query strings,
// content types and bodies (broken JSON, deep nesting, huge numbers, invalid UTF-8,
// prototype-pollution keys, wrong kinds, whole/cut/flipped protobuf envelopes, protobuf-first
// Accept). No crash, no hang, no 5xx beyond those kube-apiserver
// itself returns, every error a Status, and afterwards the log folds to exactly the projections.
// `npm test` runs a slice; `npm run test:fuzz` sets SVCTRAIL_FUZZ_RUNS=10000.
import fc from 'fast-check';
import { join } from 'node:path';
import { encodeEnvelope } from '../../src/domain/codec/protobuf/kube-envelope';
import { decodeKubeObject, encodeKubeObject } from '../../src/domain/codec/protobuf/kube-object-protobuf';
import { foldLogAndCompare } from '../helpers/log-fold';
import { PROTOBUF, TYPED_CLIENT_ACCEPT } from '../helpers/protobuf-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

const RUNS = Number(process.env.SVCTRAIL_FUZZ_RUNS ?? 600);

const names = fc.constantFrom('web', 'db', 'x', '', 'Bad_Name', '..', '%2e%2e', 'a'.repeat(70), '__proto__', 'constructor');
const namespaces = fc.constantFrom('default', 'fuzz', 'kube-system', 'UPPER', '', '%00');
const paths = fc.oneof(
  fc.tuple(namespaces, names).map(([ns, n]) => `/api/v1/namespaces/${ns}/services/${n}`),
  fc.tuple(namespaces, names).map(([ns, n]) => `/api/v1/namespaces/${ns}/services/${n}/status`),
  namespaces.map((ns) => `/api/v1/namespaces/${ns}/services`),
  namespaces.map((ns) => `/api/v1/namespaces/${ns}/events`),
  fc.constantFrom(
    '/api/v1/services',
    '/api/v1/events',
    '/api',
    '/apis',
    '/api/v1',
    '/version',
    '/openapi/v3',
    '/openapi/v2',
    '/metrics',
    '/healthz',
    '/nope',
    '/api/v1/namespaces',
    '/api/v1/namespaces/default/services/web/status/extra',
  ),
);
const queries = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'watch',
        'resourceVersion',
        'resourceVersionMatch',
        'limit',
        'continue',
        'labelSelector',
        'fieldSelector',
        'dryRun',
        'fieldValidation',
        'fieldManager',
        'timeoutSeconds',
        'asOf',
        'propagationPolicy',
        'gracePeriodSeconds',
        'includeObject',
        'force',
      ),
      fc.oneof(
        fc.constantFrom('true', '0', '1', '-1', 'All', 'Strict', 'Exact', 'x=y', 'a in (b)', '!a', 'spec.type=NodePort', '99999999999999999999', '2026-01-01T00:00:00Z', 'Foo', 'None', ''),
        fc.string({ maxLength: 12 }),
      ),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&') : ''));
const contentTypes = fc.constantFrom(
  'application/json',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/yaml',
  'text/plain',
  'application/json; charset=utf-8',
  'application/vnd.kubernetes.protobuf',
);
const service = fc.record(
  {
    apiVersion: fc.constantFrom('v1', 'v2', undefined),
    kind: fc.constantFrom('Service', 'Pod', undefined),
    metadata: fc.record({ name: names, labels: fc.dictionary(fc.constantFrom('app', '__proto__', 'a/b/c', 'x'), fc.string({ maxLength: 5 }), { maxKeys: 2 }) }, { requiredKeys: [] }),
    spec: fc.record(
      {
        type: fc.constantFrom('ClusterIP', 'LoadBalancer', 'NodePort', 'ExternalName', 'Foo'),
        ports: fc.array(fc.record({ port: fc.oneof(fc.integer({ min: -5, max: 70000 }), fc.constant('80')), nodePort: fc.integer({ min: 0, max: 40000 }) }, { requiredKeys: ['port'] }), {
          maxLength: 3,
        }),
        clusterIP: fc.constantFrom('None', '10.96.0.10', '1.2.3.4', 'x'),
        selector: fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
      },
      { requiredKeys: [] },
    ),
    status: fc.record(
      {
        loadBalancer: fc.record({
          ingress: fc.array(fc.record({ ip: fc.constantFrom('1.2.3.4', 'abc', '::1'), hostname: fc.constantFrom('lb.example.com', '1.2.3.4') }, { requiredKeys: [] }), { maxLength: 2 }),
        }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);
const bodies = fc.oneof(
  service.map((s) => JSON.stringify(s)),
  fc.constantFrom(
    '',
    '{',
    '[',
    'null',
    '1e400',
    '{"a":1,"a":2}',
    '[{"op":"replace","path":"/spec/type","value":"NodePort"}]',
    '[{"op":"nope"}]',
    '{"$patch":"delete"}',
    '{"spec":{"ports":[{"$patch":"delete"}]}}',
    '{"metadata":{"finalizers":null}}',
    '{"__proto__":{"x":1}}',
  ),
  fc.integer({ min: 1, max: 3000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
  fc.integer({ min: 1, max: 3000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.constant('\xff\xfe{"metadata":{"name":"\ud800"}}'),
  fc.string({ maxLength: 200 }),
);
// Protobuf bodies: whole envelopes of random Services and DeleteOptions, then the same cut short,
// bit-flipped, or with random bytes as the message.
const envelopes = fc.oneof(
  service.map((s) => Buffer.from(encodeKubeObject('Service', s))),
  fc
    .record({ dryRun: fc.array(fc.constantFrom('All', 'x'), { maxLength: 2 }), preconditions: fc.record({ uid: fc.string({ maxLength: 8 }) }, { requiredKeys: [] }) }, { requiredKeys: [] })
    .map((o) => Buffer.from(encodeKubeObject('DeleteOptions', o))),
  fc.tuple(fc.constantFrom('Service', 'Pod', ''), fc.constantFrom('v1', 'v2', ''), fc.uint8Array({ maxLength: 64 })).map(([kind, version, raw]) => Buffer.from(encodeEnvelope(version, kind, raw))),
);
const protobufBodies = fc.oneof(
  envelopes,
  fc.tuple(envelopes, fc.nat()).map(([bytes, cut]) => bytes.subarray(0, cut % (bytes.length + 1))),
  fc.tuple(envelopes, fc.nat(), fc.integer({ min: 1, max: 255 })).map(([bytes, at, mask]) => {
    const copy = Buffer.from(bytes);
    copy[at % copy.length] ^= mask;
    return copy;
  }),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.concat([Buffer.from('k8s\0', 'latin1'), bytes])),
);
const accepts = fc.constantFrom('application/json', TYPED_CLIENT_ACCEPT);

describe(`request fuzz (${RUNS} requests)`, () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    await t.client.post('/api/v1/namespaces/fuzz/services', { metadata: { name: 'web', finalizers: ['example.com/f'] }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
  });
  afterAll(async () => t.stop());

  it('never crashes, hangs or answers an unexpected 5xx, and the store stays consistent', async () => {
    const codes = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
        paths,
        queries,
        contentTypes,
        fc.option(fc.oneof(bodies, protobufBodies), { nil: undefined }),
        accepts,
        async (method, path, query, contentType, body, accept) => {
          // A watch would stream until its timeout; keep them short.
          const q = query.includes('watch=') ? `${query}&timeoutSeconds=1` : query;
          let timer: NodeJS.Timeout | undefined;
          const res = await Promise.race([
            t.client.request(method, path + q, { body: method === 'GET' || method === 'HEAD' ? undefined : body, contentType, accept }),
            new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hung: ${method} ${path + q}`)), 10000))),
          ]).finally(() => clearTimeout(timer));
          codes.set(res.status, (codes.get(res.status) ?? 0) + 1);
          const protobufAnswer = String(res.headers['content-type'] ?? '').startsWith(PROTOBUF);
          if (res.status >= 400 && method !== 'HEAD') {
            const status = protobufAnswer ? decodeKubeObject(res.bytes) : res.json;
            expect(status?.kind).toBe('Status');
            expect(status?.code).toBe(res.status);
          }
          if (res.status >= 500) {
            // A HEAD answer has no body: the same request as a GET shows which error it was.
            const answer = method === 'HEAD' ? await t.client.request('GET', path + q, {}) : res;
            expect(answer.status).toBe(res.status);
            const status = method !== 'HEAD' && protobufAnswer ? decodeKubeObject(res.bytes) : answer.json;
            // kube-apiserver's own 5xx: reason-less raw storage/patch errors and 504 for a too-new resourceVersion.
            expect(status.reason === undefined || answer.status === 504).toBe(true);
          }
        },
      ),
      // FC_SEED replays a reported counterexample.
      { numRuns: RUNS, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
    );
    process.stdout.write(`fuzz: ${RUNS} requests, status codes ${JSON.stringify(Object.fromEntries([...codes].sort()))}\n`);
    expect((await t.client.get('/healthz')).text).toBe('ok');
    const report = foldLogAndCompare(join(t.dataDir, 'svctrail.db'));
    expect(report.differences).toEqual([]);
  }, 600000);
});
