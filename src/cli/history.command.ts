// `svctrail history NAMESPACE/NAME`: every accepted write to that Service name (all its
// incarnations), who made it, and what changed — the change log of the history API.
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
${STORAGE_USAGE}`;

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
    const list = (await reader.changes.list(scope, query)).encoded.object as HistoryList<ServiceChange>;
    const text = structured(format, list);
    if (text !== undefined) {
      out(text);
      return 0;
    }
    out(
      table(
        ['RV', 'TIME', 'USER', 'VIA', 'VERB', 'EVENTS', 'CHANGES'],
        list.items.map((c) => [
          c.metadata.resourceVersion,
          c.time,
          c.actor.user,
          c.actor.fieldManager || c.actor.userAgent,
          c.subresource ? `${c.verb} ${c.subresource}` : c.verb,
          c.events.map((e) => e.type).join(','),
          c.patch
            .map((op: { op: string; path: string }) => `${op.op} ${op.path || '/'}`)
            .join(', ')
            .slice(0, 80),
        ]),
      ),
    );
    if (list.metadata.continue) out(`(more: --limit, or the API with continue=${list.metadata.continue})`);
    return 0;
  } finally {
    await reader.close();
  }
}
