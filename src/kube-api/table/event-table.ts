// The Table kube-apiserver returns for core/v1 Events (printers.go printEvent and its column
// definitions), so `kubectl get events` prints LAST SEEN, TYPE, REASON, OBJECT, MESSAGE.
import type { KubeEvent } from '../../kube-events/kube-event.types';
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

export function eventRow(event: KubeEvent, now: Date): (string | number)[] {
  return [
    translateTimestampSince(event.lastTimestamp, now),
    event.type,
    event.reason,
    `${event.involvedObject.kind.toLowerCase()}/${event.involvedObject.name}`,
    '',
    event.source.component,
    event.message.trim(),
    translateTimestampSince(event.firstTimestamp, now),
    event.count,
    event.metadata.name,
  ];
}

export function buildEventTable(items: readonly KubeEvent[], opts: ListMetaOptions & { now: Date; includeObject: IncludeObject; apiVersion: MetaApiVersion; noHeaders?: boolean }) {
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
            ? { kind: 'Event', apiVersion: 'v1', ...event }
            : { kind: 'PartialObjectMetadata', apiVersion: opts.apiVersion, metadata: event.metadata },
    })),
  };
}
