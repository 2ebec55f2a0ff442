// kube-apiserver's --token-auth-file: CSV records `token,user,uid[,"group1,group2"]`.
// Parsing mirrors k8s.io/apiserver pkg/authentication/token/tokenfile NewCSV: fewer than three
// columns is fatal, an empty token is skipped with a warning, a duplicate token replaces the
// earlier record with a warning, columns after the fourth are ignored, and the groups column is
// split on "," as strings.Split does (so an empty fourth column yields one empty group name).
import { randomBytes } from 'node:crypto';
import { appendFile, readFile, stat } from 'node:fs/promises';
import { formatCsvField, parseCsvRecords } from './csv-records';

export interface TokenRecord {
  token: string;
  user: string;
  uid: string;
  groups: string[];
}

export interface ParsedTokenFile {
  records: TokenRecord[];
  warnings: string[];
}

export class TokenFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenFileError';
  }
}

/** `source` names the file in messages, as kube-apiserver names the path. */
export function parseTokenFile(text: string, source: string): ParsedTokenFile {
  const records: TokenRecord[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, number>();
  let recordNumber = 0;
  for (const { fields } of parseCsvRecords(text)) {
    if (fields.length < 3) {
      throw new TokenFileError(`token file '${source}' must have at least 3 columns (token, user name, user uid), found ${fields.length}`);
    }
    recordNumber++;
    const [token, user, uid, groups] = fields as [string, string, string, string | undefined];
    if (token === '') {
      warnings.push(`empty token has been found in token file '${source}', record number '${recordNumber}'`);
      continue;
    }
    const record: TokenRecord = { token, user, uid, groups: groups === undefined ? [] : groups.split(',') };
    const previous = seen.get(token);
    if (previous !== undefined) {
      warnings.push(`duplicate token has been found in token file '${source}', record number '${recordNumber}'`);
      records[previous] = record;
    } else {
      seen.set(token, records.length);
      records.push(record);
    }
  }
  return { records, warnings };
}

/** One line, newline included. The groups column is always quoted, as the upstream docs show it. */
export function formatTokenRecord(record: TokenRecord): string {
  for (const group of record.groups) {
    if (group.includes(',')) {
      throw new TokenFileError(`group "${group}" contains ",", which the token file cannot represent`);
    }
  }
  const columns = [formatCsvField(record.token), formatCsvField(record.user), formatCsvField(record.uid)];
  if (record.groups.length > 0) columns.push(formatCsvField(record.groups.join(','), true));
  return columns.join(',') + '\n';
}

export async function readTokenFile(path: string): Promise<ParsedTokenFile> {
  return parseTokenFile(await readFile(path, 'utf8'), path);
}

/** Appends with O_APPEND; creates the file (mode 0600, it holds secrets) when it does not exist. */
export async function appendTokenRecord(path: string, record: TokenRecord): Promise<void> {
  const line = formatTokenRecord(record);
  let prefix = '';
  const size = await stat(path).then(
    (stats) => stats.size,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return 0;
      throw error;
    },
  );
  if (size > 0) {
    const existing = await readFile(path, 'utf8');
    if (!existing.endsWith('\n')) prefix = '\n';
  }
  await appendFile(path, prefix + line, { mode: 0o600 });
}

/** 32 random bytes, base64url: 43 characters that need no quoting in CSV or HTTP headers. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}
