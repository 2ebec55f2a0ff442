// The cluster-wide change feed as it happens (NDJSON from …/feed?follow=true, read as a stream),
// each write with what it changed in a few words, and each write of a controller's Event with what
// it said (a Warning marked by an icon and its word), with pause (new lines are held, not lost)
// and filters by namespace, event type (or an Event's type or reason) and user.
import { useEffect, useRef, useState } from 'preact/hooks';
import { getJson, HISTORY, query, serverUrl } from '../api';
import { html } from '../html';
import { hrefFor, patchRoute, type Route } from '../route';
import { formatTime, zone } from '../time-format';
import { changeSummary } from '../timeline/change-summary';
import type { OccurrenceItem } from '../timeline/event-links';
import { eventLabel, isWarning } from '../timeline/event-lane';
import type { ChangeItem } from './timeline-view';

type ChangeLine = ChangeItem & { kind?: 'ServiceChange'; service: { namespace: string; name: string } };
/** A compaction of the history, as the feed shows it after the newest write when it began. */
interface CompactionLine {
  kind: 'Compaction';
  metadata: { name: string; resourceVersion: string };
  horizon: { resourceVersion: number; time: string };
  removed: { writes: number; objects: number; bytes: number };
  actor: { user: string };
  finishedAt: string;
}
/** A write of a controller's Event. */
type EventLine = OccurrenceItem & { kind: 'EventOccurrence' };
type FeedItem = ChangeLine | CompactionLine | EventLine;
const isCompaction = (i: FeedItem): i is CompactionLine => i.kind === 'Compaction';
const isEventLine = (i: FeedItem): i is EventLine => i.kind === 'EventOccurrence';

/** Whether a line passes the filters: namespace, type (a domain event's; an Event's type or reason) and user. */
function shownBy(i: FeedItem, ns: string, type: string, user: string): boolean {
  if (isCompaction(i)) return !ns && !type && (!user || i.actor.user === user);
  if (isEventLine(i)) return (!ns || (i.involvedObject.namespace || i.event.namespace) === ns) && (!type || i.type === type || i.reason === type) && (!user || i.actor.user === user);
  return (!ns || i.service.namespace === ns) && (!type || i.events.some((e) => e.type === type)) && (!user || i.actor.user === user);
}
const KEEP = 500;
const BACKLOG = 20;

