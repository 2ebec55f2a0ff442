// `svctrail history NAMESPACE/NAME`: every accepted write to that Service name (all its
// incarnations), who made it, and what changed — the change log of the history API — and, in
// the same time order, what controllers reported about it in Events (its Events history).
import type { EventOccurrence } from '../history/event-occurrence';
import type { ServiceChange } from '../history/history-items';
import type { HistoryList } from '../history/history-list-page';
import { parseCommand } from './command-args';
import { openHistory, queryOf, serviceScope } from './history-reader';
import { STORAGE_USAGE } from './storage-option';
import { parseOutputFormat, structured, table } from './output-format';

export const HISTORY_USAGE = `usage: svctrail history NAMESPACE/NAME [--since TIME] [--until TIME] [--actor USER]
                        [--event-type TYPE] [--uid UID] [--limit N] [--data-dir DIR | --storage postgres://…] [-o json|yaml]
  Every accepted write to the Service (all incarnations of the name): resourceVersion, time,
  user, verb, domain events and the JSON patch; the same answers as .../services/NAME/changes.
  Beside them, in resourceVersion order, each write of a controller's Event about it (created,
  repeated, deleted, expired; type, reason, count, reporting controller, message): the same as
  .../services/NAME/events. --actor and --event-type select changes, so they leave the Events
  out; --limit N shows the first N of both together. -o json|yaml prints a List of both kinds.
${STORAGE_USAGE}`;

type HistoryItem = ServiceChange | EventOccurrence;

export async function runHistory(argv: string[], out: (line: string) => void): Promise<number> {
  const parsed = parseCommand(
    argv,
    { since: { type: 'string' }, until: { type: 'string' }, actor: { type: 'string' }, 'event-type': { type: 'string' }, uid: { type: 'string' }, limit: { type: 'string' } },
    HISTORY_USAGE,
    out,
  );
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const format = parseOutputFormat(values.output);
  const scope = serviceScope(positionals[0]);
  const reader = await openHistory(parsed.store);
  try {
    const query = queryOf(values, { since: 'since', until: 'until', actor: 'actor', 'event-type': 'eventType', uid: 'uid', limit: 'limit' });
    const changes = (await reader.changes.list(scope, query)).encoded.object as HistoryList<ServiceChange>;
    const snapshot = changes.metadata.resourceVersion;
    const withEvents = values.actor === undefined && values['event-type'] === undefined;
    // Read up to the changes' snapshot, so both lists tell the history as of one point.
    const events = withEvents ? await reader.events.list(scope, { ...queryOf(values, { since: 'since', until: 'until', uid: 'uid', limit: 'limit' }), untilResourceVersion: snapshot }) : undefined;
    const limit = values.limit === undefined || Number(values.limit) === 0 ? Infinity : Number(values.limit);
    const merged: HistoryItem[] = [...changes.items, ...(events?.items ?? [])].sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
    const items = merged.slice(0, limit);
    const more = merged.length > items.length || changes.metadata.continue !== undefined || events?.metadata.continue !== undefined;
    const text = structured(format, events ? { kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: snapshot }, items } : changes);
    if (text !== undefined) {
      out(text);
      return 0;
    }
    out(table(['RV', 'TIME', 'USER', 'VIA', 'VERB', 'EVENTS', 'CHANGES'], items.map(row)));
    if (more) out(events ? '(more: raise --limit, or narrow the window with --since/--until)' : `(more: --limit, or the API with continue=${changes.metadata.continue})`);
    return 0;
  } finally {
    await reader.close();
  }
}

function row(item: HistoryItem): string[] {
  const via = item.actor.fieldManager || item.actor.userAgent;
  if (item.kind === 'EventOccurrence') {
    const said = `${item.reportingController || '?'}: ${item.message}`;
    return [item.metadata.resourceVersion, item.time, item.actor.user, via, `event ${item.happened}`, `${item.type} ${item.reason}${item.count > 1 ? ` ×${item.count}` : ''}`, said.slice(0, 80)];
  }
  return [
    item.metadata.resourceVersion,
    item.time,
    item.actor.user,
    via,
    item.subresource ? `${item.verb} ${item.subresource}` : item.verb,
    item.events.map((e) => e.type).join(','),
    item.patch
      .map((op: { op: string; path: string }) => `${op.op} ${op.path || '/'}`)
      .join(', ')
      .slice(0, 80),
  ];
}
