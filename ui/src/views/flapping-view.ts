// Services ranked by condition transitions in a window (the transitionrankings endpoint, ranked
// and paged by the server), each linking to its timeline zoomed to that window.
import { useEffect, useState } from 'preact/hooks';
import { getJson, HISTORY, query } from '../api';
import { html } from '../html';
import { hrefFor, instant, navigate, patchRoute, type Route } from '../route';
import { formatTime, PRESETS, zone } from '../time-format';

interface RankingItem {
  service: { namespace: string; name: string; uid: string };
  transitions: number;
  lastTransitionAt: string;
}

export function FlappingView({ route }: { route: Route }) {
  // Without a window: the last hour, written into the URL so the view stays a deep link.
  const complete = instant(route.from) !== undefined && instant(route.to) !== undefined;
  useEffect(() => {
    if (complete) return;
    const to = instant(route.to) ?? new Date().toISOString();
    patchRoute({ to, from: instant(route.from) ?? new Date(Date.parse(to) - 3_600_000).toISOString() }, true);
  }, [complete]);
  return complete ? html`<${Ranking} route=${route} />` : null;
}

function Ranking({ route }: { route: Route }) {
  const to = instant(route.to)!;
  const from = instant(route.from)!;
  const [items, setItems] = useState<RankingItem[] | null>(null);
  const [next, setNext] = useState<string | undefined>(undefined);
  const [error, setError] = useState('');
  const pages = (route.pages ?? '').split(',').filter(Boolean);

  useEffect(() => {
    const abort = new AbortController();
    setItems(null);
    setError('');
    const base = route.ns ? `${HISTORY}/namespaces/${encodeURIComponent(route.ns)}/transitionrankings` : `${HISTORY}/transitionrankings`;
    getJson(`${base}${query({ since: from, until: to, limit: 50, continue: pages[pages.length - 1] })}`, abort.signal).then(
      (list) => {
        setItems(list.items);
        setNext(list.metadata.continue || undefined);
      },
      (e) => abort.signal.aborted || setError(e.message),
    );
    return () => abort.abort();
  }, [route.ns, from, to, route.pages]);

  const search = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    navigate({ view: 'flapping', tz: route.tz, ns: String(form.get('ns') ?? '').trim(), from: instant(String(form.get('from'))) ?? from, to: instant(String(form.get('to'))) ?? to });
  };
  const z = zone();
  const max = Math.max(1, ...(items ?? []).map((i) => i.transitions));
  return html` <h1>Flapping</h1>
    <form class="filters" role="search" onSubmit=${search}>
      <label>Namespace <input name="ns" value=${route.ns ?? ''} /></label>
      <label>From <input name="from" value=${from} size="26" /></label>
      <label>To <input name="to" value=${to} size="26" /></label>
      <button type="submit">Rank</button>
      <span role="group" aria-label="Range presets"
        >${PRESETS.slice(0, 4).map(
          (p) => html`<button type="button" onClick=${() => patchRoute({ from: new Date(Date.now() - p.ms).toISOString(), to: new Date().toISOString(), pages: undefined })}>Last ${p.label}</button>`,
        )}</span
      >
    </form>
    ${error ? html`<p role="alert" class="error">${error}</p>` : null} ${items === null && !error ? html`<p aria-busy="true">Loading…</p>` : null}
    ${
      items
        ? html`<table class="data" data-testid="flapping-table">
              <caption>
                Services by condition transitions, ${formatTime(from, z)} → ${formatTime(to, z)}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Rank</th>
                  <th scope="col">Service</th>
                  <th scope="col">Transitions</th>
                  <th scope="col">Last transition</th>
                </tr>
              </thead>
              <tbody>
                ${items.map(
                  (r, i) =>
                    html`<tr>
                      <td>${pages.length * 50 + i + 1}</td>
                      <td><a href=${hrefFor({ view: 'timeline', ns: r.service.namespace, name: r.service.name, from, to, tz: route.tz })}>${r.service.namespace}/${r.service.name}</a></td>
                      <td>
                        <span class="bar-cell"
                          ><span class="bar" aria-hidden="true"><i class=${`w${Math.ceil((r.transitions / max) * 10)}`}></i></span>${r.transitions}</span
                        >
                      </td>
                      <td>${formatTime(r.lastTransitionAt, z)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${items.length === 0 ? html`<p>No condition transitions in this window.</p>` : null}
            <div class="pager">
              <button type="button" disabled=${pages.length === 0} onClick=${() => patchRoute({ pages: pages.slice(0, -1).join(',') || undefined })}>Previous page</button>
              <button type="button" disabled=${!next} onClick=${() => patchRoute({ pages: [...pages, next!].join(',') })}>Next page</button>
            </div>`
        : null
    }`;
}
