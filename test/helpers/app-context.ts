// The application without HTTP: real Nest wiring, a real SQLite file with the real migrations,
// a fixed clock and deterministic ids. For integration tests of the write and read paths.
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
import { validateConfig } from '../../src/config/app-config';
import { FixedClock } from '../../src/shared/clock';
import type { IdFactory } from '../../src/shared/ids';
import { seededRandom } from './decider-harness';

export interface AppContext {
  app: INestApplicationContext;
  dataDir: string;
  clock: FixedClock;
  close(): Promise<void>;
}

export function deterministicIds(seed = 1): IdFactory {
  let uid = 0;
  let request = 0;
  const random = seededRandom(seed);
  return {
    newUid: () => `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`,
    newRequestId: () => `request-${++request}`,
    random,
  };
}

export async function createAppContext(seed = 1): Promise<AppContext> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svctrail-int-'));
  const config = validateConfig({ port: 0, dataDir, logLevel: 'silent' });
  const clock = new FixedClock(new Date('2026-01-02T03:04:05.000Z'));
  const app = await NestFactory.createApplicationContext(AppModule.register(config, clock, deterministicIds(seed)), { logger: false });
  await app.init();
  return {
    app,
    dataDir,
    clock,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
