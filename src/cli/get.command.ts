// `svctrail get NAMESPACE/NAME [--at TIME | --resource-version RV]`: the Service exactly as the
// API returned it at that point (the current one without a point), from the revisions projection
// of either engine.
import { parseCommand } from './command-args';
import { stringify as toYaml } from 'yaml';
import { parseAsOf } from '../kube-api/point-in-time';
import { serviceScope } from './history-reader';
import { openReadOnlyStore } from './read-only-store';
import { STORAGE_USAGE } from './storage-option';
import { UsageError } from './usage-error';

export const GET_USAGE = `usage: svctrail get NAMESPACE/NAME [--at TIME | --resource-version RV] [--data-dir DIR | --storage postgres://…] [-o yaml|json]
  The Service as the API returned it at that time or resourceVersion (now, without either);
  the same answer as GET .../services/NAME?asOf=TIME (or resourceVersion=RV&resourceVersionMatch=Exact).
${STORAGE_USAGE}`;

export async function runGet(argv: string[], out: (line: string) => void): Promise<number> {
  const parsed = parseCommand(argv, { at: { type: 'string' }, 'resource-version': { type: 'string' } }, GET_USAGE, out, 'yaml');
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const rvText = values['resource-version'] as string | undefined;
  if (values.output !== 'yaml' && values.output !== 'json') throw new UsageError(`-o must be yaml or json, not "${values.output}"`);
  if (values.at !== undefined && values['resource-version'] !== undefined) throw new UsageError('give --at or --resource-version, not both');
  if (rvText !== undefined && !/^[1-9]\d*$/.test(rvText)) throw new UsageError(`--resource-version must be a positive integer, not "${rvText}"`);
  const { namespace, name } = serviceScope(positionals[0]);
  const asOf = values.at !== undefined ? parseAsOf(values.at as string) : undefined;
  const { stores, close } = await openReadOnlyStore(parsed.store);
  try {
    // Head, point and object from one snapshot: a server writing meanwhile cannot split them.
    const answer = await stores.reads.inSnapshot(async (reads) => {
      const head = await reads.head();
      const rv = rvText !== undefined ? Number(rvText) : asOf !== undefined ? await reads.resourceVersionAt(asOf) : head;
      if (rv > head) throw new UsageError(`resourceVersion ${rv} is newer than the log (head ${head})`);
      const horizon = await reads.horizon();
      if (rv < horizon) return { rv, horizon };
      return { rv, json: await reads.jsonAsOf(namespace, name, rv) };
    });
    if ('horizon' in answer) {
      // As the API answers it (410 Expired): the objects below the horizon are gone, the facts stay.
      out(`too old resource version: ${answer.rv} (${answer.horizon}): the history is compacted up to resourceVersion ${answer.horizon}; svctrail history still shows what changed`);
      return 1;
    }
    const service: unknown = answer.json === undefined ? undefined : JSON.parse(answer.json);
    if (!service) {
      out(`services "${name}" not found in namespace ${namespace} at resourceVersion ${answer.rv}`);
      return 1;
    }
    out(values.output === 'json' ? JSON.stringify(service, null, 2) : toYaml(service).trimEnd());
    return 0;
  } finally {
    await close();
  }
}
