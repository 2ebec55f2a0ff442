// The lane of what controllers said about the Service (pure): a mark per write of one of its
// Events, at the time it was recorded. A Warning is never only a colour: its mark is a triangle
// with "!" (a Normal Event's a circle) and its text starts with "Warning". Each Event that
// explains an ingress change (event-links.ts) carries when that change was written, and says which.
import type { IngressChange, OccurrenceItem } from './event-links';
import type { Lane, Segment } from './lanes';

export const isWarning = (event: Pick<OccurrenceItem, 'type'>) => event.type === 'Warning';

/** "EnsuredLoadBalancer", "Warning SyncLoadBalancerFailed ×3": what the mark says beside it. */
export function eventLabel(event: OccurrenceItem): string {
  const count = event.count > 1 ? ` ×${event.count}` : '';
  return `${isWarning(event) ? 'Warning ' : ''}${event.reason || '(no reason)'}${count}`;
}

/** Everything about the write, in words: what the selection says aloud and the tooltip shows. */
export function eventDetail(event: OccurrenceItem, explains?: IngressChange): string {
  const parts = [
    `${event.type || 'untyped'} ${event.reason || '(no reason)'} ${event.happened}${event.count > 1 ? `, count ${event.count}` : ''}`,
    `by ${event.reportingController || 'an unnamed controller'}${event.reportingInstance ? ` (${event.reportingInstance})` : ''}`,
    event.message ? `“${event.message}”` : 'no message',
  ];
  if (event.firstSeen && event.lastSeen && event.firstSeen !== event.lastSeen) parts.push(`first seen ${event.firstSeen}, last seen ${event.lastSeen}`);
  else if (event.lastSeen) parts.push(`seen ${event.lastSeen}`);
  parts.push(`written by ${event.actor.user} at rv ${event.metadata.resourceVersion}`);
  if (explains) parts.push(`explains the ingress change at rv ${explains.resourceVersion} (${explains.summary})`);
  return parts.join('; ');
}

export function eventLane(events: readonly OccurrenceItem[], links: ReadonlyMap<number, IngressChange>): Lane {
  const segments: Segment[] = events.map((event) => {
    const at = Date.parse(event.time);
    const explains = links.get(Number(event.metadata.resourceVersion));
    return {
      start: at,
      end: at,
      label: eventLabel(event),
      style: isWarning(event) ? 'warning' : 'event',
      detail: eventDetail(event, explains),
      at,
      ...(explains ? { link: explains.time } : {}),
    };
  });
  return { id: 'events', kind: 'events', title: 'Events', segments };
}
