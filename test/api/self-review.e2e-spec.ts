// The self reviews over real HTTPS (`kubectl auth can-i`, `can-i --list`, `whoami`): exact
// answers, kube-apiserver's 422 and 400, JSON, YAML and protobuf bodies and answers, discovery of
// both groups, and the review calls being authorized themselves.
import { writeFile } from 'node:fs/promises';
import { stringify as toYaml } from 'yaml';
import { policyFilePath } from '../../src/authz/policy-file';
import { policyFor } from '../../src/authz/policy-presets';
import { decodeKubeObject } from '../../src/domain/codec/protobuf/kube-object-protobuf';
import { PROTOBUF, TYPED_CLIENT_ACCEPT, protobufBody } from '../helpers/protobuf-client';
import { type AuthzTestServer, startAuthzTestServer } from '../authz/authz-test-server';

const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const SSRR = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
const SSR = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const access = (spec: object, metadata: object = {}) => ({ kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata, spec });
const status = (code: number, reason: string, message: string, details?: object) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });
const DISCOVERY_RULES = [
  { verbs: ['get'], nonResourceURLs: ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'] },
  { verbs: ['get'], nonResourceURLs: ['/livez', '/readyz', '/healthz', '/version', '/version/'] },
];
const SELF_REVIEW_RULES = [
  { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
  { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
  { verbs: ['*'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
];

describe('self reviews', () => {
  let t: AuthzTestServer;
  beforeAll(async () => {
    t = await startAuthzTestServer([{ name: 'sw', groups: ['controllers'], policy: policyFor('status-writer', 'sw', 'team-a') }, { name: 'nobody' }]);
  });
  afterAll(async () => t.stop());

  describe('SelfSubjectAccessReview', () => {
    it("answers 201 with the review and its status, for the caller's identity", async () => {
      const spec = { resourceAttributes: { namespace: 'team-a', verb: 'update', resource: 'services', subresource: 'status' } };
      const res = await t.as('sw').post(SSAR, access(spec));
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/json\b/);
      expect(res.text).toBe(
        '{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"team-a","verb":"update","resource":"services","subresource":"status"}},"status":{"allowed":true}}',
      );
      const denied = await t.as('nobody').post(SSAR, access(spec));
      expect(denied.json.status).toEqual({ allowed: false, reason: 'No policy matched.' });
    });

    it('nothing is stored: a later list is unchanged and the same review answers the same', async () => {
      const before = await t.client.get('/api/v1/services');
      const spec = { nonResourceAttributes: { path: '/metrics', verb: 'get' } };
      const first = await t.as('sw').post(SSAR, access(spec));
      const second = await t.as('sw').post(SSAR, access(spec));
      expect(first.text).toBe(second.text);
      expect((await t.client.get('/api/v1/services')).json.metadata.resourceVersion).toBe(before.json.metadata.resourceVersion);
    });

    it.each([
      [
        'neither attribute kind',
        access({}),
        'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
        [{ reason: 'FieldValueInvalid', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified', field: 'spec.resourceAttributes' }],
      ],
      [
        'both attribute kinds',
        access({ resourceAttributes: { verb: 'get', resource: 'services' }, nonResourceAttributes: { path: '/healthz', verb: 'get' } }),
        'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/healthz", Verb:"get"}: cannot be specified in combination with resourceAttributes',
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: authorization.NonResourceAttributes{Path:"/healthz", Verb:"get"}: cannot be specified in combination with resourceAttributes',
            field: 'spec.nonResourceAttributes',
          },
        ],
      ],
    ])("422 Invalid for %s, with kube-apiserver's causes", async (_name, body, message, causes) => {
      const res = await t.as('sw').post(SSAR, body);
      expect(res.status).toBe(422);
      expect(res.text).toBe(status(422, 'Invalid', message, { group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview', causes }));
    });

    it('422 Invalid when metadata is not empty', async () => {
      const res = await t.as('sw').post(SSAR, access({ nonResourceAttributes: { path: '/healthz', verb: 'get' } }, { name: 'x' }));
      expect(res.status).toBe(422);
      expect(res.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: expect.stringMatching(/^Invalid value: v1\.ObjectMeta\{Name:"x", .*\}: must be empty$/), field: 'metadata' }]);
    });

    it('400 for a body that is not a SelfSubjectAccessReview, and for unknown fields with fieldValidation=Strict', async () => {
      const wrong = await t.as('sw').post(SSAR, { kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec: {} });
      expect(wrong.status).toBe(400);
      expect(wrong.json.message).toBe(
        'SubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: converting (v1.SubjectAccessReview) to (authorization.SelfSubjectAccessReview): unknown conversion',
      );
      const strict = await t.as('sw').post(`${SSAR}?fieldValidation=Strict`, access({ nonResourceAttributes: { path: '/x', verb: 'get', bogus: 1 } }));
      expect(strict.status).toBe(400);
      expect(strict.json.message).toBe(
        'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: strict decoding error: unknown field "spec.nonResourceAttributes.bogus"',
      );
      const warned = await t.as('sw').post(SSAR, access({ nonResourceAttributes: { path: '/x', verb: 'get', bogus: 1 } }));
      expect(warned.status).toBe(201);
      expect(warned.headers.warning).toBe('299 - "unknown field \\"spec.nonResourceAttributes.bogus\\""');
    });

    it('YAML body, YAML answer', async () => {
      const res = await t.as('sw').request('POST', SSAR, {
        body: toYaml(access({ resourceAttributes: { namespace: 'team-a', verb: 'list', resource: 'services' } })),
        contentType: 'application/yaml',
        accept: 'application/yaml',
      });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe('application/yaml');
      expect(res.text).toContain('status:\n  allowed: true\n');
    });

    it('protobuf body (as kubectl 1.33 sends it), protobuf answer', async () => {
      const body = protobufBody('SelfSubjectAccessReview', access({ resourceAttributes: { namespace: 'team-a', verb: 'patch', resource: 'services', subresource: 'status' } }));
      const res = await t.as('sw').request('POST', SSAR, { body, contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe(PROTOBUF);
      const answer = decodeKubeObject(res.bytes);
      expect(answer).toMatchObject({ kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', status: { allowed: true } });
      const invalid = await t.as('sw').request('POST', SSAR, { body: protobufBody('SelfSubjectAccessReview', access({})), contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT });
      expect(invalid.status).toBe(422);
      expect(invalid.headers['content-type']).toBe(PROTOBUF);
      expect(decodeKubeObject(invalid.bytes)).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
    });
  });

  describe('SelfSubjectRulesReview', () => {
    it("lists the bootstrap roles' paths, then the policy lines for the namespace; neither metadata nor spec is echoed", async () => {
      const res = await t.as('sw').post(SSRR, { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', spec: { namespace: 'team-a' } });
      expect(res.status).toBe(201);
      expect(res.json).toEqual({
        kind: 'SelfSubjectRulesReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: {},
        status: {
          resourceRules: [
            ...SELF_REVIEW_RULES,
            { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] },
            { verbs: ['*'], apiGroups: [''], resources: ['services/status'] },
            { verbs: ['*'], apiGroups: [''], resources: ['events'] },
            { verbs: ['*'], apiGroups: ['events.k8s.io'], resources: ['events'] },
          ],
          nonResourceRules: DISCOVERY_RULES,
          incomplete: false,
        },
      });
      const elsewhere = await t.as('sw').post(SSRR, { spec: { namespace: 'team-b' } });
      expect(elsewhere.json.status.resourceRules).toEqual(SELF_REVIEW_RULES);
    });

    it('400 without a namespace', async () => {
      const res = await t.as('sw').post(SSRR, { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', spec: {} });
      expect(res.status).toBe(400);
      expect(res.text).toBe(status(400, 'BadRequest', 'no namespace on request'));
    });

    it('protobuf in and out', async () => {
      const body = protobufBody('SelfSubjectRulesReview', { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', spec: { namespace: 'team-a' } });
      const res = await t.as('nobody').request('POST', SSRR, { body, contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT });
      expect(res.status).toBe(201);
      expect(decodeKubeObject(res.bytes)).toEqual({
        kind: 'SelfSubjectRulesReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: {},
        status: { resourceRules: SELF_REVIEW_RULES, nonResourceRules: DISCOVERY_RULES, incomplete: false },
      });
    });
  });

  describe('SelfSubjectReview', () => {
    it("answers the caller's user, uid and groups, system:authenticated included, stamped now", async () => {
      for (const path of [SSR, '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews']) {
        const res = await t.as('sw').post(path, { kind: 'SelfSubjectReview', apiVersion: path.split('/').slice(2, 4).join('/') });
        expect(res.status).toBe(201);
        expect(res.json).toEqual({
          kind: 'SelfSubjectReview',
          apiVersion: path.split('/').slice(2, 4).join('/'),
          metadata: { creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
          status: { userInfo: { username: 'sw', uid: 'uid-sw', groups: ['controllers', 'system:authenticated'] } },
        });
      }
    });

    it('protobuf in and out', async () => {
      const body = protobufBody('SelfSubjectReview', { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' });
      const res = await t.client.request('POST', SSR, { body, contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT });
      expect(res.status).toBe(201);
      expect(decodeKubeObject(res.bytes)).toMatchObject({
        kind: 'SelfSubjectReview',
        apiVersion: 'authentication.k8s.io/v1',
        status: { userInfo: { username: 'admin', groups: ['system:masters', 'system:authenticated'] } },
      });
    });
  });

  it('the reviews are create-only: other methods answer 405', async () => {
    for (const path of [SSAR, SSRR, SSR]) {
      const res = await t.as('nobody').get(path);
      expect(res.status).toBe(405);
      expect(res.json).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
    }
    expect((await t.client.delete(`${SSAR}/x`)).status).toBe(404);
  });

  it('the review calls need credentials like any request', async () => {
    for (const path of [SSAR, SSRR, SSR]) expect((await t.as('anonymous').post(path, {})).status).toBe(401);
  });

  describe('discovery', () => {
    it.each([
      [
        '/apis/authorization.k8s.io/v1',
        'authorization.k8s.io/v1',
        [
          ['localsubjectaccessreviews', 'localsubjectaccessreview', 'LocalSubjectAccessReview', true],
          ['selfsubjectaccessreviews', 'selfsubjectaccessreview', 'SelfSubjectAccessReview', false],
          ['selfsubjectrulesreviews', 'selfsubjectrulesreview', 'SelfSubjectRulesReview', false],
          ['subjectaccessreviews', 'subjectaccessreview', 'SubjectAccessReview', false],
        ],
      ],
      [
        '/apis/authentication.k8s.io/v1',
        'authentication.k8s.io/v1',
        [
          ['selfsubjectreviews', 'selfsubjectreview', 'SelfSubjectReview', false],
          ['tokenreviews', 'tokenreview', 'TokenReview', false],
        ],
      ],
      ['/apis/authentication.k8s.io/v1beta1', 'authentication.k8s.io/v1beta1', [['selfsubjectreviews', 'selfsubjectreview', 'SelfSubjectReview', false]]],
    ] as const)('%s lists create-only resources, cluster-scoped but for localsubjectaccessreviews', async (path, groupVersion, resources) => {
      const res = await t.as('nobody').get(path);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion,
        resources: resources.map(([name, singularName, kind, namespaced]) => ({ name, singularName, namespaced, kind, verbs: ['create'] })),
      });
    });

    it('/apis/<group> and an unknown version', async () => {
      expect((await t.as('nobody').get('/apis/authentication.k8s.io')).json).toEqual({
        kind: 'APIGroup',
        apiVersion: 'v1',
        name: 'authentication.k8s.io',
        versions: [
          { groupVersion: 'authentication.k8s.io/v1', version: 'v1' },
          { groupVersion: 'authentication.k8s.io/v1beta1', version: 'v1beta1' },
        ],
        preferredVersion: { groupVersion: 'authentication.k8s.io/v1', version: 'v1' },
      });
      expect((await t.as('nobody').get('/apis/authorization.k8s.io/v2')).status).toBe(404);
    });

    it('aggregated discovery lists both groups with their resources', async () => {
      const res = await t.as('nobody').get('/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
      const authz = res.json.items.find((g: any) => g.metadata.name === 'authorization.k8s.io');
      expect(authz.versions).toEqual([
        {
          version: 'v1',
          resources: [
            {
              resource: 'localsubjectaccessreviews',
              responseKind: { group: 'authorization.k8s.io', version: 'v1', kind: 'LocalSubjectAccessReview' },
              scope: 'Namespaced',
              singularResource: 'localsubjectaccessreview',
              verbs: ['create'],
            },
            {
              resource: 'selfsubjectaccessreviews',
              responseKind: { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview' },
              scope: 'Cluster',
              singularResource: 'selfsubjectaccessreview',
              verbs: ['create'],
            },
            {
              resource: 'selfsubjectrulesreviews',
              responseKind: { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectRulesReview' },
              scope: 'Cluster',
              singularResource: 'selfsubjectrulesreview',
              verbs: ['create'],
            },
            {
              resource: 'subjectaccessreviews',
              responseKind: { group: 'authorization.k8s.io', version: 'v1', kind: 'SubjectAccessReview' },
              scope: 'Cluster',
              singularResource: 'subjectaccessreview',
              verbs: ['create'],
            },
          ],
          freshness: 'Current',
        },
      ]);
    });
  });
});

describe('self reviews under a policy that does not grant them', () => {
  let t: AuthzTestServer;
  beforeAll(async () => {
    // A policy file from before svctrail served the reviews: the admin's line only.
    t = await startAuthzTestServer([{ name: 'ro', policy: policyFor('readonly', 'ro', 'team-a') }], async (dataDir) => {
      await writeFile(
        policyFilePath(dataDir),
        '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"admin","apiGroup":"*","resource":"*","namespace":"*","nonResourcePath":"*"}}\n' +
          '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"ro","readonly":true,"apiGroup":"*","resource":"*","namespace":"team-a"}}\n',
      );
    });
  });
  afterAll(async () => t.stop());

  it('the review calls are authorized themselves: 403 as for any create', async () => {
    const res = await t.as('ro').post(SSAR, access({ nonResourceAttributes: { path: '/healthz', verb: 'get' } }));
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(
      'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "ro" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    );
    const whoami = await t.as('ro').request('POST', SSR, { body: protobufBody('SelfSubjectReview', {}), contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT });
    expect(whoami.status).toBe(403);
    expect(decodeKubeObject(whoami.bytes)).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
  });
});
