// The source no longer holds the changes after the resourceVersion asked for: kube-apiserver's
// 410 Expired/Gone (an ERROR event in the watch, or a 410 answer, as to an expired continue
// token). The reflector's one reason to relist.
export class SourceExpiredError extends Error {}

export function isExpired(error: unknown): boolean {
  if (error instanceof SourceExpiredError) return true;
  const e = error as { status?: unknown; statusObject?: { reason?: unknown } } | undefined;
  return e?.status === 410 || e?.statusObject?.reason === 'Expired';
}
