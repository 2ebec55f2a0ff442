// Who held an IP or hostname over a window (ingressowners), with the windows in which two
// Services held it at once (ingressconflicts) highlighted, as a chart and as a table.
import { useEffect, useState } from 'preact/hooks';
import { getJson, HISTORY, query } from '../api';
import { html } from '../html';
import { hrefFor, instant, navigate, patchRoute, type Route } from '../route';
import { formatTime, zone } from '../time-format';
import { fitInstants } from '../timeline/fit-window';
import type { Lane } from '../timeline/lanes';
import { TimelineChart } from '../timeline/timeline-chart';

interface Holder {
  service: { namespace: string; name: string; uid: string };
  /** In a mirror's store, how the setter is known: the audit event's user, or the field manager (a hint). */
  from: { time: string; setBy: string; setByKind?: SetterKind };
  to: { time: string; clearedBy: string; clearedByKind?: SetterKind } | null;
}

type SetterKind = 'audit' | 'fieldManager';

/** Who set or cleared the address, saying how a mirrored write's setter is known. */
const who = (name: string, kind: SetterKind | undefined) => (kind === 'fieldManager' ? `${name} (field manager)` : kind === 'audit' ? `${name} (audit)` : name);

interface Conflict {
  from: { time: string };
  to: { time: string } | null;
  holders: Holder[];
}

