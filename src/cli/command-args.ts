// Argument parsing shared by the query commands: their own flags plus --data-dir, -o and --help.
import { parseArgs, ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedCommand {
  values: Record<string, string | boolean | undefined> & { 'data-dir': string; output?: string };
  positionals: string[];
}

/** Parses argv; prints the usage and returns undefined for --help. */
export function parseCommand(argv: string[], options: Options, usage: string, out: (line: string) => void, defaultOutput?: string): ParsedCommand | undefined {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      ...options,
      'data-dir': { type: 'string', default: './data' },
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
  return { values: values as ParsedCommand['values'], positionals };
}
