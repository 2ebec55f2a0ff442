// `svctrail conditions NAMESPACE/NAME`: every condition transition of the Service (from → to,
// reason, who) and, per condition, time in each status, transition count and flapping.
import { parseCommand } from './command-args';
import { openHistory, queryOf, serviceScope } from './history-reader';
import { STORAGE_USAGE } from './storage-option';
import { parseOutputFormat, structured, table } from './output-format';

export const CONDITIONS_USAGE = `usage: svctrail conditions NAMESPACE/NAME [--type TYPE] [--since TIME] [--until TIME]
                           [--flap-threshold N] [--flap-window DURATION] [--data-dir DIR | --storage postgres://…] [-o json|yaml]
  The condition audit log of the Service and a summary per condition (time in each status,
  transitions, flapping); the same answers as .../conditiontransitions and .../conditionsummaries.
${STORAGE_USAGE}`;

export async function runConditions(argv: string[], out: (line: string) => void): Promise<number> {
  const parsed = parseCommand(
    argv,
    { type: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' }, 'flap-threshold': { type: 'string' }, 'flap-window': { type: 'string' } },
    CONDITIONS_USAGE,
    out,
  );
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const format = parseOutputFormat(values.output);
  const scope = serviceScope(positionals[0]);
  const reader = await openHistory(parsed.store);
  try {
    const window = queryOf(values, { type: 'conditionType', since: 'since', until: 'until' });
    const transitions = await reader.conditions.transitions(scope, window);
    const summaries = await reader.conditions.summaries(scope, {
      ...window,
      ...queryOf(values, { 'flap-threshold': 'flapThreshold', 'flap-window': 'flapWindow' }),
    });
    const text = structured(format, { transitions, summaries });
    if (text !== undefined) {
      out(text);
      return 0;
    }
    out(
      table(
        ['RV', 'TIME', 'CONDITION', 'FROM', 'TO', 'REASON', 'USER'],
        transitions.items.map((t) => [t.metadata.resourceVersion, t.time, t.conditionType, t.fromStatus ?? '-', t.toStatus ?? '-', t.reason, t.actor.user]),
      ),
    );
    out('');
    const rows: (string | number)[][] = [];
    for (const s of summaries.items) {
      for (const c of s.conditions) {
        const seconds = Object.entries(c.secondsInStatus)
          .map(([status, n]) => `${status}=${Math.round(n)}s`)
          .join(' ');
        rows.push([s.service.uid, c.type, c.status ?? '-', c.transitions, seconds, c.flapping ? `yes (${c.maxTransitionsInFlapWindow})` : 'no']);
      }
    }
    out(table(['UID', 'CONDITION', 'NOW', 'TRANSITIONS', 'SECONDS IN STATUS', 'FLAPPING'], rows));
    return 0;
  } finally {
    await reader.close();
  }
}