export function AddressView({ route }: { route: Route }) {
  const address = route.address ?? '';
  const to = instant(route.to);
  const from = instant(route.from);
  const [owners, setOwners] = useState<Holder[] | null>(null);
  const [conflicts, setConflicts] = useState<Conflict[]>([]);
  const [error, setError] = useState('');

  useEffect(() => {
    if (!address) return;
    const abort = new AbortController();
    setOwners(null);
    setError('');
    Promise.all([
      getJson(`${HISTORY}/ingressowners${query({ address, from, to, limit: 1000 })}`, abort.signal),
      getJson(`${HISTORY}/ingressconflicts${query({ address, until: to, limit: 1000 })}`, abort.signal),
    ]).then(
      ([o, c]) => {
        setOwners(o.items);
        // A conflict matters here when it overlaps the window.
        setConflicts((c.items as Conflict[]).filter((x) => !from || !x.to || x.to.time >= from));
      },
      (e) => abort.signal.aborted || setError(e.message),
    );
    return () => abort.abort();
  }, [address, from, to]);

  const search = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    navigate({ view: 'address', tz: route.tz, address: String(form.get('address') ?? '').trim(), from: instant(String(form.get('from'))), to: instant(String(form.get('to'))) });
  };
  const z = zone();
  // Without a window in the URL: fitted to the recorded holders (when each was set and cleared),
  // as a Service's timeline is to its changes; the form shows the fitted window.
  const fitted = from && to ? undefined : fitInstants((owners ?? []).flatMap((o) => [Date.parse(o.from.time), ...(o.to ? [Date.parse(o.to.time)] : [])]));
  const chartFrom = from ? Date.parse(from) : (fitted?.from ?? Date.now() - 3_600_000);
  const chartTo = to ? Date.parse(to) : (fitted?.to ?? Date.now());
  // A window from the URL is shown with a little room around it, as it always was.
  const pad = from || to ? Math.max(1000, Math.round((chartTo - chartFrom) * 0.02)) : 0;
  const shownFrom = from ?? (fitted ? new Date(chartFrom).toISOString() : '');
  const shownTo = to ?? (fitted ? new Date(chartTo).toISOString() : '');
  const inConflict = (o: Holder) => conflicts.some((c) => c.holders.some((h) => h.service.uid === o.service.uid && h.from.time === o.from.time));
  const lanes: Lane[] = [];
  for (const o of owners ?? []) {
    const key = `${o.service.namespace}/${o.service.name}`;
    let lane = lanes.find((l) => l.title === key);
    if (!lane) lanes.push((lane = { id: key, kind: 'ingress', title: key, segments: [] }));
    const start = Date.parse(o.from.time);
    lane.segments.push({
      start,
      end: o.to ? Date.parse(o.to.time) : null,
      label: `${inConflict(o) ? 'CONFLICT · ' : ''}set by ${who(o.from.setBy, o.from.setByKind)}${o.to ? ` · cleared by ${who(o.to.clearedBy, o.to.clearedByKind)}` : ''}`,
      style: inConflict(o) ? 'conflict' : 'solid',
      detail: `${key} held ${address} from ${o.from.time} (set by ${who(o.from.setBy, o.from.setByKind)}) ${o.to ? `to ${o.to.time} (cleared by ${who(o.to.clearedBy, o.to.clearedByKind)})` : 'until now'}${inConflict(o) ? '; in conflict with another Service' : ''}`,
      at: start,
    });
  }
  for (const c of conflicts) {
    let lane = lanes.find((l) => l.id === 'conflicts');
    if (!lane) lanes.push((lane = { id: 'conflicts', kind: 'changes', title: 'conflicts', segments: [] }));
    const start = Date.parse(c.from.time);
    lane.segments.push({
      start,
      end: c.to ? Date.parse(c.to.time) : null,
      label: `conflict: ${c.holders.map((h) => `${h.service.namespace}/${h.service.name}`).join(' + ')}`,
      style: 'conflict',
      detail: `held by ${c.holders.map((h) => `${h.service.namespace}/${h.service.name}`).join(' and ')} at once`,
      at: start,
    });
  }

  return html` <h1>Address</h1>
    <form class="filters" role="search" onSubmit=${search}>
      <label>IP or hostname <input name="address" value=${address} required /></label>
      <label>From <input name="from" value=${shownFrom} placeholder="2026-12-01T00:00:00Z" /></label>
      <label>To <input name="to" value=${shownTo} placeholder="2026-12-01T12:00:00Z" /></label>
      <button type="submit">Find owners</button>
    </form>
    ${error ? html`<p role="alert" class="error">${error}</p>` : null} ${address && owners === null && !error ? html`<p aria-busy="true">Loading…</p>` : null}
    ${owners && owners.length === 0 ? html`<p>Nobody held ${address} in this window.</p>` : null}
    ${
      owners && owners.length > 0
        ? html` ${conflicts.length ? html`<p class="note conflict-note" role="status">${conflicts.length} conflict(s): two Services held ${address} at once.</p>` : null}
            <${TimelineChart}
              lanes=${lanes}
              from=${chartFrom - pad}
              to=${chartTo + pad}
              zone=${z}
              onRange=${(f: number, t: number, commit: boolean) => commit && patchRoute({ from: new Date(f).toISOString(), to: new Date(t).toISOString() }, true)}
              onCursor=${() => undefined}
            />
            <table class="data" data-testid="owners-table">
              <caption>
                Holders of ${address}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Service</th>
                  <th scope="col">From</th>
                  <th scope="col">Set by</th>
                  <th scope="col">To</th>
                  <th scope="col">Cleared by</th>
                  <th scope="col">Conflict</th>
                </tr>
              </thead>
              <tbody>
                ${owners.map(
                  (o) =>
                    html`<tr class=${inConflict(o) ? 'is-conflict' : ''}>
                      <td>
                        <a
                          href=${hrefFor({ view: 'timeline', ns: o.service.namespace, name: o.service.name, from: new Date(chartFrom - pad).toISOString(), to: new Date(chartTo + pad).toISOString(), tz: route.tz })}
                          >${o.service.namespace}/${o.service.name}</a
                        >
                      </td>
                      <td>${formatTime(o.from.time, z)}</td>
                      <td>${who(o.from.setBy, o.from.setByKind)}</td>
                      <td>${o.to ? formatTime(o.to.time, z) : 'still held'}</td>
                      <td>${o.to ? who(o.to.clearedBy, o.to.clearedByKind) : ''}</td>
                      <td>${inConflict(o) ? 'conflict' : ''}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
        : null
    }`;
}
