// Turns history API answers into lanes of intervals (pure): one lane per ingress address (bars
// from set to cleared, with who did each), one per condition type (a segment per status, starting
// from the status as of the window's start), and one of change markers from the summary buckets.
// The lane of controllers' Events is event-lane.ts.
export interface Segment {
  start: number;
  /** null: still open at the end of the window. */
  end: number | null;
  /** What the bar says in text (never only its colour). */
  label: string;
  /** Drawing style: filled, hatched, dotted, conflict, marker; a controller's Event: warning or event (a point in time). */
  style: 'solid' | 'hatch' | 'dots' | 'conflict' | 'marker' | 'warning' | 'event';
  detail: string;
  /** The time the as-of cursor jumps to when the segment is chosen. */
  at: number;
  /** An Event's: when the ingress change it explains was written (drawn as a connector to it). */
  link?: number;
}

export interface Lane {
  id: string;
  kind: 'ingress' | 'condition' | 'changes' | 'events';
  title: string;
  segments: Segment[];
}

export interface IngressIntervalItem {
  address: string;
  addressType: string;
  from: { time: string; setBy: string; resourceVersion: string };
  to: { time: string; clearedBy: string; resourceVersion: string } | null;
}

export interface TransitionItem {
  conditionType: string;
  fromStatus: string | null;
  toStatus: string | null;
  reason: string;
  message: string;
  time: string;
  actor: { user: string; userAgent: string; fieldManager: string };
}

export interface BucketItem {
  start: string;
  end: string;
  changes: number;
  specChanges: number;
  metadataChanges: number;
  conditionTransitions: number;
  ingressSets: number;
  created: number;
  deleted: number;
}

const STATUS_STYLE: Record<string, Segment['style']> = { True: 'solid', False: 'hatch' };

export function ingressLanes(intervals: IngressIntervalItem[]): Lane[] {
  const lanes = new Map<string, Lane>();
  for (const i of intervals) {
    const lane = lanes.get(i.address) ?? { id: `ingress:${i.address}`, kind: 'ingress' as const, title: i.address, segments: [] };
    lanes.set(i.address, lane);
    const start = Date.parse(i.from.time);
    const cleared = i.to ? `cleared by ${i.to.clearedBy}` : 'still held';
    lane.segments.push({
      start,
      end: i.to ? Date.parse(i.to.time) : null,
      label: `${i.address} · set by ${i.from.setBy}${i.to ? ` · cleared by ${i.to.clearedBy}` : ''}`,
      style: 'solid',
      detail: `${i.address} (${i.addressType}) set by ${i.from.setBy} at rv ${i.from.resourceVersion}; ${cleared}${i.to ? ` at rv ${i.to.resourceVersion}` : ''}`,
      at: start,
    });
  }
  return [...lanes.values()].sort((a, b) => a.title.localeCompare(b.title));
}

/**
 * Condition lanes for the window [from, to]: `initial` is each type's status as of `from` (from the
 * time-travel API), `transitions` those inside the window, oldest first.
 */
export function conditionLanes(initial: Record<string, string>, transitions: TransitionItem[], from: number): Lane[] {
  const lanes = new Map<string, Lane>();
  const lane = (type: string) => {
    let l = lanes.get(type);
    if (!l) {
      l = { id: `condition:${type}`, kind: 'condition', title: type, segments: [] };
      lanes.set(type, l);
    }
    return l;
  };
  const open = new Map<string, Segment>();
  const begin = (type: string, status: string | null, start: number, who: string, reason: string) => {
    const previous = open.get(type);
    if (previous) previous.end = start;
    open.delete(type);
    if (status === null) {
      lane(type);
      return;
    }
    const segment: Segment = {
      start,
      end: null,
      label: `${type}=${status}${reason ? ` (${reason})` : ''}${who ? ` · by ${who}` : ''}`,
      style: STATUS_STYLE[status] ?? 'dots',
      detail: `${type} ${status}${reason ? `, reason ${reason}` : ''}${who ? `, set by ${who}` : ''}`,
      at: start,
    };
    lane(type).segments.push(segment);
    open.set(type, segment);
  };
  for (const [type, status] of Object.entries(initial)) begin(type, status, from, '', '');
  for (const t of transitions) begin(t.conditionType, t.toStatus, Date.parse(t.time), t.actor.user, t.reason);
  return [...lanes.values()].sort((a, b) => a.title.localeCompare(b.title));
}

export function changeLane(buckets: BucketItem[]): Lane {
  const segments: Segment[] = [];
  for (const b of buckets) {
    const parts: string[] = [];
    if (b.created) parts.push('created');
    if (b.deleted) parts.push('deleted');
    if (b.specChanges) parts.push(`${b.specChanges} spec`);
    if (b.metadataChanges) parts.push(`${b.metadataChanges} metadata`);
    if (parts.length === 0) continue;
    const start = Date.parse(b.start);
    segments.push({ start, end: Date.parse(b.end), label: parts.join(', '), style: 'marker', detail: `${parts.join(', ')} change(s) between ${b.start} and ${b.end}`, at: start });
  }
  return { id: 'changes', kind: 'changes', title: 'spec / metadata', segments };
}

/**
 * A lane of counts from the summary buckets, for windows holding more intervals than are fetched
 * one by one: each bucket with activity becomes a marker saying how many.
 */
export function densityLane(id: string, title: string, buckets: BucketItem[], count: (b: BucketItem) => number, noun: string): Lane {
  const segments: Segment[] = [];
  for (const b of buckets) {
    const n = count(b);
    if (n === 0) continue;
    const start = Date.parse(b.start);
    segments.push({ start, end: Date.parse(b.end), label: `${n}`, style: 'dots', detail: `${n} ${noun} between ${b.start} and ${b.end}`, at: start });
  }
  return { id, kind: 'changes', title, segments };
}
