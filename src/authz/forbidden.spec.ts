import type { UserInfo } from '../auth/user-info';
import { statusForError } from '../kube-api/kube-status';
import { forbiddenError } from './forbidden';
import { requestAttributes } from './request-attributes';

const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };
const body = (method: string, url: string, user: UserInfo = bob) => JSON.stringify(statusForError(forbiddenError(user, requestAttributes(method, url))));

describe('forbiddenError (responsewriters.Forbidden + apierrors.NewForbidden)', () => {
  it('a named request in a namespace', () => {
    expect(body('PUT', '/api/v1/namespaces/default/services/web/status')).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"services \\"web\\" is forbidden: User \\"bob\\" cannot update resource \\"services/status\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"name":"web","kind":"services"},"code":403}',
    );
  });

  it.each([
    ['GET', '/api/v1/namespaces/default/services', 'services is forbidden: User "bob" cannot list resource "services" in API group "" in the namespace "default"', { kind: 'services' }],
    ['POST', '/api/v1/namespaces/default/services', 'services is forbidden: User "bob" cannot create resource "services" in API group "" in the namespace "default"', { kind: 'services' }],
    ['GET', '/api/v1/services?watch=true', 'services is forbidden: User "bob" cannot watch resource "services" in API group "" at the cluster scope', { kind: 'services' }],
    [
      'GET',
      '/api/v1/namespaces/a/services?watch=1&fieldSelector=metadata.name%3Dweb',
      'services "web" is forbidden: User "bob" cannot watch resource "services" in API group "" in the namespace "a"',
      { name: 'web', kind: 'services' },
    ],
    ['GET', '/api/v1/events', 'events is forbidden: User "bob" cannot list resource "events" in API group "" at the cluster scope', { kind: 'events' }],
    ['DELETE', '/api/v1/namespaces/a/services', 'services is forbidden: User "bob" cannot deletecollection resource "services" in API group "" in the namespace "a"', { kind: 'services' }],
    [
      'GET',
      '/apis/history.svctrail.io/v1alpha1/namespaces/a/servicehistories/web',
      'servicehistories.history.svctrail.io "web" is forbidden: User "bob" cannot get resource "servicehistories" in API group "history.svctrail.io" in the namespace "a"',
      { name: 'web', group: 'history.svctrail.io', kind: 'servicehistories' },
    ],
    ['GET', '/metrics', 'forbidden: User "bob" cannot get path "/metrics"', {}],
    ['POST', '/api', 'forbidden: User "bob" cannot post path "/api"', {}],
  ])('%s %s', (method, url, message, details) => {
    const status = statusForError(forbiddenError(bob, requestAttributes(method, url)))!;
    expect(status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 });
  });

  it('quotes as Go %q and escapes HTML metacharacters in the authorizer message only', () => {
    const odd: UserInfo = { name: 'e<v>"l"&\n', groups: [] };
    const status = statusForError(forbiddenError(odd, requestAttributes('GET', '/api/v1/namespaces/a/services/%3Cb%3E')))!;
    expect(status.message).toBe('services "<b>" is forbidden: User "e&lt;v&gt;\\"l\\"&amp;\\n" cannot get resource "services" in API group "" in the namespace "a"');
  });
});
