import { BadRequestError } from '../domain/errors/domain-errors';
import { impersonationRequests } from './impersonation-request';

describe('impersonationRequests (buildImpersonationRequests)', () => {
  it('should read the user, each group line, each extra value (key lowercased, %-decoded) and the uid, in that order', () => {
    expect(
      impersonationRequests({
        'impersonate-user': ['alice', 'ignored second line'],
        'impersonate-group': ['devs', 'ops, sre'],
        'impersonate-extra-scopes': ['view', 'edit'],
        'impersonate-extra-example.com%2fteam': ['a'],
        'impersonate-uid': ['1234'],
        accept: ['application/json'],
      }),
    ).toEqual([
      { kind: 'User', name: 'alice' },
      { kind: 'Group', name: 'devs' },
      { kind: 'Group', name: 'ops, sre' },
      { kind: 'UserExtra', key: 'scopes', value: 'view' },
      { kind: 'UserExtra', key: 'scopes', value: 'edit' },
      { kind: 'UserExtra', key: 'example.com/team', value: 'a' },
      { kind: 'UID', uid: '1234' },
    ]);
  });

  it('should take system:serviceaccount:<ns>:<name> as a service account only when both names are valid', () => {
    expect(impersonationRequests({ 'impersonate-user': ['system:serviceaccount:kube-system:metrics-server'] })).toEqual([{ kind: 'ServiceAccount', namespace: 'kube-system', name: 'metrics-server' }]);
    for (const name of ['system:serviceaccount:Kube:x', 'system:serviceaccount:a:b:c', 'system:serviceaccount:a:B_1']) {
      expect(impersonationRequests({ 'impersonate-user': [name] })).toEqual([{ kind: 'User', name }]);
    }
  });

  it('should ask nothing without the headers, and refuse groups, extras or a uid without a user in upstream words', () => {
    expect(impersonationRequests({ authorization: ['Bearer x'] })).toEqual([]);
    const attempt = () => impersonationRequests({ 'impersonate-group': ['devs'], 'impersonate-extra-scopes': ['view'], 'impersonate-uid': ['1'] });
    expect(attempt).toThrow(BadRequestError);
    expect(attempt).toThrow('requested [{Group  devs    } {UserExtra  view  authentication.k8s.io/v1  scopes} {UID  1  authentication.k8s.io/v1  }] without impersonating a user');
  });
});
