// Argument parsing shared by the query commands: their own flags plus --data-dir, --storage, -o
// and --help. The store is chosen as the maintenance commands choose it (storage-option.ts).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { type CommandStore, commandStore } from './storage-option';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedCommand {
  values: Record<string, string | boolean | undefined> & { output?: string };
  positionals: string[];
  /** The store to read: --storage / SVCTRAIL_STORAGE, else SQLite in --data-dir (default ./data). */
  store: CommandStore;
}

/** Parses argv; prints the usage and returns undefined for --help. */
export function parseCommand(argv: string[], options: Options, usage: string, out: (line: string) => void, defaultOutput?: string): ParsedCommand | undefined {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      ...options,
      'data-dir': { type: 'string' },
      storage: { type: 'string' },
      output: { type: 'string', short: 'o', ...(defaultOutput ? { default: defaultOutput } : {}) },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    out(usage);
    return undefined;
  }
  const store = commandStore({ storage: values.storage, dataDir: values['data-dir'] }, process.env.SVCTRAIL_STORAGE);
  return { values, positionals, store };
}
