import type { UserInfo } from '../auth/user-info';
import { parsePolicy } from './abac-policy';
import { abacRulesFor } from './abac-rule-resolver';
import { DISCOVERY_URLS, PUBLIC_INFO_URLS } from './bootstrap-roles';
import { policyFor, selfReviewPolicy } from './policy-presets';
import { formatPolicyLine } from './abac-policy';
import { rulesFor } from './rule-resolver';

const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups: [...groups, 'system:authenticated'] });
const V1 = (spec: object) => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
const file = (...lines: string[]) => parsePolicy(lines.join('\n'), 'policy.jsonl');

describe('ABAC rule resolver (PolicyList.RulesFor)', () => {
  it('given readonly and writable lines, when resolved, then verbs are get/list/watch or "*" and group and resource are copied verbatim', () => {
    const policy = file(V1({ user: 'u', readonly: true, apiGroup: '*', resource: '*', namespace: 'a' }), V1({ user: 'u', apiGroup: '', resource: 'services/status', namespace: 'a' }));
    expect(abacRulesFor(policy, user('u'), 'a')).toEqual({
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], apiGroups: [''], resources: ['services/status'] },
      ],
      nonResourceRules: [],
      incomplete: false,
    });
  });

  it('given lines for other namespaces or users, when resolved, then only "*" and the asked namespace of matching subjects count', () => {
    const policy = file(
      V1({ user: 'u', resource: 'services', namespace: 'b' }),
      V1({ user: 'other', resource: 'services', namespace: '*' }),
      V1({ group: 'ops', resource: 'events', namespace: '*' }),
      V1({ user: 'u', group: 'ops', resource: 'pods', namespace: '*' }),
      V1({ user: '*', readonly: true, resource: 'configmaps', namespace: 'a' }),
    );
    expect(abacRulesFor(policy, user('u'), 'a').resourceRules).toEqual([{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] }]);
    expect(abacRulesFor(policy, user('u', 'ops'), 'a').resourceRules.map((r) => r.resources[0])).toEqual(['events', 'pods', 'configmaps']);
  });

  it('quirk: a cluster-only line (namespace "") is never listed, its paths neither, although it allows requests', () => {
    const policy = file(V1({ user: 'u', resource: 'services', namespace: '' }), V1({ user: 'u', nonResourcePath: '/metrics' }));
    expect(abacRulesFor(policy, user('u'), 'a')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
  });

  it('quirk: one line with a resource and a path gives a rule of each kind, in file order', () => {
    const policy = file(V1({ user: 'u', apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*' }), V1({ user: 'u', readonly: true, namespace: '*', nonResourcePath: '/logs/*' }));
    expect(abacRulesFor(policy, user('u'), 'x')).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [
        { verbs: ['*'], nonResourceURLs: ['*'] },
        { verbs: ['get', 'list', 'watch'], nonResourceURLs: ['/logs/*'] },
      ],
      incomplete: false,
    });
  });

  it('quirk: an unversioned (v0) line lists every API group, resource and namespace, and every path when it names no resource', () => {
    const policy = file('{"user":"u","readonly":true}');
    expect(abacRulesFor(policy, user('u'), 'a')).toEqual({
      resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['get', 'list', 'watch'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });
});

describe('the union rule resolver (bootstrap RBAC roles, then ABAC)', () => {
  const policy = parsePolicy([...selfReviewPolicy(), ...policyFor('status-writer', 'sw', 'team-a')].map(formatPolicyLine).join(''), 'policy.jsonl');

  it('given a status writer, when resolved for its namespace, then discovery paths come first, then its self-review and preset lines', () => {
    expect(rulesFor(policy, user('sw'), 'team-a')).toEqual({
      resourceRules: [
        { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
        { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
        { verbs: ['*'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
        { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], apiGroups: [''], resources: ['services/status'] },
        { verbs: ['*'], apiGroups: [''], resources: ['events'] },
        { verbs: ['*'], apiGroups: ['events.k8s.io'], resources: ['events'] },
      ],
      nonResourceRules: [
        { verbs: ['get'], nonResourceURLs: [...DISCOVERY_URLS] },
        { verbs: ['get'], nonResourceURLs: [...PUBLIC_INFO_URLS] },
      ],
      incomplete: false,
    });
    expect(rulesFor(policy, user('sw'), 'team-b').resourceRules).toHaveLength(3);
  });

  it("given system:masters, when resolved, then cluster-admin's rules lead", () => {
    const rules = rulesFor(policy, user('root', 'system:masters'), 'a');
    expect(rules.resourceRules[0]).toEqual({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
    expect(rules.nonResourceRules[0]).toEqual({ verbs: ['*'], nonResourceURLs: ['*'] });
  });
});
