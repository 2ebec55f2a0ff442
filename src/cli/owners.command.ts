// `svctrail owners NAMESPACE/NAME [FIELD] [--at TIME]`: which field managers owned the Service's
// fields (or the fields under FIELD), from when to when, and who took them over; the same answers
// as .../services/NAME/fieldownerships.
import { parseCommand } from './command-args';
import { openHistory, queryOf, serviceScope } from './history-reader';
import { STORAGE_USAGE } from './storage-option';
import { parseOutputFormat, structured, table } from './output-format';

export const OWNERS_USAGE = `usage: svctrail owners NAMESPACE/NAME [FIELD] [--at TIME | --since TIME --until TIME] [--manager NAME]
                       [--data-dir DIR | --storage postgres://…] [-o json|yaml]
  Who owned each field of the Service (managedFields over time): manager, operation, from, to,
  and who took it over (forced for an Apply). FIELD is a path as conflicts print it, or a prefix:
  .status.loadBalancer.ingress, .spec.ports, .metadata.labels.app.
${STORAGE_USAGE}`;

export async function runOwners(argv: string[], out: (line: string) => void): Promise<number> {
  const parsed = parseCommand(argv, { at: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' }, manager: { type: 'string' }, limit: { type: 'string' } }, OWNERS_USAGE, out);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const format = parseOutputFormat(values.output);
  const scope = serviceScope(positionals[0]);
  const reader = await openHistory(parsed.store);
  try {
    const query = { ...queryOf(values, { at: 'at', since: 'since', until: 'until', manager: 'manager', limit: 'limit' }), ...(positionals[1] ? { field: positionals[1] } : {}) };
    const list = await reader.ownership.list(scope, query);
    const text = structured(format, list);
    if (text !== undefined) {
      out(text);
      return 0;
    }
    if (!list.items.length) {
      out(`no recorded owner${positionals[1] ? ` of ${positionals[1]}` : ''}${values.at ? ` at ${values.at}` : ''}`);
      return 0;
    }
    out(
      table(
        ['FIELD', 'MANAGER', 'OPERATION', 'FROM', 'TO', 'ENDED BY'],
        list.items.map((o) => [
          o.field,
          o.manager,
          `${o.operation}${o.subresource ? ` (${o.subresource})` : ''}`,
          `${o.from.time} (rv ${o.from.resourceVersion})`,
          o.to ? `${o.to.time} (rv ${o.to.resourceVersion})` : '(still owned)',
          !o.to ? '' : o.to.reason === 'takenOver' ? `${o.to.takenOverBy!.map((t) => `${t.manager} ${t.operation}`).join(', ')}${o.to.forced ? ' (forced)' : ''}` : o.to.reason,
        ]),
      ),
    );
    return 0;
  } finally {
    await reader.close();
  }
}
