import { formatTokenRecord, generateToken, parseTokenFile, TokenFileError } from './token-file';

describe('parseTokenFile (kube-apiserver tokenfile.NewCSV)', () => {
  it('reads token, user, uid and the optional quoted groups column', () => {
    const { records, warnings } = parseTokenFile(['token1,user1,uid1', 'token2,user2,uid2,"group1,group2"', 'token3,user3,uid3,group3,ignored', ''].join('\n'), 'tokens.csv');
    expect(records).toEqual([
      { token: 'token1', user: 'user1', uid: 'uid1', groups: [] },
      { token: 'token2', user: 'user2', uid: 'uid2', groups: ['group1', 'group2'] },
      { token: 'token3', user: 'user3', uid: 'uid3', groups: ['group3'] },
    ]);
    expect(warnings).toEqual([]);
  });

  it('splits an empty groups column like strings.Split', () => {
    expect(parseTokenFile('t,u,i,\n', 'f').records[0].groups).toEqual(['']);
  });

  it('skips blank lines and accepts CRLF', () => {
    expect(parseTokenFile('\r\nt1,u1,i1\r\n\r\nt2,u2,i2\r\n', 'f').records.map((r) => r.token)).toEqual(['t1', 't2']);
  });

  it('skips an empty token with a warning', () => {
    const { records, warnings } = parseTokenFile(',nobody,0\nt,u,i\n', 'tokens.csv');
    expect(records.map((record) => record.user)).toEqual(['u']);
    expect(warnings).toEqual(["empty token has been found in token file 'tokens.csv', record number '1'"]);
  });

  it('lets a duplicate token replace the earlier record, with a warning', () => {
    const { records, warnings } = parseTokenFile('t,first,1\nx,other,2\nt,second,3\n', 'tokens.csv');
    expect(records.map((record) => record.user)).toEqual(['second', 'other']);
    expect(warnings).toEqual(["duplicate token has been found in token file 'tokens.csv', record number '3'"]);
  });

  it.each([
    ['two columns', 't,u\n', "token file 'tokens.csv' must have at least 3 columns (token, user name, user uid), found 2"],
    ['a comment line', '# admins\nt,u,i\n', "token file 'tokens.csv' must have at least 3 columns (token, user name, user uid), found 1"],
  ])('rejects %s', (_name, text, message) => {
    expect(() => parseTokenFile(text, 'tokens.csv')).toThrow(new TokenFileError(message));
  });

  it('passes CSV syntax errors through with Go text', () => {
    expect(() => parseTokenFile('t,u,i,"g1\n', 'tokens.csv')).toThrow('parse error on line 1, column 11: extraneous or missing " in quoted-field');
  });
});

describe('formatTokenRecord', () => {
  it('writes the upstream layout with a quoted groups column', () => {
    expect(formatTokenRecord({ token: 'abc', user: 'admin', uid: 'admin', groups: ['system:masters'] })).toBe('abc,admin,admin,"system:masters"\n');
    expect(formatTokenRecord({ token: 'abc', user: 'bob', uid: '7', groups: ['a', 'b'] })).toBe('abc,bob,7,"a,b"\n');
    expect(formatTokenRecord({ token: 'abc', user: 'bob', uid: '7', groups: [] })).toBe('abc,bob,7\n');
  });

  it('quotes awkward user names so they read back unchanged', () => {
    const record = { token: 't', user: 'Smith, "J"', uid: 'u', groups: ['g'] };
    expect(parseTokenFile(formatTokenRecord(record), 'f').records).toEqual([record]);
  });

  it('refuses a group name containing a comma', () => {
    expect(() => formatTokenRecord({ token: 't', user: 'u', uid: 'i', groups: ['a,b'] })).toThrow(TokenFileError);
  });
});

describe('generateToken', () => {
  it('returns 256 random bits as base64url', () => {
    const tokens = new Set(Array.from({ length: 20 }, generateToken));
    expect(tokens.size).toBe(20);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
