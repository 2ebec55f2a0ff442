// `svctrail <command>`: the operator's command line (npx svctrail …, npm run svctrail -- …).
import 'reflect-metadata';
import { ISSUE_CREDENTIALS_USAGE, runIssueCredentials } from './cli/issue-credentials.command';

const COMMANDS: Record<string, (argv: string[], out: (line: string) => void) => Promise<number>> = {
  'issue-credentials': runIssueCredentials,
};

const USAGE = `usage: svctrail <command> [flags]

commands:
  issue-credentials   issue a client certificate or token and a kubeconfig for a user

${ISSUE_CREDENTIALS_USAGE}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const run = command ? COMMANDS[command] : undefined;
  if (!run) {
    process.stderr.write(`${USAGE}\n`);
    return command && command !== 'help' && command !== '--help' ? 2 : 0;
  }
  return run(rest, (line) => process.stdout.write(`${line}\n`));
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`svctrail: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
