import { TokenIndex } from './token-index';

describe('TokenIndex', () => {
  const sut = TokenIndex.fromRecords([
    { token: 'secret-a', user: 'alice', uid: '1', groups: ['devs'] },
    { token: 'secret-b', user: 'bob', uid: '', groups: [] },
    { token: 'secret-a', user: 'alice-again', uid: '2', groups: [] },
  ]);

  it('finds the user of a known token; later duplicates win', () => {
    expect(sut.lookup('secret-a')).toEqual({ name: 'alice-again', uid: '2', groups: [] });
    expect(sut.lookup('secret-b')).toEqual({ name: 'bob', groups: [] });
    expect(sut.size).toBe(2);
  });

  it('returns null for unknown, empty and prefix tokens', () => {
    expect(sut.lookup('secret')).toBeNull();
    expect(sut.lookup('')).toBeNull();
    expect(sut.lookup('secret-a ')).toBeNull();
  });

  it('hands out copies', () => {
    sut.lookup('secret-a')!.groups.push('system:masters');
    expect(sut.lookup('secret-a')!.groups).toEqual([]);
  });
});
