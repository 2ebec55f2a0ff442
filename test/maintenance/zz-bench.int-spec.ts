import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createAppContext } from '../helpers/app-context';
import { StoreWriter } from './store-fixture';

it('generates 100k events', async () => {
  const ctx = await createAppContext();
  const w = new StoreWriter(ctx);
  const names = Array.from({ length: 1000 }, (_, i) => `svc-${i}`);
  const t0 = Date.now();
  await Promise.all(names.map((n) => w.create(n)));
  for (let round = 0; round < 49; round++) {
    ctx.clock.advance(1000);
    await Promise.all(names.map((n, i) => w.status(n, [`10.${round % 200}.${Math.floor(i / 250)}.${i % 250}`], [{ type: 'Ready', status: round % 2 ? 'True' : 'False', reason: 'R', message: 'm', lastTransitionTime: '2026-01-01T00:00:00Z' }])));
  }
  const db = new Database(join(ctx.dataDir, 'svctrail.db'));
  console.log('events', db.prepare('select count(*) from events').pluck().get(), 'in', Date.now() - t0, 'ms');
  rmSync('/tmp/svctrail-bench', { recursive: true, force: true });
  mkdirSync('/tmp/svctrail-bench');
  db.exec(`VACUUM INTO '/tmp/svctrail-bench/svctrail.db'`);
  db.close();
  await ctx.close();
}, 600000);
