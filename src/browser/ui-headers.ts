// Headers for everything under /ui/. The policy allows only svctrail's own scripts, styles and
// API (no inline script or style, no eval, no framing), so text a client wrote can never run even
// if it were ever put into markup.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const UI_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/** API answers to a browser session: never stored by the browser or a proxy. */
export const NO_STORE = 'no-store';
