// Calls to svctrail from the page. URLs are relative to the page (…/ui/), so the app works behind
// any path prefix; the session cookie goes along (same origin), no token is ever held here.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A server path such as /api/v1/services as seen from the page. */
export function serverUrl(path: string): string {
  return new URL(`..${path}`, location.href).toString();
}

/** A path under /ui/ (the session endpoints). */
export function uiUrl(path: string): string {
  return new URL(path, new URL('./', location.href)).toString();
}

let onUnauthorized: () => void = () => {};
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

async function failure(response: Response): Promise<ApiError> {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body && typeof body.message === 'string') message = body.message;
  } catch {
    /* not a Status */
  }
  if (response.status === 401) onUnauthorized();
  return new ApiError(response.status, message);
}

export async function getJson<T = any>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(serverUrl(path), { credentials: 'same-origin', headers: { accept: 'application/json' }, signal });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

export interface SessionInfo {
  user: { name: string; groups: string[] };
  idleTimeoutSeconds: number;
  maxAgeSeconds: number;
}

export async function currentSession(): Promise<SessionInfo | null> {
  const response = await fetch(uiUrl('api/session'), { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (response.status === 401) return null;
  if (!response.ok) throw await failure(response);
  return (await response.json()) as SessionInfo;
}

/** Exchanges a bearer token (or, with none, the presented client certificate) for a session cookie. */
export async function signIn(token: string | undefined): Promise<SessionInfo> {
  const response = await fetch(uiUrl('api/session'), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(token === undefined ? {} : { token }),
  });
  if (!response.ok) {
    const error = await failure(response);
    throw error;
  }
  return (await response.json()) as SessionInfo;
}

export async function signOut(): Promise<void> {
  await fetch(uiUrl('api/session'), { method: 'DELETE', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: '{}' });
}

/** Query string from defined values only. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const HISTORY = '/apis/history.svctrail.io/v1alpha1';

export function servicePath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/services/${encodeURIComponent(name)}`;
}

export function serviceHistoryPath(namespace: string, name: string, resource: string): string {
  return `${HISTORY}/namespaces/${encodeURIComponent(namespace)}/services/${encodeURIComponent(name)}/${resource}`;
}
