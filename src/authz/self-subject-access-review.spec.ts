import type { UserInfo } from '../auth/user-info';
import { InvalidError } from '../domain/errors/domain-errors';
import { formatPolicyLine, parsePolicy } from './abac-policy';
import { policyFor, selfReviewPolicy } from './policy-presets';
import { requestAttributes } from './request-attributes';
import { authorize } from './request-authorizer';
import { Authorizer } from './authorizer';
import { answerSelfSubjectAccessReview, reviewAttributes } from './self-subject-access-review';

const policy = parsePolicy([...selfReviewPolicy(), ...policyFor('status-writer', 'sw', 'team-a')].map(formatPolicyLine).join(''), 'policy.jsonl');
const sw: UserInfo = { name: 'sw', groups: ['system:authenticated'] };
const review = (spec: object, metadata: object = {}) => ({ kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata, spec });
const authorizer = new Authorizer(policy);
const invalid = async (answer: Promise<unknown>): Promise<InvalidError> => {
  try {
    await answer;
  } catch (error) {
    if (error instanceof InvalidError) return error;
    throw error;
  }
  throw new Error('expected InvalidError');
};

describe('SelfSubjectAccessReview', () => {
  it.each([
    [{ namespace: 'team-a', verb: 'update', resource: 'services', subresource: 'status', name: 'web' }, true, undefined],
    [{ namespace: 'team-a', verb: 'patch', resource: 'services', subresource: 'status' }, true, undefined],
    [{ namespace: 'team-a', verb: 'list', group: 'apps', resource: 'deployments' }, true, undefined],
    [{ namespace: 'team-a', verb: 'update', resource: 'services', name: 'status' }, false, 'No policy matched.'],
    [{ namespace: 'team-b', verb: 'update', resource: 'services', subresource: 'status' }, false, 'No policy matched.'],
    [{ verb: 'list', resource: 'services' }, false, 'No policy matched.'],
    [{ verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }, true, undefined],
  ])('given resource attributes %j, then allowed is %s with reason %s', async (attributes, allowed, reason) => {
    const answer = await answerSelfSubjectAccessReview(authorizer, sw, review({ resourceAttributes: attributes }));
    expect(answer).toEqual({ ...review({ resourceAttributes: attributes }), status: reason ? { allowed, reason } : { allowed } });
  });

  it.each([
    [
      { path: '/apis', verb: 'get' },
      { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' },
    ],
    [
      { path: '/healthz', verb: 'get' },
      { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' },
    ],
    [
      { path: '/metrics', verb: 'get' },
      { allowed: false, reason: 'No policy matched.' },
    ],
    [
      { path: '/apis', verb: 'post' },
      { allowed: false, reason: 'No policy matched.' },
    ],
  ])('given non-resource attributes %j, then the status is %j', async (attributes, status) => {
    expect((await answerSelfSubjectAccessReview(authorizer, sw, review({ nonResourceAttributes: attributes }))).status).toEqual(status);
  });

  it("given system:masters, then allowed with the privileged-groups authorizer's empty reason", async () => {
    const admin: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
    expect((await answerSelfSubjectAccessReview(authorizer, admin, review({ nonResourceAttributes: { path: '/metrics', verb: 'get' } }))).status).toEqual({ allowed: true });
  });

  it('given the attributes of a real request, then the review decides as the request authorizer does', async () => {
    for (const [method, url] of [
      ['PUT', '/api/v1/namespaces/team-a/services/web/status'],
      ['GET', '/api/v1/services'],
      ['GET', '/openapi/v3'],
      ['DELETE', '/api/v1/namespaces/team-a/services'],
    ]) {
      const attributes = requestAttributes(method, url);
      const spec = attributes.isResourceRequest
        ? {
            resourceAttributes: {
              namespace: attributes.namespace,
              verb: attributes.verb,
              group: attributes.apiGroup,
              version: attributes.apiVersion,
              resource: attributes.resource,
              subresource: attributes.subresource,
              name: attributes.name,
            },
          }
        : { nonResourceAttributes: { path: attributes.path, verb: attributes.verb } };
      expect({ ...reviewAttributes(spec), apiPrefix: attributes.apiPrefix, path: attributes.path }).toEqual(attributes);
      expect((await answerSelfSubjectAccessReview(authorizer, sw, review(spec))).status).toMatchObject({ allowed: authorize(policy, sw, attributes).allowed });
    }
  });

  it('given an empty version, then it matches every version ("*")', async () => {
    expect(reviewAttributes({ resourceAttributes: { verb: 'get', resource: 'services' } }).apiVersion).toBe('*');
  });

  describe("validation (422 Invalid, kube-apiserver's causes)", () => {
    it('given neither attribute kind, then spec.resourceAttributes is invalid', async () => {
      const error = await invalid(answerSelfSubjectAccessReview(authorizer, sw, review({})));
      expect(error.message).toBe(
        'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      );
      expect(error.details).toEqual({
        group: 'authorization.k8s.io',
        kind: 'SelfSubjectAccessReview',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified', field: 'spec.resourceAttributes' }],
      });
    });

    it('given both attribute kinds, then spec.nonResourceAttributes is invalid, printed as the internal Go struct', async () => {
      const error = await invalid(answerSelfSubjectAccessReview(authorizer, sw, review({ resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } })));
      expect(error.details?.causes).toEqual([
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
          field: 'spec.nonResourceAttributes',
        },
      ]);
    });

    it('given a selector attribute (1.31+), then it needs a raw selector or requirements, not both; a valid one changes nothing for ABAC', async () => {
      const both = await invalid(
        answerSelfSubjectAccessReview(
          authorizer,
          sw,
          review({ resourceAttributes: { verb: 'list', resource: 'services', labelSelector: { rawSelector: 'a=b', requirements: [{ key: 'a', operator: 'In', values: ['b'] }] }, fieldSelector: {} } }),
        ),
      );
      expect(both.details?.causes).toEqual([
        {
          reason: 'FieldValueRequired',
          message: 'Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required',
          field: 'spec.resourceAttributes.fieldSelector.requirements',
        },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "a=b": may not specified at the same time as requirements', field: 'spec.resourceAttributes.labelSelector.rawSelector' },
      ]);
      const selected = await answerSelfSubjectAccessReview(
        authorizer,
        sw,
        review({ resourceAttributes: { namespace: 'team-a', verb: 'list', resource: 'services', labelSelector: { rawSelector: 'app=web' } } }),
      );
      expect(selected.status).toEqual({ allowed: true });
    });

    it('given metadata, then metadata must be empty (managedFields aside), and both errors are listed together', async () => {
      const error = await invalid(answerSelfSubjectAccessReview(authorizer, sw, review({}, { name: 'x', labels: { a: 'b' } })));
      expect(error.details?.causes?.map((c) => c.field)).toEqual(['spec.resourceAttributes', 'metadata']);
      expect(error.message).toMatch(
        /^SelfSubjectAccessReview\.authorization\.k8s\.io "" is invalid: \[spec\.resourceAttributes: Invalid value: "null": .*, metadata: Invalid value: v1\.ObjectMeta\{Name:"x", GenerateName:"", .*Labels:map\[string\]string\{"a":"b"\}, .*\}: must be empty\]$/,
      );
      await expect(answerSelfSubjectAccessReview(authorizer, sw, review({ nonResourceAttributes: { path: '/x', verb: 'get' } }, { managedFields: [{ manager: 'm' }] }))).resolves.toMatchObject({
        status: {},
      });
      await expect(answerSelfSubjectAccessReview(authorizer, sw, review({ nonResourceAttributes: { path: '/x', verb: 'get' } }, { creationTimestamp: null, labels: {} }))).resolves.toMatchObject({
        status: {},
      });
    });
  });
});
