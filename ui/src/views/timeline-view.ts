// One Service over a window: ingress and condition lanes with their actors, a lane of what
// controllers said about it (its Events, each linked to the ingress change it explains), change
// markers from the summary endpoint, the change list with actors, events and diffs, and the "as
// of" cursor showing the Service as the time-travel API answers at that instant.
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, getJson, HISTORY, query, serviceHistoryPath, servicePath } from '../api';
import { html } from '../html';
import { instant, patchRoute, type Route } from '../route';
import { formatDuration, formatTime, PRESETS, zone } from '../time-format';
import { type Before, changeDiffs, type DiffLine, folded, type PatchOp } from '../timeline/diff-lines';
import type { EventItem } from '../timeline/change-summary';
import { type BucketItem, changeLane, conditionLanes, densityLane, type IngressIntervalItem, ingressLanes, type Lane, type TransitionItem } from '../timeline/lanes';
import { type CompactionItem, conditionsBefore, type Horizon, horizonOf } from '../timeline/horizon';
import { fitServiceWindow } from '../timeline/service-window';
import { type IngressChange, ingressChanges, LINK_WINDOW_MS, linkEventsToIngressChanges, type OccurrenceItem } from '../timeline/event-links';
import { eventLane, isWarning } from '../timeline/event-lane';
import { TimelineChart } from '../timeline/timeline-chart';

const DETAIL_LIMIT = 2000;
/** The window's start is below the compaction horizon: the facts there, not the object. */
const COMPACTED = Symbol('compacted');
const CHANGE_PAGE = 50;
const DAY = 24 * 3_600_000;

interface TimelineData {
  lanes: Lane[];
  truncated: boolean;
  intervals: IngressIntervalItem[];
  transitions: TransitionItem[];
  buckets: BucketItem[];
  /** Controllers' Events about the Service in the window, and the ingress change each explains. */
  events: OccurrenceItem[];
  links: Map<number, IngressChange>;
  /** More Events than DETAIL_LIMIT: the first ones are shown. */
  eventsTruncated: boolean;
}

export interface ChangeItem {
  metadata: { resourceVersion: string };
  time: string;
  verb: string;
  subresource?: string;
  actor: { user: string; groups: string[]; userAgent: string; fieldManager: string };
  events: EventItem[];
  patch: PatchOp[];
}

export function TimelineView({ route }: { route: Route }) {
  const from = instant(route.from);
  const to = instant(route.to);
  const complete = from !== undefined && to !== undefined;
  useEffect(() => {
    if (complete) return;
    // Half a window is completed as it always was: up to now, or the 24 hours before its end.
    if (from !== undefined || to !== undefined) {
      const end = to ?? new Date().toISOString();
      patchRoute({ to: end, from: from ?? new Date(Date.parse(end) - DAY).toISOString() }, true);
      return;
    }
    // No window: fitted to the recorded history, and written into the URL so it stays a deep link.
    const abort = new AbortController();
    const lastDay = () => ({ from: Date.now() - DAY, to: Date.now() });
    fitServiceWindow(route.ns ?? '', route.name ?? '', Date.now(), abort.signal)
      .catch((e) => (abort.signal.aborted ? Promise.reject(e) : undefined))
      .then(
        (fitted) => {
          if (abort.signal.aborted) return;
          const w = fitted ?? lastDay();
          patchRoute({ from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString() }, true);
        },
        () => undefined,
      );
    return () => abort.abort();
  }, [complete, route.ns, route.name]);
  return complete ? html`<${Timeline} route=${route} />` : html`<p aria-busy="true">Fitting the window to the recorded history…</p>`;
}

