// The checks an unsafe browser request (sign-in, sign-out) must pass before it is looked at:
// a JSON body (a plain HTML form cannot send one) and proof that it comes from svctrail's own
// page. Browsers send Sec-Fetch-Site and Origin on such requests; either that is present must
// say same-origin, and at least one must be present.
export interface UnsafeRequestHeaders {
  contentType?: string;
  secFetchSite?: string;
  origin?: string;
  host?: string;
}

/** Why the request is refused, or null when it may proceed. */
export function unsafeBrowserRequestRefusal(headers: UnsafeRequestHeaders): string | null {
  const mediaType = (headers.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json') return 'sign-in and sign-out take a JSON body (Content-Type: application/json)';
  if (headers.secFetchSite === undefined && headers.origin === undefined) return 'sign-in and sign-out must come from the svctrail page (no Origin or Sec-Fetch-Site)';
  if (headers.secFetchSite !== undefined && headers.secFetchSite !== 'same-origin') return `cross-site request refused (Sec-Fetch-Site: ${headers.secFetchSite})`;
  if (headers.origin !== undefined && headers.origin !== `https://${headers.host ?? ''}`) return 'cross-origin request refused (Origin does not match this server)';
  return null;
}
