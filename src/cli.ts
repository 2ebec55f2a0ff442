// `svctrail <command>`: the operator's command line (npx svctrail …, npm run svctrail -- …).
// Exit codes: 0 success, 1 failure or refusal (and verify differences), 2 bad usage (run-command.ts).
import 'reflect-metadata';
import { runCommand } from './cli/run-command';

runCommand(
  process.argv.slice(2),
  (line) => process.stdout.write(`${line}\n`),
  (line) => process.stderr.write(`${line}\n`),
).then(
  // Exit once stdout has drained (a piped export), even if stdin is still open (import refused early).
  (code) => process.stdout.write('', () => process.exit(code)),
  (error: unknown) => {
    process.stderr.write(`svctrail: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
