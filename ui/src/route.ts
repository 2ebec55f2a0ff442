// The whole view state lives in the URL's query (…/ui/?view=timeline&ns=a&name=web&from=…): a
// link reproduces the view exactly, and times are absolute RFC 3339 instants in UTC.
import { signal } from './signal';

export type View = 'services' | 'timeline' | 'address' | 'flapping' | 'live';
export const VIEWS: View[] = ['services', 'timeline', 'address', 'flapping', 'live'];

export type Route = Record<string, string> & { view: View };

function parse(): Route {
  const params = Object.fromEntries(new URLSearchParams(location.search));
  const view = (VIEWS as string[]).includes(params.view ?? '') ? (params.view as View) : 'services';
  return { ...params, view };
}

export const route = signal<Route>(parse());

window.addEventListener('popstate', () => route.set(parse()));

export function hrefFor(next: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(next)) if (v !== undefined && v !== '') q.set(k, v);
  return `?${q.toString()}`;
}

/** Navigates (a new history entry) or, with replace, updates the current one (zoom, pan). */
export function navigate(next: Record<string, string | undefined>, replace = false): void {
  const href = hrefFor(next);
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  route.set(parse());
}

export function patchRoute(changes: Record<string, string | undefined>, replace = false): void {
  navigate({ ...route.get(), ...changes }, replace);
}

/** A normalised RFC 3339 UTC instant, or undefined when `text` is not one. */
export function instant(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
