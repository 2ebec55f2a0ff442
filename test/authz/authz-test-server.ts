// A test server whose data directory is prepared before start: extra bearer-token users in
// tokens.csv and their lines in policy.jsonl (the server loads both at startup).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendTokenRecord, generateToken } from '../../src/auth/token-file';
import type { PolicySpec } from '../../src/authz/abac-policy';
import { appendPolicyLines, ensurePolicyFile, policyFilePath } from '../../src/authz/policy-file';
import { ADMIN_USER, ensureDataDir } from '../../src/tls/data-dir';
import { type HttpsClient } from '../helpers/https-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

export interface TestUser {
  name: string;
  groups?: string[];
  policy?: PolicySpec[];
}

export interface AuthzTestServer extends TestServer {
  /** A client per user, by name (bearer tokens), plus `anonymous` sending no credentials. */
  as(name: string): HttpsClient;
  /** A user's bearer token. */
  tokenOf(name: string): string;
}

export async function startAuthzTestServer(users: readonly TestUser[], prepare?: (dataDir: string) => Promise<void>): Promise<AuthzTestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svctrail-authz-'));
  await ensureDataDir({ dataDir, now: () => new Date() });
  const policyPath = policyFilePath(dataDir);
  await ensurePolicyFile(policyPath, ADMIN_USER);
  const tokens = new Map<string, string>();
  for (const user of users) {
    const token = generateToken();
    tokens.set(user.name, token);
    await appendTokenRecord(join(dataDir, 'tokens.csv'), { token, user: user.name, uid: `uid-${user.name}`, groups: user.groups ?? [] });
    if (user.policy?.length) await appendPolicyLines(policyPath, user.policy);
  }
  const tokenOf = (name: string): string => {
    const token = tokens.get(name);
    if (!token) throw new Error(`no test user ${name}`);
    return token;
  };
  await prepare?.(dataDir);
  const t = await startTestServer({ dataDir });
  return {
    ...t,
    as(name: string): HttpsClient {
      if (name === 'admin') return t.client;
      if (name === 'anonymous') return t.client.withToken(undefined);
      return t.client.withToken(tokenOf(name));
    },
    tokenOf,
    stop: async () => {
      await t.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
