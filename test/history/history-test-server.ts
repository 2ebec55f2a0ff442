// A test server for the history API: a hand-moved clock (so windows and flapping are exact),
// extra bearer-token users with admin policy, and helpers that write through the real HTTP API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendTokenRecord, generateToken } from '../../src/auth/token-file';
import { adminPolicy } from '../../src/authz/policy-presets';
import { appendPolicyLines, ensurePolicyFile, policyFilePath } from '../../src/authz/policy-file';
import { FixedClock } from '../../src/shared/clock';
import { ADMIN_USER, ensureDataDir } from '../../src/tls/data-dir';
import type { HttpsClient } from '../helpers/https-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

export const START = Date.parse('2026-03-01T00:00:00.000Z');

export interface HistoryTestServer extends TestServer {
  clock: FixedClock;
  as(user: string): HttpsClient;
}

/** `start`: the engine's server starter (describeEachBackend's `backend.start`); SQLite unless given. */
export async function startHistoryTestServer(
  users: { name: string; groups?: string[] }[],
  start: (options: Parameters<typeof startTestServer>[0]) => Promise<TestServer> = startTestServer,
): Promise<HistoryTestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svctrail-history-'));
  const clock = new FixedClock(new Date(START));
  await ensureDataDir({ dataDir, now: () => clock.now() });
  await ensurePolicyFile(policyFilePath(dataDir), ADMIN_USER);
  const tokens = new Map<string, string>();
  for (const user of users) {
    const token = generateToken();
    tokens.set(user.name, token);
    await appendTokenRecord(join(dataDir, 'tokens.csv'), { token, user: user.name, uid: `uid-${user.name}`, groups: user.groups ?? [] });
    await appendPolicyLines(policyFilePath(dataDir), adminPolicy(user.name));
  }
  const t = await start({ dataDir, clock });
  return {
    ...t,
    clock,
    as: (user) => (user === 'admin' ? t.client : t.client.withToken(tokens.get(user))),
    stop: async () => {
      await t.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** PUT services/{name}/status with the current object and a new status, as a controller does. */
export async function putStatus(client: HttpsClient, namespace: string, name: string, status: object, userAgent: string) {
  const path = `/api/v1/namespaces/${namespace}/services/${name}`;
  const current = await client.get(path);
  const res = await client.put(`${path}/status`, { ...current.json, status }, { headers: { 'user-agent': userAgent } });
  if (res.status !== 200) throw new Error(`status PUT failed: ${res.status} ${res.text}`);
  return res.json;
}

export const ready = (status: 'True' | 'False', reason: string, at: number) => ({
  type: 'Ready',
  status,
  reason,
  message: `ready is ${status}`,
  lastTransitionTime: new Date(at).toISOString().replace(/\.\d+Z$/, 'Z'),
});
