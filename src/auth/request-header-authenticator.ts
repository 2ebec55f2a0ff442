// k8s.io/apiserver's request-header authenticator, the first of an extension API server's chain:
// the identity the cluster's aggregator (the front proxy) puts in X-Remote-* headers, believed
// only from a client certificate that chains to the request-header CA with the clientAuth usage
// and whose CN is an allowed name (x509.Verifier, headerrequest/requestheader.go).
// Node joins a repeated header's lines with ", ", which would make "a, b" one group or two; the
// raw header lines are read instead, each line one value, as Go's http.Header keeps them.
import type { X509Certificate } from 'node:crypto';
import { clientChainProblem } from '../tls/client-certificate-chain';
import type { RequestHeaderSettings } from './request-header-settings';
import type { UserInfo } from './user-info';

export interface FrontProxiedRequest {
  /** `IncomingMessage.rawHeaders`: names as sent, then values, alternating. */
  rawHeaders: readonly string[];
  /** The client certificate and the intermediates it sent; undefined without one. */
  peer?: { leaf: X509Certificate; intermediates: readonly X509Certificate[] };
}

/**
 * `{ user }` when the headers are believed, `{ problem }` (a 401 unless a later authenticator
 * succeeds) when a certificate is presented that may not speak for users, undefined when the
 * request has nothing to say to this authenticator.
 */
export type RequestHeaderOutcome = { user: UserInfo } | { problem: string } | undefined;

export function authenticateRequestHeaders(settings: RequestHeaderSettings, request: FrontProxiedRequest, now: Date): RequestHeaderOutcome {
  if (!request.peer || settings.clientCas.length === 0) return undefined;
  const chainProblem = clientChainProblem(request.peer.leaf, request.peer.intermediates, settings.clientCas, now);
  if (chainProblem) return { problem: chainProblem };
  const commonName = lastCommonName(request.peer.leaf);
  if (settings.allowedNames.length > 0 && !settings.allowedNames.includes(commonName)) {
    return { problem: `x509: subject with cn=${commonName} is not in the allowed list` };
  }
  const lines = headerLines(request.rawHeaders);
  const name = firstValue(lines, settings.usernameHeaders);
  if (!name) return undefined;
  const user: UserInfo = { name, groups: allValues(lines, settings.groupHeaders) };
  const uid = firstValue(lines, settings.uidHeaders);
  if (uid) user.uid = uid;
  const extra = extraValues(lines, settings.extraHeaderPrefixes);
  if (Object.keys(extra).length > 0) user.extra = extra;
  return { user };
}

/** Lowercased name → each line's value, in the order sent. */
function headerLines(rawHeaders: readonly string[]): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    const values = lines.get(name) ?? [];
    values.push(rawHeaders[i + 1]);
    lines.set(name, values);
  }
  return lines;
}

/** Go's h.Get over the names in order: the first line of the first name whose first line is not empty. */
function firstValue(lines: Map<string, string[]>, names: readonly string[]): string {
  for (const name of names) {
    const value = lines.get(name.toLowerCase())?.[0] ?? '';
    if (value !== '') return value;
  }
  return '';
}

/** Every non-empty line of every name, verbatim: a comma inside a line belongs to the group's name. */
function allValues(lines: Map<string, string[]>, names: readonly string[]): string[] {
  return names.flatMap((name) => (lines.get(name.toLowerCase()) ?? []).filter((value) => value !== ''));
}

/** The key is the rest of the header name, lowercased, then %-unescaped (X-Remote-Extra-Acme.com%2Fteam → acme.com/team). */
function extraValues(lines: Map<string, string[]>, prefixes: readonly string[]): Record<string, string[]> {
  const extra: Record<string, string[]> = {};
  for (const prefix of prefixes) {
    const lowered = prefix.toLowerCase();
    for (const [name, values] of lines) {
      if (!name.startsWith(lowered)) continue;
      const key = pathUnescape(name.slice(lowered.length));
      (extra[key] ??= []).push(...values);
    }
  }
  return extra;
}

/** Go's url.PathUnescape; a malformed escape keeps the key as sent, as upstream does. */
function pathUnescape(text: string): string {
  if (/%(?![0-9a-fA-F]{2})/.test(text)) return text;
  const pieces = (text.match(/%[0-9a-fA-F]{2}|[^%]+/g) ?? []).map((piece) => (piece.startsWith('%') ? Buffer.from([parseInt(piece.slice(1), 16)]) : Buffer.from(piece, 'utf8')));
  return Buffer.concat(pieces).toString('utf8');
}

/** Go's pkix.Name keeps the last CN of a subject with several. */
function lastCommonName(certificate: X509Certificate): string {
  const names = certificate.subject
    .split('\n')
    .filter((line) => line.startsWith('CN='))
    .map((line) => line.slice(3));
  return names[names.length - 1] ?? '';
}
