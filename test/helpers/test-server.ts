// Starts the real svctrail server (HTTPS on 127.0.0.1, a free port, a fresh data directory)
// inside the test process, and gives an admin client for it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/app-config';
import { createServer, type RunningServer, type ServerOptions } from '../../src/server/create-server';
import { parseTokenFile } from '../../src/auth/token-file';
import { HttpsClient } from './https-client';

export interface TestServer {
  server: RunningServer;
  dataDir: string;
  ca: string;
  adminToken: string;
  client: HttpsClient;
  stop(): Promise<void>;
}

export async function startTestServer(options: ServerOptions & { config?: Record<string, unknown>; dataDir?: string } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svctrail-e2e-'));
  const config = validateConfig({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', ...(options.config ?? {}) });
  const server = await createServer(config, options);
  const ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
  const tokens = parseTokenFile(readFileSync(join(dataDir, 'tokens.csv'), 'utf8'), 'tokens.csv');
  const adminToken = tokens.records[0].token;
  // Keep-alive: the server is in this process and its stop() closes the connections.
  const client = new HttpsClient(server.url, { ca, token: adminToken }, { keepAlive: true });
  return {
    server,
    dataDir,
    ca,
    adminToken,
    client,
    stop: async () => {
      await server.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