export function LiveView({ route }: { route: Route }) {
  const [items, setItems] = useState<FeedItem[]>([]);
  const [paused, setPaused] = useState(false);
  const [held, setHeld] = useState<FeedItem[]>([]);
  const [state, setState] = useState('connecting');
  const pausedRef = useRef(false);
  pausedRef.current = paused;

  useEffect(() => {
    const abort = new AbortController();
    let after = 0;
    const run = async () => {
      const head = await getJson(`/api/v1/services${query({ limit: 1 })}`, abort.signal);
      after = Math.max(0, Number(head.metadata.resourceVersion) - BACKLOG);
      for (;;) {
        setState('live');
        const response = await fetch(serverUrl(`${HISTORY}/feed${query({ after, follow: 'true', timeoutSeconds: 300 })}`), { credentials: 'same-origin', signal: abort.signal });
        if (!response.ok || !response.body) throw new Error(`feed answered ${response.status}`);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          const lines = buffer.split('\n');
          buffer = lines.pop() ?? '';
          const fresh = lines.filter((l) => l.trim()).map((l) => JSON.parse(l) as FeedItem);
          if (fresh.length === 0) continue;
          after = Number(fresh[fresh.length - 1].metadata.resourceVersion);
          if (pausedRef.current) setHeld((h) => [...h, ...fresh]);
          else setItems((old) => [...fresh.reverse(), ...old].slice(0, KEEP));
        }
      }
    };
    run().catch((e) => abort.signal.aborted || setState(`disconnected: ${(e as Error).message}`));
    return () => abort.abort();
  }, []);

  const resume = () => {
    setItems((old) => [...[...held].reverse(), ...old].slice(0, KEEP));
    setHeld([]);
    setPaused(false);
  };
  const ns = route.ns ?? '';
  const type = route.type ?? '';
  const user = route.user ?? '';
  const shown = items.filter((i) => shownBy(i, ns, type, user));
  const z = zone();
  const filter = (key: string) => (event: Event) => patchRoute({ [key]: (event.target as HTMLInputElement).value.trim() || undefined }, true);
  return html` <h1>Live</h1>
    <div class="filters">
      <label>Namespace <input value=${ns} onChange=${filter('ns')} /></label>
      <label>Event type <input value=${type} onChange=${filter('type')} placeholder="LoadBalancerIngressChanged" /></label>
      <label>User <input value=${user} onChange=${filter('user')} /></label>
      <button type="button" aria-pressed=${paused} onClick=${() => (paused ? resume() : setPaused(true))}>${paused ? `Resume (${held.length} new)` : 'Pause'}</button>
      <span class="muted" role="status" data-testid="feed-state">${state}</span>
    </div>
    <table class="data" data-testid="live-table">
      <caption>
        Changes as they happen, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">rv</th>
          <th scope="col">Service</th>
          <th scope="col">Verb</th>
          <th scope="col">What changed</th>
          <th scope="col">Events</th>
          <th scope="col">User</th>
          <th scope="col">User agent</th>
        </tr>
      </thead>
      <tbody>
        ${shown.map((c) =>
          // Keyed by line: new lines go on top, and each row keeps its element (and its class) as they do.
          isEventLine(c)
            ? html`<${EventRow} key=${`e${c.metadata.resourceVersion}`} line=${c} tz=${route.tz} />`
            : isCompaction(c)
              ? html`<tr key=${c.metadata.name} class="compaction" data-testid="compaction-row">
                  <td>${formatTime(c.finishedAt, z)}</td>
                  <td>${c.metadata.resourceVersion}</td>
                  <td>history</td>
                  <td>compact</td>
                  <td class="what" data-field="what-changed">
                    <span>objects before ${formatTime(c.horizon.time, z)} (rv ${c.horizon.resourceVersion}) removed: ${c.removed.objects} of ${c.removed.writes} writes; facts kept</span>
                  </td>
                  <td>Compaction</td>
                  <td>${c.actor.user}</td>
                  <td></td>
                </tr>`
              : html`<tr key=${`s${c.metadata.resourceVersion}`}>
                  <td>${formatTime(c.time, z)}</td>
                  <td>${c.metadata.resourceVersion}</td>
                  <td class="nowrap">
                    <a
                      href=${hrefFor({ view: 'timeline', ns: c.service.namespace, name: c.service.name, from: new Date(Date.parse(c.time) - 3_600_000).toISOString(), to: new Date(Date.parse(c.time) + 600_000).toISOString(), at: c.time, tz: route.tz })}
                      >${c.service.namespace}/${c.service.name}</a
                    >
                  </td>
                  <td>${c.verb}${c.subresource ? ` ${c.subresource}` : ''}</td>
                  <td class="what" data-field="what-changed">${changeSummary(c.events).map((line) => html`<span>${line}</span>`)}</td>
                  <td>${c.events.map((e) => e.type).join(', ')}</td>
                  <td>${c.actor.user}</td>
                  <td>${c.actor.userAgent}</td>
                </tr>`,
        )}
      </tbody>
    </table>`;
}

/** A write of a controller's Event: about which object, what it said, who wrote it. */
function EventRow({ line: e, tz }: { line: EventLine; tz?: string }) {
  const z = zone();
  const o = e.involvedObject;
  const namespace = o.namespace || e.event.namespace;
  const about = `${namespace}/${o.name ?? ''}`;
  const window = { from: new Date(Date.parse(e.time) - 3_600_000).toISOString(), to: new Date(Date.parse(e.time) + 600_000).toISOString(), at: e.time, tz };
  const warning = isWarning(e);
  return html`<tr class=${warning ? 'is-warning' : ''} data-testid="event-row">
    <td>${formatTime(e.time, z)}</td>
    <td>${e.metadata.resourceVersion}</td>
    <td class="nowrap">${o.kind === 'Service' ? html`<a href=${hrefFor({ view: 'timeline', ns: namespace, name: o.name, ...window })}>${about}</a>` : `${o.kind ?? '?'} ${about}`}</td>
    <td>event ${e.happened}</td>
    <td class="what" data-field="what-changed">
      <span class=${warning ? 'event-warning' : ''}>${warning ? html`<span aria-hidden="true">⚠ </span>` : null}${eventLabel(e)}</span>
      <span>${e.reportingController || 'an unnamed controller'}: ${e.message}</span>
    </td>
    <td>${e.type || 'untyped'} Event</td>
    <td>${e.actor.user}</td>
    <td>${e.actor.userAgent}</td>
  </tr>`;
}
