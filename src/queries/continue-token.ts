// LIST continue tokens in kube-apiserver's format (apiserver pkg/storage/continue.go): base64url
// JSON {"v":"meta.k8s.io/v1","rv":<snapshot>,"start":"<namespace>/<name>\u0000"}. The snapshot
// resourceVersion makes every page read the same point in the log.
import { BadRequestError } from '../domain/errors/domain-errors';

export interface ContinuePoint {
  /** The snapshot every page reads, or -1: the newest state (an inconsistent continuation). */
  resourceVersion: number;
  after: { namespace: string; name: string };
}

export function encodeContinue(point: ContinuePoint): string {
  const token = { v: 'meta.k8s.io/v1', rv: point.resourceVersion, start: `${point.after.namespace}/${point.after.name}\u0000` };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

export function decodeContinue(value: string): ContinuePoint {
  const invalid = (detail: string) => new BadRequestError(`invalid continue token: continue key is not valid: ${detail}`);
  if (!/^[A-Za-z0-9_-]*$/.test(value)) throw invalid('illegal base64 data at input byte 0');
  let token: unknown;
  try {
    token = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalid('invalid character looking for beginning of value');
  }
  const t = token as { v?: unknown; rv?: unknown; start?: unknown };
  if (typeof t !== 'object' || t === null || t.v !== 'meta.k8s.io/v1') throw invalid('server does not recognize this encoded version');
  // -1 (kube-apiserver's "continue at the newest state", handed out with a 410) or a snapshot.
  if (typeof t.rv !== 'number' || !Number.isSafeInteger(t.rv) || t.rv === 0 || t.rv < -1) {
    throw invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof t.start !== 'string' || t.start.length === 0) throw invalid('encoded start key empty (version meta.k8s.io/v1)');
  const key = t.start.endsWith('\u0000') ? t.start.slice(0, -1) : t.start;
  const slash = key.indexOf('/');
  if (slash < 0) throw invalid('encoded start key empty (version meta.k8s.io/v1)');
  return { resourceVersion: t.rv, after: { namespace: key.slice(0, slash), name: key.slice(slash + 1) } };
}
