// The operator's commands by name, and what each outcome exits with: 0 success, 1 failure or
// refusal (and verify differences), 2 bad usage. src/cli.ts runs them as `svctrail <command>`;
// tests that compare answers rather than processes call runCommand directly.
import 'reflect-metadata';
import { BadRequestError } from '../domain/errors/domain-errors';
import { UsageError } from './usage-error';
import { InvalidArgumentError, MaintenanceError } from '../maintenance/maintenance-error';
import { DataDirectoryLockedError } from '../store/data-directory-lock';
import { DamagedDatabaseError } from '../store/database';

/** A command: what it runs, and its usage text. */
interface Command {
  run(argv: string[], out: (line: string) => void, err: (line: string) => void): Promise<number>;
  usage: string;
}

/**
 * Each command's module, loaded only when it runs: loading all of them cost every `svctrail`
 * process about 0.45 s of CPU more than the one command it ran needs. The whole help loads all.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  'issue-credentials': () => import('./issue-credentials.command.js').then((m) => ({ run: m.runIssueCredentials, usage: m.ISSUE_CREDENTIALS_USAGE })),
  replay: () => import('./replay.command.js').then((m) => ({ run: m.runReplay, usage: m.REPLAY_USAGE })),
  verify: () => import('./verify.command.js').then((m) => ({ run: m.runVerify, usage: m.VERIFY_USAGE })),
  compact: () => import('./compact.command.js').then((m) => ({ run: m.runCompact, usage: m.COMPACT_USAGE })),
  'integrity-check': () => import('./integrity-check.command.js').then((m) => ({ run: m.runIntegrityCheck, usage: m.INTEGRITY_CHECK_USAGE })),
  export: () => import('./export.command.js').then((m) => ({ run: m.runExport, usage: m.EXPORT_USAGE })),
  import: () => import('./import.command.js').then((m) => ({ run: m.runImport, usage: m.IMPORT_USAGE })),
  get: () => import('./get.command.js').then((m) => ({ run: m.runGet, usage: m.GET_USAGE })),
  history: () => import('./history.command.js').then((m) => ({ run: m.runHistory, usage: m.HISTORY_USAGE })),
  'who-had': () => import('./who-had.command.js').then((m) => ({ run: m.runWhoHad, usage: m.WHO_HAD_USAGE })),
  conditions: () => import('./conditions.command.js').then((m) => ({ run: m.runConditions, usage: m.CONDITIONS_USAGE })),
  owners: () => import('./owners.command.js').then((m) => ({ run: m.runOwners, usage: m.OWNERS_USAGE })),
};

const SUMMARY = `usage: svctrail <command> [flags]

commands:
  issue-credentials   issue a client certificate or token and a kubeconfig for a user
  replay              rebuild every projection from the event log and swap it in;
                      --until: the whole store at a point in time, as a new data directory
  verify              refold the log and compare every projection row with the live one
  compact             remove the full objects below a horizon, keep the facts (retention)
  integrity-check     SQLite's full integrity check of the database file (read-only)
  export              write the events (all, or a window) as NDJSON, from SQLite or PostgreSQL
  import              create a store in an empty data directory or PostgreSQL database from exported NDJSON
  get                 a Service as the API returned it at a time or resourceVersion
  history             the change log of a Service: every write, who made it, what changed
  who-had             which Services held a load-balancer IP or hostname, when, set by whom
  conditions          the condition audit log and per-condition summaries of a Service
  owners              which field managers owned which fields of a Service, over time

Every command but issue-credentials and integrity-check works on SQLite in --data-dir or on
PostgreSQL with --storage postgres://… (or SVCTRAIL_STORAGE); the read commands (get, history,
who-had, conditions, owners) print the same answer from either, and never write to the store.

Run svctrail <command> --help for a command's flags.`;

const isUsageError = (error: unknown) => error instanceof UsageError || error instanceof InvalidArgumentError || String((error as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS');

/**
 * Runs `svctrail <argv>`, writing its output and errors line by line; resolves with the exit code.
 * An error no command expected still rejects (the process prints it and exits 1).
 */
export async function runCommand(argv: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const [command, ...rest] = argv;
  const load = command ? COMMANDS[command] : undefined;
  if (!load) {
    const commands = await Promise.all(Object.values(COMMANDS).map((loadCommand) => loadCommand()));
    err([SUMMARY, ...commands.map((c) => c.usage)].join('\n\n'));
    return command && command !== 'help' && command !== '--help' ? 2 : 0;
  }
  const { run } = await load();
  try {
    return await run(rest, out, err);
  } catch (error) {
    if (isUsageError(error)) {
      err(`svctrail ${command}: ${(error as Error).message}\n(run svctrail ${command} --help for usage)`);
      return 2;
    }
    if (error instanceof BadRequestError) {
      err(`svctrail ${command}: ${error.message}`);
      return 2;
    }
    if (error instanceof MaintenanceError || error instanceof DamagedDatabaseError || error instanceof DataDirectoryLockedError) {
      err(`svctrail ${command}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
