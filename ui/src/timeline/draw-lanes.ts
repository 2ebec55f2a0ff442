// Canvas 2D layer of the timeline: one row per lane, a bar per segment. Status is never colour
// alone: False is hatched, Unknown dotted, True solid, and each bar carries its text when it fits.
// Controllers' Events are marks at an instant: a Warning a triangle with "!", a Normal Event a
// circle, each followed by its text, with a dashed connector to the ingress change it explains.
import type { Lane, Segment } from './lanes';

const MARK = 7;

export interface Palette {
  ingress: string;
  solid: string;
  hatch: string;
  dots: string;
  conflict: string;
  marker: string;
  warning: string;
  warningText: string;
  event: string;
  text: string;
  barText: string;
  grid: string;
  cursor: string;
  selected: string;
  bg: string;
}

export function paletteFrom(element: Element): Palette {
  const css = getComputedStyle(element);
  const v = (name: string) => css.getPropertyValue(name).trim() || '#888';
  return {
    ingress: v('--bar-ingress'),
    solid: v('--bar-true'),
    hatch: v('--bar-false'),
    dots: v('--bar-unknown'),
    conflict: v('--bar-conflict'),
    marker: v('--marker'),
    warning: v('--event-warning'),
    warningText: v('--event-warning-text'),
    event: v('--event-normal'),
    text: v('--fg'),
    barText: v('--bar-text'),
    grid: v('--grid'),
    cursor: v('--cursor'),
    selected: v('--focus'),
    bg: v('--bg'),
  };
}

function pattern(ctx: CanvasRenderingContext2D, color: string, kind: 'hatch' | 'dots' | 'conflict'): CanvasPattern | string {
  const tile = document.createElement('canvas');
  tile.width = tile.height = 8;
  const t = tile.getContext('2d');
  if (!t) return color;
  t.strokeStyle = color;
  t.fillStyle = color;
  if (kind === 'dots') {
    t.beginPath();
    t.arc(4, 4, 1.6, 0, Math.PI * 2);
    t.fill();
  } else {
    t.globalAlpha = kind === 'conflict' ? 1 : 0.9;
    t.lineWidth = 2;
    t.beginPath();
    t.moveTo(0, 8);
    t.lineTo(8, 0);
    t.moveTo(-2, 2);
    t.lineTo(2, -2);
    t.moveTo(6, 10);
    t.lineTo(10, 6);
    t.stroke();
  }
  return ctx.createPattern(tile, 'repeat') ?? color;
}

export interface DrawInput {
  lanes: Lane[];
  from: number;
  to: number;
  width: number;
  laneHeight: number;
  cursor?: number;
  selected?: { lane: number; segment: number };
  palette: Palette;
}

/** Where a segment was drawn, in CSS pixels from the plot's left edge. */
export interface DrawnSegment {
  lane: number;
  kind: Lane['kind'];
  segment: number;
  x: number;
  width: number;
}

/** Draws the lanes; returns where each visible segment went (the browser tests read it). */
export function drawLanes(canvas: HTMLCanvasElement, input: DrawInput): DrawnSegment[] {
  const { lanes, from, to, width, laneHeight, palette } = input;
  const ratio = window.devicePixelRatio || 1;
  const height = Math.max(1, lanes.length * laneHeight);
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  const drawn: DrawnSegment[] = [];
  const ctx = canvas.getContext('2d');
  if (!ctx) return drawn;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const x = (t: number) => ((t - from) / (to - from)) * width;
  const fills = {
    solid: palette.solid,
    hatch: pattern(ctx, palette.hatch, 'hatch'),
    dots: pattern(ctx, palette.dots, 'dots'),
    conflict: pattern(ctx, palette.conflict, 'conflict'),
    marker: palette.marker,
    warning: palette.warning,
    event: palette.event,
  };
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  lanes.forEach((lane, li) => {
    const top = li * laneHeight;
    ctx.fillStyle = palette.grid;
    ctx.fillRect(0, top + laneHeight - 1, width, 1);
    if (lane.kind === 'events') {
      drawn.push(...drawEventMarks(ctx, lane, li, top, input, x));
      return;
    }
    lane.segments.forEach((s, si) => {
      const x0 = Math.max(0, x(s.start));
      const x1 = Math.min(width, s.end === null ? width : x(s.end));
      if (x1 < 0 || x0 > width) return;
      const w = Math.max(lane.kind === 'changes' ? 2 : 1, x1 - x0);
      drawn.push({ lane: li, kind: lane.kind, segment: si, x: x0, width: w });
      const y = top + 4;
      const h = laneHeight - 9;
      ctx.fillStyle = lane.kind === 'ingress' && s.style === 'solid' ? palette.ingress : fills[s.style];
      ctx.fillRect(x0, y, w, h);
      if (s.style !== 'solid' && s.style !== 'marker') {
        ctx.strokeStyle = s.style === 'conflict' ? palette.conflict : s.style === 'hatch' ? palette.hatch : palette.dots;
        ctx.lineWidth = 1;
        ctx.strokeRect(x0 + 0.5, y + 0.5, w - 1, h - 1);
      }
      if (input.selected && input.selected.lane === li && input.selected.segment === si) {
        ctx.strokeStyle = palette.selected;
        ctx.lineWidth = 3;
        ctx.strokeRect(x0 + 1.5, y - 1.5, Math.max(2, w - 3), h + 3);
      }
      drawLabel(ctx, s, x0, w, y + h / 2, palette, s.style === 'solid');
    });
  });
  if (input.cursor !== undefined && input.cursor >= from && input.cursor <= to) {
    ctx.fillStyle = palette.cursor;
    ctx.fillRect(Math.round(x(input.cursor)) - 1, 0, 2, height);
  }
  return drawn;
}

