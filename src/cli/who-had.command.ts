// `svctrail who-had ADDRESS [--at TIME | --from T1 --to T2]`: which Services held a load-balancer
// IP or hostname, from when to when, and who assigned and cleared it.
import { parseCommand } from './command-args';
import { openHistory, queryOf } from './history-reader';
import { STORAGE_USAGE } from './storage-option';
import { parseOutputFormat, structured, table } from './output-format';
import { UsageError } from './usage-error';

export const WHO_HAD_USAGE = `usage: svctrail who-had ADDRESS [--at TIME | --from TIME --to TIME]
                       [--data-dir DIR | --storage postgres://…] [-o json|yaml]
  The Services that held the load-balancer IP or hostname (at a time, or during a window; by
  default ever), with who assigned and who cleared it; the same answers as .../ingressowners.
  In a mirror's store, a write's user is the audit event's ("(audit)") once one was joined to
  it, else the field manager whose managedFields entry it changed ("(field manager)", a hint).
${STORAGE_USAGE}`;

export async function runWhoHad(argv: string[], out: (line: string) => void): Promise<number> {
  const parsed = parseCommand(argv, { at: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, limit: { type: 'string' } }, WHO_HAD_USAGE, out);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const format = parseOutputFormat(values.output);
  if (!positionals[0]) throw new UsageError('expected an ADDRESS');
  const reader = await openHistory(parsed.store);
  try {
    const list = await reader.ingress.owners({ address: positionals[0], ...queryOf(values, { at: 'at', from: 'from', to: 'to', limit: 'limit' }) });
    const text = structured(format, list);
    if (text !== undefined) {
      out(text);
      return 0;
    }
    if (!list.items.length) {
      out(`nobody held ${positionals[0]}${values.at ? ` at ${values.at}` : ''}`);
      return 0;
    }
    out(
      table(
        ['SERVICE', 'UID', 'FROM', 'SET BY', 'TO', 'CLEARED BY'],
        list.items.map((o) => [
          `${o.service.namespace}/${o.service.name}`,
          o.service.uid,
          `${o.from.time} (rv ${o.from.resourceVersion})`,
          who(o.from.setBy, o.from.setByKind),
          o.to ? `${o.to.time} (rv ${o.to.resourceVersion})` : '(still held)',
          o.to ? who(o.to.clearedBy, o.to.clearedByKind) : '',
        ]),
      ),
    );
    return 0;
  } finally {
    await reader.close();
  }
}

/** A mirrored write's setter says how it is known; a direct write's user is the authenticated one. */
function who(name: string, kind: 'audit' | 'fieldManager' | undefined): string {
  if (kind === 'audit') return `${name} (audit)`;
  if (kind === 'fieldManager') return `${name} (field manager)`;
  return name;
}