function Timeline({ route }: { route: Route }) {
  const ns = route.ns ?? '';
  const name = route.name ?? '';
  const to = Date.parse(instant(route.to)!);
  const from = Date.parse(instant(route.from)!);
  const at = instant(route.at);
  const [preview, setPreview] = useState<[number, number] | null>(null);
  const [data, setData] = useState<TimelineData | null>(null);
  const [error, setError] = useState('');
  const [loadedAt, setLoadedAt] = useState(0);
  const [horizon, setHorizon] = useState<Horizon | undefined>(undefined);
  useEffect(() => {
    const abort = new AbortController();
    // The newest compaction's horizon (none: the whole history has its objects).
    getJson<{ items: CompactionItem[] }>(`${HISTORY}/compactions`, abort.signal).then(
      (list) => setHorizon(horizonOf(list.items)),
      () => undefined,
    );
    return () => abort.abort();
  }, [ns, name]);

  const shown = preview ?? [from, to];
  // Zooming and panning change the window many times a second: wait for a pause before loading,
  // but load the first window at once.
  const loadedOnce = useRef(false);

  useEffect(() => {
    setPreview(null);
    const abort = new AbortController();
    const since = new Date(from).toISOString();
    const until = new Date(to).toISOString();
    setError('');
    const timer = setTimeout(
      async () => {
        const started = performance.now();
        try {
          const window = query({ since, until, limit: DETAIL_LIMIT });
          // The summary first (one cheap counting query): lanes with more intervals than
          // DETAIL_LIMIT are drawn from its counts, and their rows are not fetched at all.
          const buckets = await getJson(`${serviceHistoryPath(ns, name, 'activitybuckets')}${query({ since, until, buckets: 200 })}`, abort.signal);
          const total = (key: 'conditionTransitions' | 'ingressSets') => (buckets.items as BucketItem[]).reduce((n, b) => n + b[key], 0);
          // Intervals that began before the window also show: the count is a lower bound, so only skip when clearly over.
          const manyIntervals = total('ingressSets') > DETAIL_LIMIT;
          const manyTransitions = total('conditionTransitions') > DETAIL_LIMIT;
          const none = { metadata: {}, items: [] };
          // Ingress changes up to a link's reach past the window: an Event near its end may explain one just after.
          const ingressWindow = query({ since, until: new Date(to + LINK_WINDOW_MS).toISOString(), eventType: 'LoadBalancerIngressChanged', limit: DETAIL_LIMIT });
          const [initial, transitions, intervals, events, ingressWrites] = await Promise.all([
            // 410: the window starts below the compaction horizon, where no object is kept.
            getJson(`${servicePath(ns, name)}${query({ asOf: since })}`, abort.signal).catch((e) =>
              e instanceof ApiError && (e.status === 404 || e.status === 410) ? (e.status === 410 ? COMPACTED : null) : Promise.reject(e),
            ),
            manyTransitions ? none : getJson(`${serviceHistoryPath(ns, name, 'conditiontransitions')}${window}`, abort.signal),
            manyIntervals ? none : getJson(`${serviceHistoryPath(ns, name, 'ingressintervals')}${window}`, abort.signal),
            getJson<{ items: OccurrenceItem[]; metadata: { continue?: string } }>(`${serviceHistoryPath(ns, name, 'events')}${window}`, abort.signal),
            getJson(`${serviceHistoryPath(ns, name, 'changes')}${ingressWindow}`, abort.signal),
          ]);
          const links = linkEventsToIngressChanges(events.items, ingressChanges(ingressWrites.items));
          const inWindow = (transitions.items as TransitionItem[]).filter((t) => Date.parse(t.time) > from);
          const initialConditions: Record<string, string> = initial === COMPACTED ? conditionsBefore(inWindow) : {};
          if (initial !== COMPACTED) for (const c of initial?.status?.conditions ?? []) initialConditions[c.type] = c.status;
          // Too many to draw one by one: the lane shows counts per bucket (zoom in for each interval).
          const denseIntervals = manyIntervals || !!intervals.metadata.continue;
          const denseTransitions = manyTransitions || !!transitions.metadata.continue;
          const lanes = [
            ...(denseIntervals ? [densityLane('ingress-density', 'ingress set (count)', buckets.items, (b) => b.ingressSets, 'ingress assignments')] : ingressLanes(intervals.items)),
            // Beside the ingress lanes, whose changes these Events explain; only when there are any.
            ...(events.items.length ? [eventLane(events.items, links)] : []),
            ...(denseTransitions
              ? [densityLane('condition-density', 'condition transitions (count)', buckets.items, (b) => b.conditionTransitions, 'condition transitions')]
              : conditionLanes(initialConditions, inWindow, from)),
            changeLane(buckets.items),
          ];
          setData({
            lanes,
            truncated: denseIntervals || denseTransitions,
            intervals: intervals.items,
            transitions: inWindow,
            buckets: buckets.items,
            events: events.items,
            links,
            eventsTruncated: !!events.metadata.continue,
          });
          setLoadedAt(performance.now() - started);
        } catch (e) {
          if (!abort.signal.aborted) setError((e as Error).message);
        }
      },
      loadedOnce.current ? 120 : 0,
    );
    loadedOnce.current = true;
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [ns, name, from, to]);

  const onRange = useCallback(
    (f: number, t: number, commit: boolean) => {
      if (commit) patchRoute({ from: new Date(f).toISOString(), to: new Date(t).toISOString() }, true);
      else setPreview([f, t]);
    },
    [route],
  );
  const onCursor = useCallback((t: number) => patchRoute({ at: new Date(t).toISOString() }, true), [route]);
  const preset = (ms: number) => patchRoute({ from: new Date(Date.now() - ms).toISOString(), to: new Date().toISOString() });
  const setWindow = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const f = instant(String(form.get('from')));
    const t = instant(String(form.get('to')));
    if (f && t && f < t) patchRoute({ from: f, to: t });
    else setError('From and To must be RFC 3339 times, From before To');
  };
  const table = route.table === '1';
  const z = zone();

  return html` <h1>Service <span class="mono">${ns}/${name}</span></h1>
    <div class="toolbar">
      <span role="group" aria-label="Range presets">${PRESETS.map((p) => html`<button type="button" onClick=${() => preset(p.ms)}>Last ${p.label}</button>`)}</span>
      <form class="range" onSubmit=${setWindow}>
        <label>From <input name="from" value=${new Date(shown[0]).toISOString()} size="26" /></label>
        <label>To <input name="to" value=${new Date(shown[1]).toISOString()} size="26" /></label>
        <button type="submit">Show</button>
      </form>
      <button type="button" aria-pressed=${table} onClick=${() => patchRoute({ table: table ? undefined : '1' }, true)}>${table ? 'Show chart' : 'Show table'}</button>
    </div>
    <p class="muted">
      <span data-testid="window">${formatTime(shown[0], z)} → ${formatTime(shown[1], z)} (${formatDuration(shown[1] - shown[0])})</span
      >${data ? html` · <span data-testid="load-time">loaded in ${Math.round(loadedAt)} ms</span>` : null}
    </p>
    ${error ? html`<p role="alert" class="error">${error}</p>` : null}
    ${
      horizon && horizon.time > shown[0]
        ? html`<p class="note" data-testid="horizon-note">
            History before ${formatTime(horizon.time, z)} (resourceVersion ${horizon.resourceVersion}) is compacted: the changes, conditions and ingress shown there are the facts kept; the whole
            Service can be seen from then on.
          </p>`
        : null
    }
    ${data?.truncated ? html`<p class="note">More than ${DETAIL_LIMIT} intervals in this window: lanes show counts per time bucket; zoom in to see each interval and its actors.</p>` : null}
    ${data ? html`<${WarningNote} events=${data.events} truncated=${data.eventsTruncated} />` : null} ${!data && !error ? html`<p aria-busy="true">Loading…</p>` : null}
    ${
      data && !table
        ? html`<${TimelineChart}
            lanes=${data.lanes}
            from=${shown[0]}
            to=${shown[1]}
            cursor=${at ? Date.parse(at) : undefined}
            horizon=${horizon?.time}
            zone=${z}
            onRange=${onRange}
            onCursor=${onCursor}
          />`
        : null
    }
    ${data && table ? html`<${TimelineTables} data=${data} zone=${z} onCursor=${onCursor} />` : null}
    <div class="split">
      <${ChangeList} ns=${ns} name=${name} from=${from} to=${to} onCursor=${onCursor} />
      <${AsOf} ns=${ns} name=${name} at=${at} />
    </div>`;
}

