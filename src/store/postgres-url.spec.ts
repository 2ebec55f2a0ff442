import { parsePostgresUrl } from './postgres-url';

describe('parsePostgresUrl', () => {
  it('given several hosts and target_session_attrs, then every host in order, the target, and a one-host URL for node-postgres', () => {
    const parsed = parsePostgresUrl('postgres://svctrail:s%40cret@db-1.example:5432,db-2.example:5433,[::1]/svctrail?target_session_attrs=read-write&sslmode=require');
    expect(parsed.hosts).toEqual([
      { host: 'db-1.example', port: 5432 },
      { host: 'db-2.example', port: 5433 },
      { host: '::1', port: 5432 },
    ]);
    expect(parsed.target).toBe('read-write');
    expect(parsed.clientUrl).toBe('postgres://svctrail:s%40cret@db-1.example:5432/svctrail?sslmode=require');
  });

  it('given one host without a port or target, then port 5432 and libpq’s default target (any)', () => {
    expect(parsePostgresUrl('postgresql://u@db/x')).toEqual({ hosts: [{ host: 'db', port: 5432 }], target: 'any', clientUrl: 'postgresql://u@db:5432/x' });
  });

  it('given primary, then it is read-write (what svctrail needs of its server)', () => {
    expect(parsePostgresUrl('postgres://h1,h2/x?target_session_attrs=primary').target).toBe('read-write');
  });

  it.each([
    ['a target svctrail cannot write through', 'postgres://h1,h2/x?target_session_attrs=standby', /target_session_attrs=standby/],
    ['a port that is no number', 'postgres://h1:abc/x', /no valid port|not a host/],
    ['an empty host in the list', 'postgres://h1:5432,/x', /not a host/],
    ['another scheme', 'mysql://h/x', /not a postgres/],
  ])('given %s, then it is refused without the password', (_, url, why) => {
    expect(() => parsePostgresUrl(url)).toThrow(why);
  });
});
