// The policy lines `svctrail issue-credentials --policy` appends for a new user, and the lines
// every policy file carries for all authenticated users.
import { ALL_AUTHENTICATED_GROUP } from '../auth/user-info';
import type { PolicySpec } from './abac-policy';

export const POLICY_PRESETS = ['readonly', 'status-writer', 'admin', 'audit-webhook', 'auth-delegator'] as const;

/** The path kube-apiserver's audit webhook posts to (mirror mode). */
export const AUDIT_WEBHOOK_PATH = '/audit/v1/events';
export type PolicyPreset = (typeof POLICY_PRESETS)[number];

export function isPolicyPreset(value: string): value is PolicyPreset {
  return (POLICY_PRESETS as readonly string[]).includes(value);
}

/**
 * readonly: get/list/watch every resource in the namespace ("*" when none is given, which also
 * allows listing across namespaces). status-writer: that, plus writing services/status and
 * Events there, as a load-balancer controller needs. admin: everything, resources and paths alike.
 * audit-webhook: only POST to the mirror's audit webhook path. auth-delegator: kube-apiserver's
 * system:auth-delegator ClusterRole, create on tokenreviews and subjectaccessreviews, which a server
 * that delegates its authentication and authorization to svctrail needs.
 */
export function policyFor(preset: PolicyPreset, user: string, namespace?: string): PolicySpec[] {
  if (preset === 'admin') {
    if (namespace !== undefined) throw new Error('--namespace does not apply to --policy admin');
    return adminPolicy(user);
  }
  if (preset === 'audit-webhook') {
    if (namespace !== undefined) throw new Error('--namespace does not apply to --policy audit-webhook');
    // Only the webhook path: kube-apiserver's audit backend posts there and reads nothing.
    return [{ user, nonResourcePath: AUDIT_WEBHOOK_PATH }];
  }
  if (preset === 'auth-delegator') {
    if (namespace !== undefined) throw new Error('--namespace does not apply to --policy auth-delegator');
    return authDelegatorPolicy(user);
  }
  const ns = namespace ?? '*';
  const read: PolicySpec = { user, readonly: true, apiGroup: '*', resource: '*', namespace: ns };
  if (preset === 'readonly') return [read];
  // A load-balancer controller writes Services' status and reports Events about them (either API).
  return [
    read,
    { user, apiGroup: '', resource: 'services/status', namespace: ns },
    { user, apiGroup: '', resource: 'events', namespace: ns },
    { user, apiGroup: 'events.k8s.io', resource: 'events', namespace: ns },
  ];
}

export function adminPolicy(user: string): PolicySpec[] {
  return [{ user, apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*' }];
}

/**
 * The self reviews (`kubectl auth can-i`, `kubectl auth whoami`) for every authenticated user, as
 * kube-apiserver's system:basic-user role grants them. ABAC cannot name a verb, so these lines
 * allow every verb on the three resources, of which only create is served; namespace "*" makes
 * them show in `kubectl auth can-i --list`, whose ABAC resolver skips cluster-only ("") lines.
 */
export function selfReviewPolicy(): PolicySpec[] {
  return [
    { group: ALL_AUTHENTICATED_GROUP, apiGroup: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews', namespace: '*' },
    { group: ALL_AUTHENTICATED_GROUP, apiGroup: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews', namespace: '*' },
    { group: ALL_AUTHENTICATED_GROUP, apiGroup: 'authentication.k8s.io', resource: 'selfsubjectreviews', namespace: '*' },
  ];
}

/**
 * system:auth-delegator (plugin/pkg/auth/authorizer/rbac/bootstrappolicy): create tokenreviews and
 * subjectaccessreviews. ABAC cannot name the verb, and only create is served; namespace "*" lists
 * the lines in `kubectl auth can-i --list`.
 */
export function authDelegatorPolicy(user: string): PolicySpec[] {
  return [
    { user, apiGroup: 'authentication.k8s.io', resource: 'tokenreviews', namespace: '*' },
    { user, apiGroup: 'authorization.k8s.io', resource: 'subjectaccessreviews', namespace: '*' },
  ];
}
