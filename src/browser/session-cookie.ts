// The session cookie. `__Host-` makes the browser insist on Secure, Path=/ and no Domain, so no
// sibling host or plain-HTTP page can set or read it; HttpOnly keeps it from scripts and
// SameSite=Strict from other sites' requests.
export const SESSION_COOKIE = '__Host-svctrail-session';

export function sessionCookie(id: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${id}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0`;
}

/** The session id from a Cookie header, if any (the first one when repeated). */
export function sessionIdFrom(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : undefined;
  }
  return undefined;
}
