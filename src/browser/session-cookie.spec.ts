import { clearedSessionCookie, sessionCookie, sessionIdFrom } from './session-cookie';

describe('session cookie', () => {
  it('is __Host-, Secure, HttpOnly, SameSite=Strict, Path=/ with no Domain', () => {
    const header = sessionCookie('abc_DEF-123', 3600);
    expect(header).toBe('__Host-svctrail-session=abc_DEF-123; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=3600');
    expect(header).not.toMatch(/Domain=/i);
    expect(clearedSessionCookie()).toMatch(/^__Host-svctrail-session=; .*Max-Age=0$/);
  });

  it('reads the id among other cookies and ignores malformed values', () => {
    expect(sessionIdFrom('a=1; __Host-svctrail-session=abc_DEF-123; b=2')).toBe('abc_DEF-123');
    expect(sessionIdFrom('svctrail-session=abc')).toBeUndefined();
    expect(sessionIdFrom('__Host-svctrail-session=a b')).toBeUndefined();
    expect(sessionIdFrom('__Host-svctrail-session=<script>')).toBeUndefined();
    expect(sessionIdFrom(undefined)).toBeUndefined();
  });
});
