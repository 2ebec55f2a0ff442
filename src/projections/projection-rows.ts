// Which projection rows one committed write adds, changes and removes: the rule of every
// projection written once, as data. An engine executes it: with the write's resourceVersion,
// time and row ids, which the log hands out when the write is appended. So PostgreSQL can decide
// every row before it takes the append lock and send them all in one statement, and a change to
// a projection's rule is made here, for every engine.
import type { ServiceEvent } from '../domain/service.events';
import { type AllocatedValues, allocationChanges } from '../domain/allocation/service-allocation';
import { jsonPatchTextOfObjects } from '../domain/json-patch-diff';
import { eventTransitions, transitionCells } from './condition-audit.projection';
import { eventIngressChanges } from './ingress-addresses';
import type { Address } from './ingress-addresses';
import type { CommittedWrite } from '../store/ports/committed-write';

export type AllocationKind = 'cluster-ip' | 'node-port';

export interface AllocationCell {
  kind: AllocationKind;
  value: string;
}

/** The cells of a condition_transitions row that the write's events decide (not rv, time, actor). */
export type TransitionCells = ReturnType<typeof transitionCells>;

/** An ingress interval change, in event order: close one address's open interval, close them all, or open one. */
export type IngressStep = { op: 'close-all' } | ({ op: 'close' | 'open' } & Address);

export interface ProjectionRows {
  /** services: the live row, stored as GET serves it. */
  service: { op: 'insert' | 'update'; object: string } | { op: 'delete' };
  /** service_lifetimes: the incarnation starts (a create) or ends (a delete) at this write. */
  born: boolean;
  died: boolean;
  /** service_revisions: the object as written and its patch from the previous revision (none for a delete). */
  revision?: { object: string; patch: string };
  transitions: TransitionCells[];
  ingress: IngressStep[];
  /** allocations: values the write releases, then values it takes. */
  release: AllocationCell[];
  take: AllocationCell[];
}

/** What the rule reads of a write: its events, the states around them and the object's stored text. */
export type RowsInput = Pick<CommittedWrite, 'before' | 'after' | 'objectJson'> & { events: readonly { event: ServiceEvent }[] };

/** Cells of the values, once each (a port number served over TCP and UDP holds one node port). */
function cells(values: AllocatedValues): AllocationCell[] {
  const out = new Map<string, AllocationCell>();
  for (const ip of values.clusterIPs) out.set(`cluster-ip\u0000${ip}`, { kind: 'cluster-ip', value: ip });
  for (const port of values.nodePorts) out.set(`node-port\u0000${port}`, { kind: 'node-port', value: String(port) });
  return [...out.values()];
}

/**
 * The allocation rows a write releases and takes: the domain's allocationChanges (which values the
 * Service holds before and after) as table cells; a write that leaves the spec and the object's
 * existence alone changes none.
 */
export function allocationRowChanges(write: RowsInput): { release: AllocationCell[]; take: AllocationCell[] } {
  if (write.before.object && write.after.object && !write.events.some((e) => e.event.type === 'ServiceSpecChanged')) return { release: [], take: [] };
  const { allocate, release } = allocationChanges(write.before.object ?? undefined, write.after.object ?? undefined);
  return { release: cells(release), take: cells(allocate) };
}

export function ingressSteps(events: readonly { event: ServiceEvent }[]): IngressStep[] {
  const out: IngressStep[] = [];
  for (const { event } of events) {
    if (event.type === 'ServiceDeleted') {
      out.push({ op: 'close-all' });
      continue;
    }
    const changes = eventIngressChanges(event);
    if (!changes) continue;
    for (const a of changes.cleared) out.push({ op: 'close', ...a });
    for (const a of changes.set) out.push({ op: 'open', ...a });
  }
  return out;
}

export function writeTransitions(events: readonly { event: ServiceEvent }[]): TransitionCells[] {
  return events.flatMap(({ event }) => eventTransitions(event).map(transitionCells));
}

/**
 * Every row `write` changes. The revision's patch is diffed from `before.object`, which must be
 * the object the stream's previous revision stored (the live row's, as loaded).
 */
export function projectionRows(write: RowsInput): ProjectionRows {
  const object = write.after.object;
  const json = object ? (write.objectJson ?? JSON.stringify(object)) : null;
  return {
    service: object ? { op: write.before.object ? 'update' : 'insert', object: json! } : { op: 'delete' },
    born: !write.before.object,
    died: !object,
    revision: object ? { object: json!, patch: jsonPatchTextOfObjects(write.before.object, object, json) } : undefined,
    transitions: writeTransitions(write.events),
    ingress: ingressSteps(write.events),
    ...allocationRowChanges(write),
  };
}
