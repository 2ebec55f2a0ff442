// The reviews a delegating server asks, served by svctrail over real HTTPS: TokenReview,
// SubjectAccessReview and LocalSubjectAccessReview, answered by svctrail's own authenticator and
// authorizer with kube-apiserver's bodies, errors and permissions (create on the resource; the
// auth-delegator preset), in JSON and protobuf, and through @kubernetes/client-node's typed APIs.
import * as k8s from '@kubernetes/client-node';
import { authDelegatorPolicy, policyFor } from '../../src/authz/policy-presets';
import { decodeKubeObject } from '../../src/domain/codec/protobuf/kube-object-protobuf';
import { type AuthzTestServer, startAuthzTestServer } from '../authz/authz-test-server';
import { kubeConfigFor } from '../helpers/client-node';
import { PROTOBUF, TYPED_CLIENT_ACCEPT, protobufBody } from '../helpers/protobuf-client';

const SAR = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
const LSAR = (ns: string) => `/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`;
const TR = '/apis/authentication.k8s.io/v1/tokenreviews';
const sar = (spec: object, metadata: object = {}) => ({ kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata, spec });
const lsar = (spec: object, metadata: object = {}) => ({ kind: 'LocalSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata, spec });
const tokenReview = (spec: object) => ({ kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', spec });
const status = (code: number, reason: string, message: string, details?: object) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });
const invalid = (kind: string, field: string, message: string) =>
  status(422, 'Invalid', `${kind}.authorization.k8s.io "" is invalid: ${field}: ${message}`, { group: 'authorization.k8s.io', kind, causes: [{ reason: 'FieldValueInvalid', message, field }] });
const UPDATE_STATUS = { namespace: 'team-a', verb: 'update', resource: 'services', subresource: 'status', name: 'web' };

describe('TokenReview, SubjectAccessReview and LocalSubjectAccessReview', () => {
  let t: AuthzTestServer;
  beforeAll(async () => {
    t = await startAuthzTestServer([
      { name: 'sw', groups: ['controllers'], policy: policyFor('status-writer', 'sw', 'team-a') },
      { name: 'delegator', policy: authDelegatorPolicy('delegator') },
      { name: 'ns-admin', policy: [{ user: 'ns-admin', apiGroup: 'authorization.k8s.io', resource: 'localsubjectaccessreviews', namespace: 'team-a' }] },
      { name: 'nobody' },
    ]);
  });
  afterAll(async () => t.stop());

  describe('SubjectAccessReview', () => {
    it("answers 201 with the review and its status for the user the spec names, as kube-apiserver's body", async () => {
      const res = await t.as('delegator').post(SAR, sar({ resourceAttributes: UPDATE_STATUS, user: 'sw', groups: ['controllers', 'system:authenticated'], uid: 'uid-sw' }));
      expect(res.status).toBe(201);
      expect(res.text).toBe(
        '{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"team-a","verb":"update","resource":"services","subresource":"status","name":"web"},"user":"sw","groups":["controllers","system:authenticated"],"uid":"uid-sw"},"status":{"allowed":true}}',
      );
      const elsewhere = await t.as('delegator').post(SAR, sar({ resourceAttributes: { ...UPDATE_STATUS, namespace: 'team-b' }, user: 'sw' }));
      expect(elsewhere.json.status).toEqual({ allowed: false, reason: 'No policy matched.' });
    });

    it('takes the groups as given (no system:authenticated added): a group alone may be asked about', async () => {
      const discovery = { nonResourceAttributes: { path: '/apis', verb: 'get' } };
      expect((await t.as('delegator').post(SAR, sar({ ...discovery, user: 'sw' }))).json.status).toEqual({ allowed: false, reason: 'No policy matched.' });
      expect((await t.as('delegator').post(SAR, sar({ ...discovery, user: 'sw', groups: ['system:authenticated'] }))).json.status).toEqual({
        allowed: true,
        reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"',
      });
      expect((await t.as('delegator').post(SAR, sar({ nonResourceAttributes: { path: '/metrics', verb: 'get' }, groups: ['system:masters'] }))).json.status).toEqual({ allowed: true });
    });

    it("refuses a review naming no one, or naming neither attribute kind, with kube-apiserver's 422", async () => {
      const noOne = await t.as('delegator').post(SAR, sar({ nonResourceAttributes: { path: '/x', verb: 'get' } }));
      expect(noOne.status).toBe(422);
      expect(noOne.text).toBe(invalid('SubjectAccessReview', 'spec.user', 'Invalid value: "": at least one of user or group must be specified'));
      const nothing = await t.as('delegator').post(SAR, sar({ user: 'sw' }));
      expect(nothing.text).toBe(invalid('SubjectAccessReview', 'spec.resourceAttributes', 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified'));
    });

    it('needs create on subjectaccessreviews: 403 for a user without it, as kube-apiserver words it', async () => {
      const res = await t.as('nobody').post(SAR, sar({ resourceAttributes: UPDATE_STATUS, user: 'sw' }));
      expect(res.status).toBe(403);
      expect(res.json.message).toBe(
        'subjectaccessreviews.authorization.k8s.io is forbidden: User "nobody" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
      );
    });

    it('protobuf body, protobuf answer (a client-go typed client)', async () => {
      const body = protobufBody('SubjectAccessReview', sar({ resourceAttributes: UPDATE_STATUS, user: 'sw', groups: ['controllers'], extra: { scopes: ['a', 'b'] } }));
      const res = await t.as('delegator').request('POST', SAR, { body, contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe(PROTOBUF);
      expect(decodeKubeObject(res.bytes)).toMatchObject({ kind: 'SubjectAccessReview', spec: { user: 'sw', extra: { scopes: ['a', 'b'] } }, status: { allowed: true } });
    });
  });

  describe('LocalSubjectAccessReview', () => {
    it('answers about the namespace of its path, the body namespace defaulted from it', async () => {
      const res = await t.as('ns-admin').post(LSAR('team-a'), lsar({ resourceAttributes: { namespace: 'team-a', verb: 'patch', resource: 'services', subresource: 'status' }, user: 'sw' }));
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ kind: 'LocalSubjectAccessReview', metadata: { namespace: 'team-a' }, status: { allowed: true } });
    });

    it('refuses attributes of another namespace, non-resource attributes and a body of another namespace, as kube-apiserver', async () => {
      const other = await t.as('ns-admin').post(LSAR('team-a'), lsar({ resourceAttributes: { namespace: 'team-b', verb: 'get', resource: 'services' }, user: 'sw' }));
      expect(other.text).toBe(invalid('LocalSubjectAccessReview', 'spec.resourceAttributes.namespace', 'Invalid value: "team-b": must match metadata.namespace'));
      const path = await t.as('ns-admin').post(LSAR('team-a'), lsar({ nonResourceAttributes: { path: '/metrics', verb: 'get' }, user: 'sw' }));
      expect(path.status).toBe(422);
      expect(path.json.details.causes).toEqual([
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: authorization.NonResourceAttributes{Path:"/metrics", Verb:"get"}: disallowed on this kind of request',
          field: 'spec.nonResourceAttributes',
        },
      ]);
      const body = await t.as('ns-admin').post(LSAR('team-a'), lsar({ resourceAttributes: { namespace: 'team-a', verb: 'get', resource: 'services' }, user: 'sw' }, { namespace: 'team-b' }));
      expect(body.text).toBe(status(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request'));
    });

    it('needs create on localsubjectaccessreviews in that namespace', async () => {
      const res = await t.as('ns-admin').post(LSAR('team-b'), lsar({ resourceAttributes: { namespace: 'team-b', verb: 'get', resource: 'services' }, user: 'sw' }));
      expect(res.status).toBe(403);
      expect(res.json.message).toBe(
        'localsubjectaccessreviews.authorization.k8s.io is forbidden: User "ns-admin" cannot create resource "localsubjectaccessreviews" in API group "authorization.k8s.io" in the namespace "team-b"',
      );
    });
  });

  describe('TokenReview', () => {
    it("says whose a token is, groups with system:authenticated, the review echoed as kube-apiserver's body", async () => {
      const token = t.tokenOf('sw');
      const res = await t.as('delegator').post(TR, tokenReview({ token }));
      expect(res.status).toBe(201);
      expect(res.text).toBe(
        `{"kind":"TokenReview","apiVersion":"authentication.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"token":"${token}"},"status":{"authenticated":true,"user":{"username":"sw","uid":"uid-sw","groups":["controllers","system:authenticated"]}}}`,
      );
    });

    it('answers an unknown token with authenticated unset and an empty user, and a review asking for audiences as unauthenticated (svctrail has none)', async () => {
      const unknown = await t.as('delegator').post(TR, tokenReview({ token: 'no-such-token' }));
      expect(unknown.status).toBe(201);
      expect(unknown.json.status).toEqual({ user: {} });
      const audiences = await t.as('delegator').post(TR, tokenReview({ token: t.tokenOf('sw'), audiences: ['https://kubernetes.default.svc'] }));
      expect(audiences.json.status).toEqual({ user: {} });
    });

    it('refuses a review without a token (400), and a caller without create on tokenreviews (403)', async () => {
      const empty = await t.as('delegator').post(TR, tokenReview({}));
      expect(empty.text).toBe(status(400, 'BadRequest', 'token is required for TokenReview in authentication'));
      const denied = await t.as('sw').post(TR, tokenReview({ token: 'x' }));
      expect(denied.status).toBe(403);
      expect(denied.json.message).toBe('tokenreviews.authentication.k8s.io is forbidden: User "sw" cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope');
    });

    it('protobuf body, protobuf answer', async () => {
      const body = protobufBody('TokenReview', tokenReview({ token: t.tokenOf('sw') }));
      const res = await t.as('delegator').request('POST', TR, { body, contentType: PROTOBUF, accept: TYPED_CLIENT_ACCEPT });
      expect(res.headers['content-type']).toBe(PROTOBUF);
      expect(decodeKubeObject(res.bytes)).toMatchObject({ kind: 'TokenReview', status: { authenticated: true, user: { username: 'sw', groups: ['controllers', 'system:authenticated'] } } });
    });
  });

  it("@kubernetes/client-node's typed APIs create both reviews and read the answers", async () => {
    const kc = kubeConfigFor(t);
    const authn = kc.makeApiClient(k8s.AuthenticationV1Api);
    const review = await authn.createTokenReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: t.tokenOf('sw') } } });
    expect(review.status).toMatchObject({ authenticated: true, user: { username: 'sw', uid: 'uid-sw' } });
    const authz = kc.makeApiClient(k8s.AuthorizationV1Api);
    const access = await authz.createSubjectAccessReview({ body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { resourceAttributes: UPDATE_STATUS, user: 'sw' } } });
    expect(access.status).toEqual({ allowed: true });
  });

  it('lists the reviews in discovery: create-only, localsubjectaccessreviews namespaced, tokenreviews in v1 only', async () => {
    const authorization = (await t.client.get('/apis/authorization.k8s.io/v1')).json;
    expect(authorization.resources.map((r: any) => [r.name, r.namespaced, r.verbs])).toEqual([
      ['localsubjectaccessreviews', true, ['create']],
      ['selfsubjectaccessreviews', false, ['create']],
      ['selfsubjectrulesreviews', false, ['create']],
      ['subjectaccessreviews', false, ['create']],
    ]);
    expect((await t.client.get('/apis/authentication.k8s.io/v1')).json.resources.map((r: any) => r.name)).toEqual(['selfsubjectreviews', 'tokenreviews']);
    expect((await t.client.get('/apis/authentication.k8s.io/v1beta1')).json.resources.map((r: any) => r.name)).toEqual(['selfsubjectreviews']);
  });
});
