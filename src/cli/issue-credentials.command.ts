// `svctrail issue-credentials --user alice [--group devs]... [--token] [--data-dir ./data]
//  [--server URL] [--out FILE] [--policy readonly|status-writer|admin|audit-webhook|auth-delegator [--namespace NS]]`
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_SERVER_URL, issueCredentials } from '../auth/issue-credentials';
import { DEFAULT_DATA_DIR } from '../tls/data-dir';
import { isPolicyPreset, POLICY_PRESETS } from '../authz/policy-presets';

export const ISSUE_CREDENTIALS_USAGE = `usage: svctrail issue-credentials --user NAME [--group GROUP]... [--token]
                                  [--data-dir DIR] [--server URL] [--out FILE]
                                  [--policy readonly|status-writer|admin|audit-webhook|auth-delegator [--namespace NS]]
  Issues a client certificate signed by the data directory's CA (CN=user, O=group), or with
  --token a bearer token appended to tokens.csv (restart the server to load it), and writes a
  kubeconfig for that user (default DIR/users/NAME.kubeconfig).
  --policy appends ABAC lines for the user to DIR/policy.jsonl (restart the server to load them):
  readonly reads everything in NS (default all namespaces), status-writer also writes
  services/status and Events there, admin may do anything, audit-webhook may only post audit events to
  /audit/v1/events (mirror mode; the kubeconfig's server is then that URL, as kube-apiserver's
  --audit-webhook-config-file wants it), auth-delegator may create tokenreviews and
  subjectaccessreviews (kube's system:auth-delegator: a server that delegates to svctrail).`;

/** The server URL of the admin kubeconfig the server wrote, so a port-0 server is found too. */
function serverFromAdminKubeconfig(dataDir: string): string | undefined {
  const path = join(dataDir, 'kubeconfig');
  if (!existsSync(path)) return undefined;
  const doc = parseYaml(readFileSync(path, 'utf8')) as { clusters?: { cluster?: { server?: string } }[] };
  return doc.clusters?.[0]?.cluster?.server;
}

export async function runIssueCredentials(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      user: { type: 'string' },
      group: { type: 'string', multiple: true },
      token: { type: 'boolean' },
      'data-dir': { type: 'string' },
      server: { type: 'string' },
      out: { type: 'string' },
      policy: { type: 'string' },
      namespace: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help || !values.user) {
    out(ISSUE_CREDENTIALS_USAGE);
    return values.help ? 0 : 2;
  }
  const policy = values.policy;
  if (policy !== undefined && !isPolicyPreset(policy)) {
    out(`error: --policy must be one of ${POLICY_PRESETS.join(', ')}, not "${policy}"`);
    return 2;
  }
  if (values.namespace !== undefined && policy === undefined) {
    out('error: --namespace needs --policy readonly or --policy status-writer');
    return 2;
  }
  const dataDir = values['data-dir'] ?? DEFAULT_DATA_DIR;
  const issued = await issueCredentials({
    user: values.user,
    groups: values.group ?? [],
    dataDir,
    server: values.server ?? serverFromAdminKubeconfig(dataDir) ?? DEFAULT_SERVER_URL,
    out: values.out,
    method: values.token ? 'token' : 'certificate',
    policy,
    namespace: values.namespace,
    now: () => new Date(),
  });
  for (const warning of issued.warnings) out(`warning: ${warning}`);
  out(`wrote ${issued.kubeconfigPath} for user "${issued.user}"${issued.groups.length ? ` in groups ${issued.groups.join(', ')}` : ''} (${issued.method})`);
  if (issued.policyLines) out(`appended ${issued.policyLines.length} policy line(s) for "${issued.user}" (${policy}${values.namespace ? ` in namespace ${values.namespace}` : ''})`);
  return 0;
}
