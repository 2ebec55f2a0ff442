// The interactive timeline: lane titles (DOM), intervals (Canvas 2D), time axis and cursor (SVG).
// Zoom: wheel, pinch, + and -; pan: drag, swipe, Shift+←/→; ↑/↓ choose a lane, ←/→ an interval
// in it, Enter puts the "as of" cursor at its start; a click puts it where clicked. Hovering an
// interval or an Event shows its details (the same words the selection reads out).
import { scaleUtc, scaleTime } from 'd3-scale';
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html';
import { formatTime, type Zone } from '../time-format';
import { type DrawnSegment, drawLanes, paletteFrom } from './draw-lanes';
import type { Lane } from './lanes';

const LANE_HEIGHT = 30;
/** The word before a lane's title, saying what it shows. */
const LANE_PREFIX: Record<Lane['kind'], string> = { ingress: 'ingress ', condition: 'condition ', changes: '', events: 'controller ' };

type DrawnCanvas = HTMLCanvasElement & { drawnSegments?: DrawnSegment[] };
const MIN_SPAN_MS = 1000;

export interface TimelineChartProps {
  lanes: Lane[];
  from: number;
  to: number;
  cursor?: number;
  /** The compaction horizon's time: before it the chart shows facts only (shaded). */
  horizon?: number;
  zone: Zone;
  /** A new range; `commit` false while a gesture is under way. */
  onRange(from: number, to: number, commit: boolean): void;
  onCursor(at: number): void;
}

