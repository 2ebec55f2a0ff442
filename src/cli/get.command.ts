// `svctrail get NAMESPACE/NAME [--at TIME | --resource-version RV]`: the Service exactly as the
// API returned it at that point (the current one without a point), from the revisions projection.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommand } from './command-args';
import { stringify as toYaml } from 'yaml';
import { PROJECT_ROOT } from '../config/app-config';
import { parseAsOf } from '../kube-api/point-in-time';
import { openDatabase } from '../store/database';
import { SqliteServiceReadStore } from '../store/sqlite-service-read-store';
import { serviceScope } from './history-reader';
import { UsageError } from './usage-error';

export const GET_USAGE = `usage: svctrail get NAMESPACE/NAME [--at TIME | --resource-version RV] [--data-dir DIR] [-o yaml|json]
  The Service as the API returned it at that time or resourceVersion (now, without either);
  the same answer as GET .../services/NAME?asOf=TIME (or resourceVersion=RV&resourceVersionMatch=Exact).`;

export async function runGet(argv: string[], out: (line: string) => void): Promise<number> {
  const parsed = parseCommand(argv, { at: { type: 'string' }, 'resource-version': { type: 'string' } }, GET_USAGE, out, 'yaml');
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const rvText = values['resource-version'] as string | undefined;
  if (values.output !== 'yaml' && values.output !== 'json') throw new UsageError(`-o must be yaml or json, not "${values.output}"`);
  if (values.at !== undefined && values['resource-version'] !== undefined) throw new UsageError('give --at or --resource-version, not both');
  if (rvText !== undefined && !/^[1-9]\d*$/.test(rvText)) throw new UsageError(`--resource-version must be a positive integer, not "${rvText}"`);
  const { namespace, name } = serviceScope(positionals[0]);
  const path = join(values['data-dir'], 'svctrail.db');
  if (!existsSync(path)) throw new UsageError(`no svctrail database in ${values['data-dir']} (use --data-dir)`);
  const handle = openDatabase({ path, migrationsFolder: join(PROJECT_ROOT, 'migrations'), synchronous: 'NORMAL', readonly: true });
  try {
    const reads = new SqliteServiceReadStore(handle);
    const head = await reads.head();
    const rv = rvText !== undefined ? Number(rvText) : values.at !== undefined ? await reads.resourceVersionAt(parseAsOf(values.at as string)) : head;
    if (rv > head) throw new UsageError(`resourceVersion ${rv} is newer than the log (head ${head})`);
    const json = await reads.jsonAsOf(namespace, name, rv);
    const service: unknown = json === undefined ? undefined : JSON.parse(json);
    if (!service) {
      out(`services "${name}" not found in namespace ${namespace} at resourceVersion ${rv}`);
      return 1;
    }
    out(values.output === 'json' ? JSON.stringify(service, null, 2) : toYaml(service).trimEnd());
    return 0;
  } finally {
    handle.close();
  }
}