function drawLabel(ctx: CanvasRenderingContext2D, s: Segment, x0: number, w: number, midY: number, palette: Palette, onFill: boolean) {
  if (w < 40) return;
  const text = s.label;
  let shown = text;
  while (shown.length > 3 && ctx.measureText(shown).width > w - 8) shown = `${shown.slice(0, -2)}…`;
  if (ctx.measureText(shown).width > w - 8) return;
  const tw = ctx.measureText(shown).width;
  if (!onFill) {
    // Hatched and dotted bars get a plate behind the text so it stays readable.
    ctx.fillStyle = palette.bg;
    ctx.fillRect(x0 + 3, midY - 8, tw + 4, 16);
    ctx.fillStyle = palette.text;
  } else ctx.fillStyle = palette.barText;
  ctx.fillText(shown, x0 + 5, midY);
}

/** One lane of Events: connectors first (under the marks), then each mark and as much of its text as fits before the next. */
function drawEventMarks(ctx: CanvasRenderingContext2D, lane: Lane, li: number, top: number, input: DrawInput, x: (t: number) => number): DrawnSegment[] {
  const { width, laneHeight, palette } = input;
  const mid = top + laneHeight / 2 - 1;
  const drawn: DrawnSegment[] = [];
  const visible = lane.segments.map((s, si) => ({ s, si, at: x(s.start) })).filter(({ at }) => at >= -MARK && at <= width + MARK);
  ctx.save();
  ctx.setLineDash([4, 3]);
  ctx.lineWidth = 1.5;
  for (const { s, at } of visible) {
    if (s.link === undefined) continue;
    const to = Math.min(width, x(s.link));
    ctx.strokeStyle = s.style === 'warning' ? palette.warning : palette.event;
    ctx.beginPath();
    ctx.moveTo(at, mid);
    ctx.lineTo(to, mid);
    ctx.moveTo(to, mid - 5);
    ctx.lineTo(to, mid + 5);
    ctx.stroke();
  }
  ctx.restore();
  visible.forEach(({ s, si, at }, i) => {
    const warning = s.style === 'warning';
    ctx.fillStyle = warning ? palette.warning : palette.event;
    ctx.strokeStyle = palette.bg;
    ctx.lineWidth = 1;
    ctx.beginPath();
    if (warning) {
      ctx.moveTo(at, mid - MARK - 1);
      ctx.lineTo(at + MARK + 1, mid + MARK);
      ctx.lineTo(at - MARK - 1, mid + MARK);
      ctx.closePath();
    } else ctx.arc(at, mid, MARK - 2, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    if (warning) {
      ctx.fillStyle = palette.barText;
      ctx.font = 'bold 10px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.fillText('!', at, mid + 2);
      ctx.textAlign = 'start';
    }
    if (input.selected && input.selected.lane === li && input.selected.segment === si) {
      ctx.strokeStyle = palette.selected;
      ctx.lineWidth = 3;
      ctx.strokeRect(at - MARK - 3, mid - MARK - 3, 2 * MARK + 6, 2 * MARK + 6);
    }
    drawn.push({ lane: li, kind: lane.kind, segment: si, x: at - MARK, width: 2 * MARK });
    // Text from after the mark up to the next one.
    const room = (i + 1 < visible.length ? visible[i + 1].at - MARK : width) - (at + MARK + 4) - 4;
    ctx.font = warning ? 'bold 12px system-ui, sans-serif' : '12px system-ui, sans-serif';
    let shown = s.label;
    while (shown.length > 3 && ctx.measureText(shown).width > room) shown = `${shown.slice(0, -2)}…`;
    if (ctx.measureText(shown).width <= room) {
      ctx.fillStyle = warning ? palette.warningText : palette.text;
      ctx.fillText(shown, at + MARK + 4, mid + 1);
    }
  });
  ctx.font = '12px system-ui, sans-serif';
  return drawn;
}
