// Services: namespace, label and name filters answered by the server (LIST with labelSelector and
// fieldSelector), paged with limit/continue, each row with its activity over the last 24 hours
// from the summary endpoint.
import { useEffect, useState } from 'preact/hooks';
import { getJson, query, serviceHistoryPath } from '../api';
import { html } from '../html';
import { hrefFor, instant, navigate, patchRoute, type Route } from '../route';
import { formatDuration } from '../time-format';

const PAGE = 50;
const DAY = 24 * 3_600_000;

interface ServiceItem {
  metadata: { namespace: string; name: string; uid: string; labels?: Record<string, string>; creationTimestamp: string };
  spec: { type?: string };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

export function ServicesView({ route }: { route: Route }) {
  const [items, setItems] = useState<ServiceItem[] | null>(null);
  const [next, setNext] = useState<string | undefined>(undefined);
  const [error, setError] = useState('');
  const pages = (route.pages ?? '').split(',').filter(Boolean);
  const page = pages[pages.length - 1];
  const pageSize = /^\d+$/.test(route.limit ?? '') && Number(route.limit) > 0 ? Math.min(500, Number(route.limit)) : PAGE;

  useEffect(() => {
    const abort = new AbortController();
    setItems(null);
    setError('');
    const base = route.ns ? `/api/v1/namespaces/${encodeURIComponent(route.ns)}/services` : '/api/v1/services';
    const fields = [route.name ? `metadata.name=${route.name}` : '', route.type ? `spec.type=${route.type}` : ''].filter(Boolean).join(',');
    const params = { limit: pageSize, continue: page, labelSelector: route.label, fieldSelector: fields || undefined };
    getJson(`${base}${query(params)}`, abort.signal).then(
      (list) => {
        setItems(list.items);
        setNext(list.metadata?.continue || undefined);
      },
      (e) => abort.signal.aborted || setError(e.message),
    );
    return () => abort.abort();
  }, [route.ns, route.label, route.name, route.type, page, pageSize]);

  const search = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const address = String(form.get('address') ?? '').trim();
    // Who holds an address is the Address view's question (over time, not only now).
    if (address) return navigate({ view: 'address', tz: route.tz, address });
    navigate({
      view: 'services',
      tz: route.tz,
      ns: String(form.get('ns') ?? '').trim(),
      label: String(form.get('label') ?? '').trim(),
      name: String(form.get('name') ?? '').trim(),
      type: String(form.get('type') ?? ''),
      from: route.from,
      to: route.to,
      limit: route.limit,
    });
  };
  // The activity window: from/to in the URL, else one "last 24 hours" per visit (so re-renders
  // do not refetch every row's activity). Only a window chosen here goes with the link to a
  // timeline; without one the timeline fits its window to the Service's history.
  const [lastDay] = useState(() => ({ from: new Date(Date.now() - DAY).toISOString(), to: new Date().toISOString() }));
  const windowed = instant(route.from) !== undefined && instant(route.to) !== undefined && instant(route.from)! < instant(route.to)!;
  const from = windowed ? instant(route.from)! : lastDay.from;
  const to = windowed ? instant(route.to)! : lastDay.to;

  return html` <h1>Services</h1>
    <form class="filters" role="search" onSubmit=${search}>
      <label>Namespace <input name="ns" value=${route.ns ?? ''} /></label>
      <label>Name <input name="name" value=${route.name ?? ''} /></label>
      <label
        >Type
        <select name="type" value=${route.type ?? ''}>
          ${['', 'ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'].map((t) => html`<option value=${t}>${t || 'any'}</option>`)}
        </select></label
      >
      <label>Label selector <input name="label" placeholder="app=web" value=${route.label ?? ''} /></label>
      <label>Address <input name="address" placeholder="203.0.113.7" /></label>
      <button type="submit">Search</button>
    </form>
    ${error ? html`<p role="alert" class="error">${error}</p>` : null} ${items === null && !error ? html`<p aria-busy="true">Loading…</p>` : null}
    ${
      items
        ? html` <table class="data" data-testid="services-table">
              <caption>
                Services${route.ns ? ` in ${route.ns}` : ''} (page ${pages.length + 1}, ${pageSize} per page)
              </caption>
              <thead>
                <tr>
                  <th scope="col">Namespace</th>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Labels</th>
                  <th scope="col">Address</th>
                  <th scope="col">${windowed ? `Changes, ${formatDuration(Date.parse(to) - Date.parse(from))} to ${to}` : 'Changes, last 24h'}</th>
                </tr>
              </thead>
              <tbody>
                ${items.map(
                  (s) =>
                    html`<tr>
                      <td>${s.metadata.namespace}</td>
                      <td><a href=${hrefFor({ view: 'timeline', ns: s.metadata.namespace, name: s.metadata.name, ...(windowed ? { from, to } : {}), tz: route.tz })}>${s.metadata.name}</a></td>
                      <td>${s.spec.type ?? 'ClusterIP'}</td>
                      <td>
                        ${Object.entries(s.metadata.labels ?? {})
                          .map(([k, v]) => `${k}=${v}`)
                          .join(', ')}
                      </td>
                      <td>${(s.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? i.hostname).join(', ')}</td>
                      <td><${Activity} namespace=${s.metadata.namespace} name=${s.metadata.name} from=${from} to=${to} /></td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${items.length === 0 ? html`<p>No Services match.</p>` : null}
            <div class="pager">
              <button type="button" disabled=${pages.length === 0} onClick=${() => patchRoute({ pages: pages.slice(0, -1).join(',') || undefined })}>Previous page</button>
              <button type="button" disabled=${!next} onClick=${() => patchRoute({ pages: [...pages, next!].join(',') })}>Next page</button>
            </div>`
        : null
    }`;
}

/** A 24-bar sparkline of writes per hour, with the total as text. */
function Activity(props: { namespace: string; name: string; from: string; to: string }) {
  const [counts, setCounts] = useState<number[] | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    getJson(`${serviceHistoryPath(props.namespace, props.name, 'activitybuckets')}${query({ since: props.from, until: props.to, buckets: 24 })}`, abort.signal).then(
      (list) => setCounts(list.items.map((b: { changes: number }) => b.changes)),
      () => undefined,
    );
    return () => abort.abort();
  }, [props.namespace, props.name, props.from, props.to]);
  if (!counts) return html`<span class="muted">…</span>`;
  const total = counts.reduce((a, b) => a + b, 0);
  const max = Math.max(1, ...counts);
  return html`<span class="activity"><span class="spark" aria-hidden="true">${counts.map((c) => html`<i class=${`h${Math.ceil((c / max) * 4)}`}></i>`)}</span> ${total}</span>`;
}
