// The data directory's policy.jsonl: read once at startup (like tokens.csv, editing it needs a
// restart), created with the admin's line by the bootstrap, appended to by issue-credentials.
import { appendFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from '../tls/atomic-file-writer';
import { emptyPolicy, formatPolicyLine, parsePolicy, type AbacPolicy, type PolicySpec } from './abac-policy';
import { adminPolicy, selfReviewPolicy } from './policy-presets';

export const POLICY_FILE_NAME = 'policy.jsonl';
const POLICY_MODE = 0o600;

export function policyFilePath(dataDir: string): string {
  return join(dataDir, POLICY_FILE_NAME);
}

/** The file's policy, or an empty one (only system:masters and public paths) when it is absent. */
export async function loadPolicyFile(path: string): Promise<AbacPolicy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyPolicy(path);
    throw error;
  }
  return parsePolicy(text, path);
}

/** What the bootstrap writes: a reminder of the format and the admin's line. */
export function defaultPolicyFileText(adminUser: string): string {
  return (
    [
      "# svctrail authorization policy, in kube-apiserver's ABAC format: one JSON policy per line.",
      '# system:masters members are always allowed; every authenticated user may GET /api, /apis,',
      '# /openapi and /version, and anyone may GET /healthz, /livez, /readyz and /version.',
      '# Read at startup: restart svctrail after editing. `svctrail issue-credentials --policy` appends.',
      ...adminPolicy(adminUser).map((spec) => formatPolicyLine(spec).trimEnd()),
      '# Every authenticated user may ask `kubectl auth can-i` and `kubectl auth whoami`.',
      ...selfReviewPolicy().map((spec) => formatPolicyLine(spec).trimEnd()),
    ].join('\n') + '\n'
  );
}

/**
 * Appends the self-review lines unless the file already has them (files written before svctrail
 * served the reviews lack them); true when it appended.
 */
export async function ensureSelfReviewLines(path: string): Promise<boolean> {
  const existing = (await exists(path)) ? await readFile(path, 'utf8') : '';
  const lines = new Set(existing.split('\n').map((line) => line.trim()));
  const missing = selfReviewPolicy().filter((spec) => !lines.has(formatPolicyLine(spec).trimEnd()));
  if (missing.length === 0) return false;
  await appendPolicyLines(path, missing);
  return true;
}

/** Writes the default file unless one exists; true when it wrote it. */
export async function ensurePolicyFile(path: string, adminUser: string): Promise<boolean> {
  if (await exists(path)) return false;
  await writeFileAtomically(path, defaultPolicyFileText(adminUser), POLICY_MODE);
  return true;
}

/** Appends lines (creating the file when absent), starting on a fresh line. */
export async function appendPolicyLines(path: string, specs: readonly PolicySpec[]): Promise<void> {
  const text = specs.map(formatPolicyLine).join('');
  // Validate before writing, so a bad spec never lands in the file.
  parsePolicy(text, path);
  let prefix = '';
  if (await exists(path)) {
    const existing = await readFile(path, 'utf8');
    if (existing !== '' && !existing.endsWith('\n')) prefix = '\n';
  }
  await appendFile(path, prefix + text, { mode: POLICY_MODE });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
}
