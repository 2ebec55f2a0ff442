// What one write changed, in a few words per event, from the events the change log serves
// (pure): the ingress addresses before and after ("ingress 203.0.113.7 → 203.0.113.8") and each
// condition's status ("Ready True → False"). The events carry the previous values themselves, so
// no other read is needed (the Live view shows these for every write as it arrives).
export interface EventItem {
  type: string;
  data?: unknown;
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

interface Ingress {
  ip?: string;
  hostname?: string;
}

/** The parts of the events' data read here (each event type has some of them). */
interface EventData {
  ingress?: Ingress[];
  condition?: Condition;
  conditionType?: string;
  conditions?: Condition[];
  /** The ingress list, the condition or the conditions list before the write. */
  previous?: unknown;
}

const NONE = 'none';

const addresses = (list: Ingress[] | undefined) => (list && list.length ? list.map((i) => i.ip ?? i.hostname ?? '?').join(', ') : NONE);

function conditionChange(type: string, previous: Condition | null | undefined, next: Condition | null | undefined): string | undefined {
  if (!next) return previous ? `${type} ${previous.status} → removed` : undefined;
  if (!previous) return `${type} ${NONE} → ${next.status}`;
  if (previous.status !== next.status) return `${type} ${previous.status} → ${next.status}`;
  if ((previous.reason ?? '') !== (next.reason ?? '')) return `${type} ${next.status} (${previous.reason || NONE} → ${next.reason || NONE})`;
  if ((previous.message ?? '') !== (next.message ?? '')) return `${type} ${next.status} (message changed)`;
  return undefined;
}

/** The first condition of each type, in list order. */
function byType(list: Condition[] | undefined): Map<string, Condition> {
  const out = new Map<string, Condition>();
  for (const c of list ?? []) if (!out.has(c.type)) out.set(c.type, c);
  return out;
}

function eventSummary(event: EventItem): string[] {
  const data = (event.data ?? {}) as EventData;
  switch (event.type) {
    case 'ServiceCreated':
      return ['created'];
    case 'ServiceSpecChanged':
      return ['spec changed'];
    case 'ServiceMetadataChanged':
      return ['metadata changed'];
    case 'LoadBalancerIngressChanged':
      return [`ingress ${addresses(data.previous as Ingress[] | undefined)} → ${addresses(data.ingress)}`];
    case 'ServiceConditionChanged': {
      const line = conditionChange(data.condition?.type ?? '?', data.previous as Condition | null, data.condition);
      return line ? [line] : [];
    }
    case 'ServiceConditionRemoved': {
      const line = conditionChange(data.conditionType ?? '?', data.previous as Condition | undefined, null);
      return line ? [line] : [];
    }
    case 'ServiceConditionsReplaced': {
      const before = byType(data.previous as Condition[] | undefined);
      const after = byType(data.conditions);
      const lines: string[] = [];
      for (const type of new Set([...before.keys(), ...after.keys()])) {
        const line = conditionChange(type, before.get(type), after.get(type));
        if (line) lines.push(line);
      }
      return lines.length ? lines : ['conditions reordered'];
    }
    case 'ServiceManagedFieldsChanged':
      return [];
    case 'ServiceUnknownFieldsChanged':
      return ['fields svctrail does not know changed'];
    case 'ServiceDeletionRequested':
      return ['deletion requested'];
    case 'ServiceDeleted':
      return ['deleted'];
    default:
      return [event.type];
  }
}

/** One short line per thing the write changed, in event order. */
export function changeSummary(events: EventItem[]): string[] {
  return events.flatMap(eventSummary);
}