/** Warnings in the window, said in words above the chart (a mark in a lane can be missed). */
function WarningNote({ events, truncated }: { events: OccurrenceItem[]; truncated: boolean }) {
  const warnings = events.filter(isWarning);
  const reasons = [...new Set(warnings.map((e) => e.reason || '(no reason)'))].join(', ');
  const controllers = [...new Set(warnings.map((e) => e.reportingController || 'an unnamed controller'))].join(', ');
  const rest = ` in this window from ${controllers}: ${reasons}.`;
  return html`${
    warnings.length
      ? html`<p class="note warning-note" data-testid="warning-note">
          <span class="event-warning"><span aria-hidden="true">⚠ </span>${warnings.length} Warning Event write${warnings.length === 1 ? '' : 's'}</span>${rest}
        </p>`
      : null
  }${truncated ? html`<p class="note">More than ${DETAIL_LIMIT} Event writes in this window: the first ${DETAIL_LIMIT} are shown; zoom in to see the rest.</p>` : null}`;
}

function TimelineTables({ data, zone: z, onCursor }: { data: TimelineData; zone: 'utc' | 'local'; onCursor(t: number): void }) {
  return html` <table class="data" data-testid="ingress-table">
      <caption>
        Ingress addresses
      </caption>
      <thead>
        <tr>
          <th scope="col">Address</th>
          <th scope="col">From</th>
          <th scope="col">Set by</th>
          <th scope="col">To</th>
          <th scope="col">Cleared by</th>
        </tr>
      </thead>
      <tbody>
        ${data.intervals.map(
          (i) =>
            html`<tr>
              <td>${i.address}</td>
              <td>${formatTime(i.from.time, z)}</td>
              <td>${i.from.setBy}</td>
              <td>${i.to ? formatTime(i.to.time, z) : 'still held'}</td>
              <td>${i.to?.clearedBy ?? ''}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <table class="data" data-testid="events-table">
      <caption>
        Controller Events
      </caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Type</th>
          <th scope="col">Reason</th>
          <th scope="col">What</th>
          <th scope="col">Count</th>
          <th scope="col">Message</th>
          <th scope="col">Controller</th>
          <th scope="col">Explains</th>
        </tr>
      </thead>
      <tbody>
        ${data.events.map((e) => {
          const explains = data.links.get(Number(e.metadata.resourceVersion));
          return html`<tr class=${isWarning(e) ? 'is-warning' : ''}>
            <td>${formatTime(e.time, z)}</td>
            <td>${isWarning(e) ? html`<span class="event-warning"><span aria-hidden="true">⚠ </span>Warning</span>` : e.type}</td>
            <td>${e.reason}</td>
            <td>${e.happened}</td>
            <td>${e.count}</td>
            <td>${e.message}</td>
            <td>${e.reportingController}${e.reportingInstance ? ` (${e.reportingInstance})` : ''}</td>
            <td>
              ${
                explains
                  ? html`<button type="button" class="linkish" onClick=${() => onCursor(explains.time)} title="Show the Service as of this change">
                      rv ${explains.resourceVersion}: ${explains.summary}
                    </button>`
                  : ''
              }
            </td>
          </tr>`;
        })}
      </tbody>
    </table>
    <table class="data" data-testid="conditions-table">
      <caption>
        Condition transitions
      </caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Condition</th>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">Reason</th>
          <th scope="col">By</th>
        </tr>
      </thead>
      <tbody>
        ${data.transitions.map(
          (t) =>
            html`<tr>
              <td>${formatTime(t.time, z)}</td>
              <td>${t.conditionType}</td>
              <td>${t.fromStatus ?? '—'}</td>
              <td>${t.toStatus ?? 'removed'}</td>
              <td>${t.reason}</td>
              <td>${t.actor.user}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <table class="data" data-testid="buckets-table">
      <caption>
        Activity per interval
      </caption>
      <thead>
        <tr>
          <th scope="col">From</th>
          <th scope="col">Writes</th>
          <th scope="col">Spec</th>
          <th scope="col">Metadata</th>
          <th scope="col">Condition transitions</th>
          <th scope="col">Ingress set</th>
        </tr>
      </thead>
      <tbody>
        ${data.buckets
          .filter((b) => b.changes > 0)
          .map(
            (b) =>
              html`<tr>
                <td>${formatTime(b.start, z)}</td>
                <td>${b.changes}</td>
                <td>${b.specChanges}</td>
                <td>${b.metadataChanges}</td>
                <td>${b.conditionTransitions}</td>
                <td>${b.ingressSets}</td>
              </tr>`,
          )}
      </tbody>
    </table>`;
}

function ChangeList(props: { ns: string; name: string; from: number; to: number; onCursor(t: number): void }) {
  const [items, setItems] = useState<ChangeItem[]>([]);
  const [next, setNext] = useState<string | undefined>(undefined);
  const [error, setError] = useState('');
  // The Service before the first listed change: each patch applied to it in turn gives every
  // change's old values (undefined until read, or when it cannot be).
  const [before, setBefore] = useState<Before | undefined>(undefined);
  const base = useMemo(
    () => `${serviceHistoryPath(props.ns, props.name, 'changes')}${query({ since: new Date(props.from).toISOString(), until: new Date(props.to).toISOString(), limit: CHANGE_PAGE })}`,
    [props.ns, props.name, props.from, props.to],
  );
  const load = (token?: string, signal?: AbortSignal) =>
    getJson(`${base}${token ? `&continue=${encodeURIComponent(token)}` : ''}`, signal).then(
      (list) => {
        setItems((old) => (token ? [...old, ...list.items] : list.items));
        setNext(list.metadata.continue || undefined);
        if (!token && list.items.length) return objectBefore(props.ns, props.name, Number(list.items[0].metadata.resourceVersion), signal).then((b) => signal?.aborted || setBefore(b));
      },
      (e) => signal?.aborted || setError(e.message),
    );
  useEffect(() => {
    const abort = new AbortController();
    setItems([]);
    setBefore(undefined);
    setError('');
    void load(undefined, abort.signal);
    return () => abort.abort();
  }, [base]);
  const diffs = useMemo(
    () =>
      changeDiffs(
        items.map((c) => c.patch),
        before,
      ),
    [items, before],
  );
  const z = zone();
  return html` <section class="changes" aria-labelledby="changes-title">
    <h2 id="changes-title">Changes</h2>
    ${error ? html`<p role="alert" class="error">${error}</p>` : null}
    <ol class="change-list" data-testid="change-list">
      ${items.map(
        (c, i) =>
          html`<li class="change">
            <div class="change-head">
              <button type="button" class="linkish" onClick=${() => props.onCursor(Date.parse(c.time))} title="Show the Service as of this change">${formatTime(c.time, z)}</button>
              <span class="verb">${c.verb}${c.subresource ? ` ${c.subresource}` : ''}</span>
              <span class="rv">rv ${c.metadata.resourceVersion}</span>
            </div>
            <dl class="actor">
              <dt>User</dt>
              <dd data-field="user">${c.actor.user}</dd>
              <dt>Groups</dt>
              <dd>${c.actor.groups.join(', ')}</dd>
              <dt>User agent</dt>
              <dd data-field="user-agent">${c.actor.userAgent}</dd>
              <dt>Field manager</dt>
              <dd data-field="field-manager">${c.actor.fieldManager}</dd>
              <dt>Events</dt>
              <dd>${c.events.map((e) => e.type).join(', ')}</dd>
            </dl>
            <ul class="diff" aria-label="What changed">
              ${diffs[i].map((d) => html`<${DiffRow} line=${d} />`)}
            </ul>
          </li>`,
      )}
    </ol>
    ${items.length === 0 && !error ? html`<p class="muted">No changes in this window.</p>` : null}
    ${next ? html`<button type="button" onClick=${() => void load(next)}>Load more changes</button>` : null}
  </section>`;
}

/**
 * The Service as of the write before `resourceVersion` (the time-travel GET), or null when it did
 * not exist then; undefined when that cannot be read (the diffs then show new values only).
 */
async function objectBefore(ns: string, name: string, resourceVersion: number, signal?: AbortSignal): Promise<Before | undefined> {
  if (resourceVersion <= 1) return { object: null };
  try {
    return { object: await getJson(`${servicePath(ns, name)}${query({ resourceVersion: resourceVersion - 1, resourceVersionMatch: 'Exact' })}`, signal) };
  } catch (e) {
    return e instanceof ApiError && e.status === 404 ? { object: null } : undefined;
  }
}

const SIGN_WORDS = { '+': 'added', '-': 'removed', '~': 'changed' } as const;
const SIGN_CLASS = { '+': 'diff-add', '-': 'diff-remove', '~': 'diff-replace' } as const;

/** One line of a diff: sign, path, the old value (a deletion) and the new one (an insertion), each folded when long. */
function DiffRow({ line: d }: { line: DiffLine }) {
  return html`<li class=${SIGN_CLASS[d.sign]}>
    <span class="sign" aria-label=${SIGN_WORDS[d.sign]}>${d.sign}</span> <span class="mono">${d.path}</span>
    ${d.note ? html` <span>${d.note}</span>` : null} ${d.old !== undefined ? html` <${DiffValue} text=${d.old} old=${true} />` : null}
    ${d.old !== undefined && d.value ? html` <span class="arrow">→</span>` : null} ${d.value ? html` <${DiffValue} text=${d.value} old=${false} />` : null}
  </li>`;
}

function DiffValue({ text, old }: { text: string; old: boolean }) {
  const [open, setOpen] = useState(false);
  const { head, complete } = folded(text);
  const shown = open || complete ? text : head;
  return html`${old ? html`<del class="mono value">${shown}</del>` : html`<ins class="mono value">${shown}</ins>`}${
    complete ? null : html` <button type="button" class="linkish fold" aria-expanded=${open} onClick=${() => setOpen(!open)}>${open ? 'fold' : `all ${text.length} characters`}</button>`
  }`;
}

function AsOf(props: { ns: string; name: string; at?: string }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!props.at) return;
    const abort = new AbortController();
    setText(null);
    setError('');
    getJson(`${servicePath(props.ns, props.name)}${query({ asOf: props.at })}`, abort.signal).then(
      (service) => setText(JSON.stringify(service, null, 2)),
      (e) => abort.signal.aborted || setError(asOfFailure(e)),
    );
    return () => abort.abort();
  }, [props.ns, props.name, props.at]);
  return html` <section class="as-of" aria-labelledby="as-of-title">
    <h2 id="as-of-title">As of ${props.at ? formatTime(props.at) : '…'}</h2>
    ${!props.at ? html`<p class="muted">Click the timeline, or choose an interval and press Enter, to see the whole Service as the API answered at that moment.</p>` : null}
    ${error ? html`<p role="status">${error}</p>` : null} ${text !== null ? html`<pre class="mono" data-testid="as-of-object" tabindex="0">${text}</pre>` : null}
  </section>`;
}

/** Why there is no object to show at the cursor, in words. */
function asOfFailure(e: unknown): string {
  if (e instanceof ApiError && e.status === 404) return 'The Service did not exist at that moment.';
  if (e instanceof ApiError && e.status === 410) {
    return `That moment is before the compaction horizon (${e.message}): svctrail keeps the facts there — the changes, condition transitions and ingress addresses beside this — but not the whole Service.`;
  }
  return (e as Error).message;
}
