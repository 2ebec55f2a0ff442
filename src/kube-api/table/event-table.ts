// The Table kube-apiserver returns for core/v1 Events (printers.go printEvent and its column
// definitions), so `kubectl get events` prints LAST SEEN, TYPE, REASON, OBJECT, MESSAGE.
import type { KubeEvent } from '../../domain/kube-event/kube-event.types';
import { translateTimestampSince } from './human-duration';
import { buildListMeta, type ListMetaOptions } from './list-meta';
import type { IncludeObject, MetaApiVersion, TableColumnDefinition } from './table.types';

const column = (name: string, description: string, priority = 0, format = ''): TableColumnDefinition => ({
  name,
  type: 'string',
  format,
  description,
  priority,
});

export const EVENT_COLUMN_DEFINITIONS: readonly TableColumnDefinition[] = [
  column('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
  column('Type', 'Type of this event (Normal, Warning), new types could be added in the future'),
  column('Reason', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
  column('Object', 'The object that this event is about.'),
  column(
    'Subobject',
    'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].',
    1,
  ),
  column('Source', 'The component reporting this event. Should be a short machine understandable string.', 1),
  column('Message', 'A human-readable description of the status of this operation.'),
  column('First Seen', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
  column('Count', 'The number of times this event has occurred.', 1),
  column(
    'Name',
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
    1,
    'name',
  ),
];

const firstNonEmpty = (...values: (string | undefined)[]): string => values.find((v) => v) ?? '';

/** formatEventSource: the component (else the reporting controller), then the host (else the instance) when there is one. */
function eventSource(event: KubeEvent): string {
  const component = firstNonEmpty(event.source?.component, event.reportingComponent);
  const instance = firstNonEmpty(event.source?.host, event.reportingInstance);
  return instance ? `${component}, ${instance}` : component;
}

/** printEvent with Wide (a server-side Table has every column): legacy and events.k8s.io Events alike. */
export function eventRow(event: KubeEvent, now: Date): (string | number)[] {
  const firstSeen = event.firstTimestamp ? translateTimestampSince(event.firstTimestamp, now) : translateTimestampSince(event.eventTime ?? null, now);
  let lastSeen = event.lastTimestamp ? translateTimestampSince(event.lastTimestamp, now) : firstSeen;
  let count = event.count ?? 0;
  if (event.series) {
    lastSeen = translateTimestampSince(event.series.lastObservedTime ?? null, now);
    count = event.series.count ?? 0;
  } else if (count === 0) {
    // Singleton events don't have a count set in the new API.
    count = 1;
  }
  const involved = event.involvedObject ?? {};
  const kind = (involved.kind ?? '').toLowerCase();
  const target = involved.name ? `${kind}/${involved.name}` : kind;
  return [lastSeen, event.type ?? '', event.reason ?? '', target, involved.fieldPath ?? '', eventSource(event), (event.message ?? '').trim(), firstSeen, count, event.metadata.name ?? ''];
}

export function buildEventTable(
  items: readonly KubeEvent[],
  opts: ListMetaOptions & {
    now: Date;
    includeObject: IncludeObject;
    apiVersion: MetaApiVersion;
    noHeaders?: boolean;
    /** includeObject=Object: the Event in the request's version (asTable converts it); default core/v1. */
    served?: (event: KubeEvent) => object;
  },
) {
  return {
    kind: 'Table',
    apiVersion: opts.apiVersion,
    metadata: buildListMeta(opts),
    columnDefinitions: opts.noHeaders ? null : EVENT_COLUMN_DEFINITIONS.map((c) => ({ ...c })),
    rows: items.map((event) => ({
      cells: eventRow(event, opts.now),
      object:
        opts.includeObject === 'None'
          ? null
          : opts.includeObject === 'Object'
            ? (opts.served?.(event) ?? { kind: 'Event', apiVersion: 'v1', ...event })
            : { kind: 'PartialObjectMetadata', apiVersion: opts.apiVersion, metadata: event.metadata },
    })),
  };
}
