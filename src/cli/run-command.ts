// The operator's commands by name, and what each outcome exits with: 0 success, 1 failure or
// refusal (and verify differences), 2 bad usage. src/cli.ts runs them as `svctrail <command>`;
// tests that compare answers rather than processes call runCommand directly.
import { BadRequestError } from '../domain/errors/domain-errors';
import { COMPACT_USAGE, runCompact } from './compact.command';
import { CONDITIONS_USAGE, runConditions } from './conditions.command';
import { GET_USAGE, runGet } from './get.command';
import { HISTORY_USAGE, runHistory } from './history.command';
import { runWhoHad, WHO_HAD_USAGE } from './who-had.command';
import { OWNERS_USAGE, runOwners } from './owners.command';
import 'reflect-metadata';
import { EXPORT_USAGE, runExport } from './export.command';
import { IMPORT_USAGE, runImport } from './import.command';
import { INTEGRITY_CHECK_USAGE, runIntegrityCheck } from './integrity-check.command';
import { ISSUE_CREDENTIALS_USAGE, runIssueCredentials } from './issue-credentials.command';
import { REPLAY_USAGE, runReplay } from './replay.command';
import { UsageError } from './usage-error';
import { VERIFY_USAGE, runVerify } from './verify.command';
import { InvalidArgumentError, MaintenanceError } from '../maintenance/maintenance-error';
import { DataDirectoryLockedError } from '../store/data-directory-lock';
import { DamagedDatabaseError } from '../store/database';

type Command = (argv: string[], out: (line: string) => void, err: (line: string) => void) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  'issue-credentials': runIssueCredentials,
  replay: runReplay,
  verify: runVerify,
  compact: runCompact,
  'integrity-check': runIntegrityCheck,
  export: runExport,
  import: runImport,
  get: runGet,
  history: runHistory,
  'who-had': runWhoHad,
  conditions: runConditions,
  owners: runOwners,
};

const USAGE = `usage: svctrail <command> [flags]

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

Run svctrail <command> --help for a command's flags.

${ISSUE_CREDENTIALS_USAGE}

${REPLAY_USAGE}

${VERIFY_USAGE}

${COMPACT_USAGE}

${INTEGRITY_CHECK_USAGE}

${EXPORT_USAGE}

${IMPORT_USAGE}

${GET_USAGE}

${HISTORY_USAGE}

${WHO_HAD_USAGE}

${CONDITIONS_USAGE}

${OWNERS_USAGE}`;

const isUsageError = (error: unknown) => error instanceof UsageError || error instanceof InvalidArgumentError || String((error as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS');

/**
 * Runs `svctrail <argv>`, writing its output and errors line by line; resolves with the exit code.
 * An error no command expected still rejects (the process prints it and exits 1).
 */
export async function runCommand(argv: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const [command, ...rest] = argv;
  const run = command ? COMMANDS[command] : undefined;
  if (!run) {
    err(USAGE);
    return command && command !== 'help' && command !== '--help' ? 2 : 0;
  }
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
