// The log holds Services' and Events' streams in one table: SQL that reads only one kind says so
// by the event type, the one column that tells them apart.
import { KUBE_EVENT_FACT_TYPES } from '../../domain/kube-event/kube-event.facts';

const TYPES = KUBE_EVENT_FACT_TYPES.map((t) => `'${t}'`).join(', ');

/** A condition on an events row (optionally aliased) that holds for a Service's event only. */
export function serviceRowsOnly(alias = ''): string {
  return `${alias ? `${alias}.` : ''}type NOT IN (${TYPES})`;
}

/** A condition on an events row (optionally aliased) that holds for an Event's fact only. */
export function eventRowsOnly(alias = ''): string {
  return `${alias ? `${alias}.` : ''}type IN (${TYPES})`;
}
