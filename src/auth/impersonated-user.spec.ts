import { impersonatedUser } from './impersonated-user';

describe('impersonatedUser', () => {
  it('should give a service account its fixed groups unless groups are given, and add system:authenticated unless a group says so', () => {
    expect(impersonatedUser([{ kind: 'ServiceAccount', namespace: 'ns', name: 'sa' }])).toEqual({
      name: 'system:serviceaccount:ns:sa',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'],
    });
    expect(
      impersonatedUser([
        { kind: 'ServiceAccount', namespace: 'ns', name: 'sa' },
        { kind: 'Group', name: 'devs' },
      ]).groups,
    ).toEqual(['devs', 'system:authenticated']);
    expect(
      impersonatedUser([
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'system:unauthenticated' },
      ]).groups,
    ).toEqual(['system:unauthenticated']);
  });

  it('should give system:anonymous system:unauthenticated, and carry extras and the uid', () => {
    expect(impersonatedUser([{ kind: 'User', name: 'system:anonymous' }])).toEqual({ name: 'system:anonymous', groups: ['system:unauthenticated'] });
    expect(
      impersonatedUser([
        { kind: 'User', name: 'alice' },
        { kind: 'UserExtra', key: 'scopes', value: 'view' },
        { kind: 'UserExtra', key: 'scopes', value: 'edit' },
        { kind: 'UID', uid: '42' },
      ]),
    ).toEqual({ name: 'alice', uid: '42', groups: ['system:authenticated'], extra: { scopes: ['view', 'edit'] } });
  });
});
