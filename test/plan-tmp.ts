import { mkdtempSync } from 'node:fs'; import { tmpdir } from 'node:os'; import { join } from 'node:path';
import { openDatabase } from '../src/store/database';
import { IngressHistoryRepository } from '../src/store/ingress-history-repository';
const h = openDatabase({ path: join(mkdtempSync(join(tmpdir(), 'p-')), 'p.db'), migrationsFolder: '/work/main/migrations', synchronous: 'NORMAL' });
const P = { fromRv: 1, toRv: 100, limit: 10, namespace: 'ns', afterFrom: 1, afterId: 1 };
for (const sql of [IngressHistoryRepository.intervalsSql({ windowed: true, namespace: "x", after: { from: 1, id: 1 } }), ...process.argv.slice(2)])
  console.log(sql.slice(0, 80), '\n  ', (h.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(P) as any[]).map((r) => r.detail).join('\n   '));