interface Gesture {
  pointers: Map<number, number>;
  startFrom: number;
  startTo: number;
  startX: number;
  moved: boolean;
  pinch?: number;
  /** The range the gesture last showed (props lag behind until the next render). */
  last?: [number, number];
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** 24-hour tick labels in the chosen zone: a date at midnight, else the shortest exact time. */
export function tickLabel(d: Date, zone: Zone): string {
  const utc = zone === 'utc';
  const [y, mo, day, h, mi, s, ms] = utc
    ? [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()]
    : [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()];
  if (h === 0 && mi === 0 && s === 0 && ms === 0) return `${y}-${pad2(mo)}-${pad2(day)}`;
  if (s === 0 && ms === 0) return `${pad2(h)}:${pad2(mi)}`;
  if (ms === 0) return `${pad2(h)}:${pad2(mi)}:${pad2(s)}`;
  return `${pad2(h)}:${pad2(mi)}:${pad2(s)}.${String(ms).padStart(3, '0')}`;
}

export function zoomed(from: number, to: number, factor: number, around = (from + to) / 2): [number, number] {
  const span = Math.max(MIN_SPAN_MS, (to - from) * factor);
  const ratio = (around - from) / (to - from);
  const start = Math.round(around - span * ratio);
  return [start, start + Math.round(span)];
}

export function panned(from: number, to: number, fraction: number): [number, number] {
  const delta = Math.round((to - from) * fraction);
  return [from + delta, to + delta];
}

export function TimelineChart(props: TimelineChartProps) {
  const { lanes, from, to, cursor, zone } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const plot = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  const [selected, setSelected] = useState<{ lane: number; segment: number } | undefined>(undefined);
  const [theme, setTheme] = useState(0);
  const [hover, setHover] = useState<{ x: number; y: number; text: string; warning: boolean } | null>(null);
  const gesture = useRef<Gesture | null>(null);
  const live = useRef({ from, to });
  live.current = { from, to };

  useEffect(() => {
    const el = plot.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(200, Math.floor(el.clientWidth))));
    observer.observe(el);
    const media = matchMedia('(prefers-color-scheme: dark)');
    const repaint = () => setTheme((n) => n + 1);
    media.addEventListener('change', repaint);
    const themeObserver = new MutationObserver(repaint);
    themeObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      observer.disconnect();
      media.removeEventListener('change', repaint);
      themeObserver.disconnect();
    };
  }, []);

  useEffect(() => {
    if (!canvas.current) return;
    const drawn = drawLanes(canvas.current, { lanes, from, to, width, laneHeight: LANE_HEIGHT, cursor, selected, palette: paletteFrom(canvas.current) });
    // Where each interval went, on the element (not in the DOM): the browser tests check widths.
    (canvas.current as DrawnCanvas).drawnSegments = drawn;
    // When the lanes were last drawn (performance.now()), for the render-time measurement script.
    document.documentElement.dataset.timelineDrawnAt = String(performance.now());
  }, [lanes, from, to, width, cursor, selected, theme]);

  // Wheel zoom needs a non-passive listener to keep the page from scrolling.
  useEffect(() => {
    const el = plot.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const rect = el.getBoundingClientRect();
      const { from: f, to: t } = live.current;
      const around = f + ((event.clientX - rect.left) / rect.width) * (t - f);
      const [nf, nt] = zoomed(f, t, event.deltaY > 0 ? 1.25 : 0.8, around);
      props.onRange(nf, nt, true);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [props.onRange]);

  const timeAt = (clientX: number) => {
    const rect = plot.current!.getBoundingClientRect();
    return Math.round(from + ((clientX - rect.left) / rect.width) * (to - from));
  };

  const onPointerDown = (event: PointerEvent) => {
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    setHover(null);
    const g: Gesture = gesture.current ?? { pointers: new Map(), startFrom: from, startTo: to, startX: event.clientX, moved: false };
    g.pointers.set(event.pointerId, event.clientX);
    g.startFrom = from;
    g.startTo = to;
    g.startX = event.clientX;
    if (g.pointers.size === 2) {
      const [a, b] = [...g.pointers.values()];
      g.pinch = Math.abs(a - b) || 1;
    }
    gesture.current = g;
  };
  /** The segment under the pointer, if any, as a tooltip beside it. */
  const hoverAt = (event: PointerEvent) => {
    const c: DrawnCanvas | null = canvas.current;
    if (!c || !plot.current) return;
    const box = c.getBoundingClientRect();
    const px = event.clientX - box.left;
    const lane = Math.floor((event.clientY - box.top) / LANE_HEIGHT);
    const hit = event.clientY < box.top ? undefined : (c.drawnSegments ?? []).filter((d) => d.lane === lane && px >= d.x - 2 && px <= d.x + d.width + 2).pop();
    const segment = hit ? lanes[hit.lane]?.segments[hit.segment] : undefined;
    if (!segment) return setHover(null);
    const area = plot.current.getBoundingClientRect();
    setHover({ x: event.clientX - area.left, y: event.clientY - area.top, text: `${lanes[hit!.lane].title}: ${segment.detail}`, warning: segment.style === 'warning' });
  };
  const onPointerMove = (event: PointerEvent) => {
    const g = gesture.current;
    if (!g) return hoverAt(event);
    if (!g.pointers.has(event.pointerId)) return;
    g.pointers.set(event.pointerId, event.clientX);
    const rect = plot.current!.getBoundingClientRect();
    const span = g.startTo - g.startFrom;
    if (g.pointers.size === 2 && g.pinch) {
      const [a, b] = [...g.pointers.values()];
      const factor = g.pinch / (Math.abs(a - b) || 1);
      const around = g.startFrom + (((a + b) / 2 - rect.left) / rect.width) * span;
      const [nf, nt] = zoomed(g.startFrom, g.startTo, factor, around);
      g.moved = true;
      g.last = [nf, nt];
      props.onRange(nf, nt, false);
      return;
    }
    const dx = event.clientX - g.startX;
    if (Math.abs(dx) > 3) g.moved = true;
    if (!g.moved) return;
    const shift = Math.round((-dx / rect.width) * span);
    g.last = [g.startFrom + shift, g.startTo + shift];
    props.onRange(g.last[0], g.last[1], false);
  };
  const onPointerUp = (event: PointerEvent) => {
    const g = gesture.current;
    if (!g) return;
    g.pointers.delete(event.pointerId);
    if (g.pointers.size > 0) return;
    gesture.current = null;
    if (g.moved && g.last) props.onRange(g.last[0], g.last[1], true);
    else props.onCursor(timeAt(event.clientX));
  };

  const visible = (laneIndex: number) => lanes[laneIndex]?.segments.map((s, i) => ({ s, i })).filter(({ s }) => (s.end ?? to) >= from && s.start <= to) ?? [];
  const onKeyDown = (event: KeyboardEvent) => {
    const key = event.key;
    let handled = true;
    if (key === '+' || key === '=') {
      const [nf, nt] = zoomed(from, to, 0.5, cursor !== undefined && cursor >= from && cursor <= to ? cursor : undefined);
      props.onRange(nf, nt, true);
    } else if (key === '-' || key === '_') {
      const [nf, nt] = zoomed(from, to, 2);
      props.onRange(nf, nt, true);
    } else if (event.shiftKey && (key === 'ArrowLeft' || key === 'ArrowRight')) {
      const [nf, nt] = panned(from, to, key === 'ArrowLeft' ? -0.25 : 0.25);
      props.onRange(nf, nt, true);
    } else if (key === 'ArrowDown' || key === 'ArrowUp') {
      if (lanes.length === 0) return;
      const lane = selected === undefined ? 0 : Math.min(lanes.length - 1, Math.max(0, selected.lane + (key === 'ArrowDown' ? 1 : -1)));
      const first = visible(lane)[0];
      setSelected({ lane, segment: first ? first.i : -1 });
    } else if (key === 'ArrowLeft' || key === 'ArrowRight') {
      const lane = selected?.lane ?? 0;
      const list = visible(lane);
      if (list.length === 0) return;
      const at = list.findIndex(({ i }) => i === selected?.segment);
      const next = at < 0 ? 0 : Math.min(list.length - 1, Math.max(0, at + (key === 'ArrowRight' ? 1 : -1)));
      setSelected({ lane, segment: list[next].i });
    } else if (key === 'Enter' && selected && selected.segment >= 0) {
      const s = lanes[selected.lane]?.segments[selected.segment];
      if (s) props.onCursor(s.at);
    } else handled = false;
    if (handled) event.preventDefault();
  };

  const scale = (zone === 'utc' ? scaleUtc() : scaleTime()).domain([new Date(from), new Date(to)]).range([0, width]);
  const ticks = scale.ticks(Math.max(2, Math.floor(width / 130)));
  const format = (d: Date) => tickLabel(d, zone);
  const chosen = selected && selected.segment >= 0 ? lanes[selected.lane]?.segments[selected.segment] : undefined;
  const laneCount = Math.max(lanes.length, 1);

  return html` <div
    class="chart"
    tabindex="0"
    role="group"
    aria-roledescription="timeline"
    aria-label=${`Timeline from ${formatTime(from, zone)} to ${formatTime(to, zone)}, ${lanes.length} lanes`}
    aria-describedby="chart-help"
    onKeyDown=${onKeyDown}
    data-from=${new Date(from).toISOString()}
    data-to=${new Date(to).toISOString()}
  >
    <div class="chart-titles" aria-hidden="true">
      <div class="axis-spacer"></div>
      ${lanes.map((l, i) => html`<div class=${`lane-title${selected?.lane === i ? ' is-selected' : ''}`} title=${l.title}>${LANE_PREFIX[l.kind]}<strong>${l.title}</strong></div>`)}
    </div>
    <div class="chart-plot" ref=${plot} onPointerDown=${onPointerDown} onPointerMove=${onPointerMove} onPointerUp=${onPointerUp} onPointerCancel=${onPointerUp} onPointerLeave=${() => setHover(null)}>
      <svg class="axis" width=${width} height="24" aria-hidden="true">
        ${ticks.map((t) => {
          const x = scale(t);
          // Labels at the edges are anchored inward so they are not cut off.
          const anchor = x < 40 ? 'start' : x > width - 40 ? 'end' : 'middle';
          return html`<g transform=${`translate(${x},0)`}><line y1="18" y2="24" /><text y="13" text-anchor=${anchor}>${format(t)}</text></g>`;
        })}
      </svg>
      <canvas ref=${canvas} class="lanes" height=${laneCount * LANE_HEIGHT} aria-hidden="true"></canvas>
      ${
        props.horizon !== undefined && props.horizon > from
          ? html`<div
              class="horizon"
              data-testid="horizon"
              style=${`width:${Math.round(Math.min(width, scale(new Date(props.horizon))))}px`}
              title=${`Compacted before ${formatTime(props.horizon, zone)}: facts only`}
            >
              <span class="horizon-label">facts only</span>
            </div>`
          : null
      }
      ${
        hover
          ? html`<div
              class=${`chart-tooltip${hover.warning ? ' is-warning' : ''}`}
              data-testid="chart-tooltip"
              aria-hidden="true"
              style=${hover.x > width / 2 ? `right:${Math.round(width - hover.x + 12)}px;top:${Math.round(hover.y + 14)}px` : `left:${Math.round(hover.x + 12)}px;top:${Math.round(hover.y + 14)}px`}
            >
              ${hover.text}
            </div>`
          : null
      }
    </div>
    <p id="chart-help" class="chart-help">Keys: ↑/↓ lane, ←/→ interval, Enter sets the “as of” cursor, + / − zoom, Shift+←/→ pan. Mouse: wheel zooms, drag pans, click sets the cursor.</p>
    <p class="chart-selection" aria-live="polite" data-testid="chart-selection">${chosen ? `${lanes[selected!.lane].title}: ${chosen.detail}` : ''}</p>
  </div>`;
}
