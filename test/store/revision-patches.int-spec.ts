// Each write's JSON patch is computed once, when its revision row is written, and the change log
// serves it as stored. Property: for random sequences of writes (spec and label edits, ingress and
// condition changes, deletes and re-creates), every change item built from the stored patch is
// byte for byte the one built by diffing the two parsed revisions, as the change log did on
// every read before (PATCHes and applies included: a live write diffs the object it loaded, so
// a patch engine that changed that object in place would show here); and the start-up backfill (rows from before migration 0007) and a rebuild
// from the log store exactly the same patches.
import { repeatedText } from '../../src/store/sql/event-columns';
import { SERVICE_READ_STORE } from '../../src/store/ports/service-read-store';
import type { ServiceReadStore } from '../../src/store/ports/service-read-store';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PatchServiceHandler } from '../../src/commands/patch-service.handler';
import { type PatchRequest, PatchServiceCommand } from '../../src/commands/service.commands';
import type { WriteRequestContext } from '../../src/commands/write-result';
import { applyServiceDefaults } from '../../src/domain/service-defaults';
import type { Service } from '../../src/domain/service.types';
import { serviceChange, serviceChangeJson } from '../../src/history/history-items';
import { jsonPatchBetween } from '../../src/domain/json-patch-diff';
import { rebuildProjections } from '../../src/projections/projection-rebuild';
import { Projector } from '../../src/projections/projector';
import { ChangeHistoryRepository } from '../../src/store/change-history-repository';
import { isStoredEventWrite } from '../../src/store/ports/change-history';
import { type DatabaseHandle, openDatabase } from '../../src/store/database';
import { backfillRevisionPatches } from '../../src/store/revision-patch-backfill';
import { ServiceRepository } from '../../src/store/service-repository';
import { DATABASE } from '../../src/store/ports/store.tokens';
import { type AppContext, createAppContext } from '../helpers/app-context';
import { handlersOf } from '../helpers/service-handlers';
import { SqliteSqlReader } from '../../src/store/sqlite-sql-reader';
import { decodeStoredText } from '../../src/store/stored-text-codec';

const as = (user: string): WriteRequestContext => ({ user, groups: ['system:authenticated'], userAgent: `${user}/1`, fieldManager: user, requestId: `${user}-req`, dryRun: false });
const NAMES = ['a', 'b', 'c'];

type Op =
  | { kind: 'create' | 'delete'; name: string }
  | { kind: 'label'; name: string; key: string; value: string | null }
  | { kind: 'port'; name: string; port: number }
  | { kind: 'ingress'; name: string; ips: string[] }
  | { kind: 'condition'; name: string; type: string; status: 'True' | 'False' | null }
  | { kind: 'patch'; name: string; type: 'json' | 'merge' | 'strategic' | 'apply'; value: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('create' as const, 'delete' as const), name: fc.constantFrom(...NAMES) }),
  fc.record({ kind: fc.constant('label' as const), name: fc.constantFrom(...NAMES), key: fc.constantFrom('tier', 'app.io/x-y', 'release'), value: fc.constantFrom('a', 'b-1', 'z.9', '', null) }),
  fc.record({ kind: fc.constant('port' as const), name: fc.constantFrom(...NAMES), port: fc.integer({ min: 1, max: 65535 }) }),
  fc.record({ kind: fc.constant('ingress' as const), name: fc.constantFrom(...NAMES), ips: fc.uniqueArray(fc.constantFrom('203.0.113.1', '203.0.113.2', '198.51.100.9'), { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('condition' as const), name: fc.constantFrom(...NAMES), type: fc.constantFrom('Ready', 'DNSReady'), status: fc.constantFrom('True' as const, 'False' as const, null) }),
  fc.record({
    kind: fc.constant('patch' as const),
    name: fc.constantFrom(...NAMES),
    type: fc.constantFrom('json' as const, 'merge' as const, 'strategic' as const, 'apply' as const),
    value: fc.constantFrom('x', 'y-2', 'z'),
  }),
);

/** A PATCH body of `type` that sets a label (and, strategic, the session affinity; json, an annotation). */
function patchBody(o: Extract<Op, { kind: 'patch' }>): PatchRequest {
  switch (o.type) {
    case 'json':
      return { type: 'json', fieldValidation: 'Strict', body: JSON.stringify([{ op: 'add', path: '/metadata/annotations', value: { note: o.value } }]) };
    case 'merge':
      return { type: 'merge', fieldValidation: 'Strict', body: JSON.stringify({ metadata: { labels: { patched: o.value } } }) };
    case 'strategic':
      return { type: 'strategic', fieldValidation: 'Strict', body: JSON.stringify({ metadata: { labels: { patched: o.value } }, spec: { sessionAffinity: o.value === 'x' ? 'ClientIP' : 'None' } }) };
    case 'apply':
      return { type: 'apply', fieldValidation: 'Strict', force: true, body: JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: o.name, labels: { applied: o.value } } }) };
  }
}

describe('stored revision patches', () => {
  let ctx: AppContext;
  let handle: DatabaseHandle;
  let changes: ChangeHistoryRepository;
  let writes: number[];

  const patches = () => handle.sqlite.prepare('SELECT uid, resource_version AS rv, patch FROM service_revisions ORDER BY uid, resource_version').all();

  beforeAll(async () => {
    ctx = await createAppContext();
    handle = ctx.app.get<DatabaseHandle>(DATABASE);
    changes = new ChangeHistoryRepository(new SqliteSqlReader(handle));
    const handlers = handlersOf(ctx.app);
    const repository = ctx.app.get(ServiceRepository);
    const patcher = ctx.app.get(PatchServiceHandler);
    const ops = fc.sample(fc.array(op, { minLength: 150, maxLength: 150 }), { seed: 11, numRuns: 1 })[0];
    for (const o of ops) {
      ctx.clock.advance(1000);
      const live = repository.loadLive('default', o.name).object;
      const lb = (name: string): Service =>
        applyServiceDefaults({ metadata: { name, labels: { app: name } }, spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port: 80 }] }, status: { loadBalancer: {} } });
      if (o.kind === 'patch' && live) {
        await patcher.execute(new PatchServiceCommand('default', o.name, '', patchBody(o), { ...as('patcher'), fieldManager: `patcher-${o.type}` }));
      } else if (o.kind === 'create' || !live) {
        if (!live) await handlers.execute({ kind: 'CreateService', namespace: 'default', object: lb(o.name) }, as('creator'));
      } else if (o.kind === 'delete') {
        await handlers.execute({ kind: 'DeleteService', namespace: 'default', name: o.name }, as('operator'));
      } else if (o.kind === 'label' || o.kind === 'port') {
        const next = structuredClone(live);
        if (o.kind === 'port') next.spec.ports = [{ ...next.spec.ports![0], port: o.port }];
        else if (o.value === null) delete next.metadata.labels?.[o.key];
        else next.metadata.labels = { ...next.metadata.labels, [o.key]: o.value };
        await handlers.execute({ kind: 'ReplaceService', namespace: 'default', name: o.name, object: next }, as('editor'));
      } else {
        const next = structuredClone(live);
        if (o.kind === 'ingress') next.status.loadBalancer = o.ips.length ? { ingress: o.ips.map((ip) => ({ ip, ipMode: 'VIP' as const })) } : {};
        else if (o.kind === 'condition') {
          const others = (next.status.conditions ?? []).filter((c) => c.type !== o.type);
          const added = o.status ? [{ type: o.type, status: o.status, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'R', message: `${o.type} ${o.status}` }] : [];
          next.status.conditions = [...others, ...added];
          if (!next.status.conditions.length) delete next.status.conditions;
        }
        await handlers.execute({ kind: 'ReplaceServiceStatus', namespace: 'default', name: o.name, object: next }, as('controller'));
      }
    }
    writes = [...new Set(handle.sqlite.prepare('SELECT resource_version FROM events ORDER BY position').pluck().all() as number[])];
  });
  afterAll(async () => ctx.close());

  it('serves, for every write, the item the two parsed revisions give, byte for byte', async () => {
    expect(writes.length).toBeGreaterThan(100);
    const kinds = new Set<string>();
    for (const rv of writes) {
      const recorded = await changes.write(rv);
      const stored = await changes.storedWrite(rv);
      for (const e of recorded.events) kinds.add(e.event.type);
      expect(stored.patchJson).toBe(JSON.stringify(jsonPatchBetween(recorded.previous, recorded.object)));
      expect(serviceChangeJson(stored)).toBe(JSON.stringify(serviceChange(recorded)));
    }
    // The random history exercised every kind of write.
    expect([...kinds]).toEqual(
      expect.arrayContaining([
        'ServiceCreated',
        'ServiceDeleted',
        'LoadBalancerIngressChanged',
        'ServiceConditionsReplaced',
        'ServiceSpecChanged',
        'ServiceMetadataChanged',
        'ServiceManagedFieldsChanged',
      ]),
    );
    const verbs = handle.sqlite
      .prepare(`SELECT DISTINCT ${repeatedText('field_manager')} FROM events`)
      .pluck()
      .all();
    expect(verbs).toEqual(expect.arrayContaining(['patcher-json', 'patcher-merge', 'patcher-strategic', 'patcher-apply']));
  });

  it('reads the feed as the same writes, a batch of the log at a time', async () => {
    const head = writes[writes.length - 1];
    const each = [];
    for (const rv of writes) each.push(serviceChangeJson(await changes.storedWrite(rv)));
    // Only Services are written here: an Event's write would show as its kind and fail the comparison.
    expect((await changes.storedWritesAfter(0, head, 10_000)).map((write) => (isStoredEventWrite(write) ? write.kind : serviceChangeJson(write)))).toEqual(each);
    // From inside the log, a page at a time, up to a bound.
    const until = writes[writes.length - 10];
    const paged = [];
    for (let after = writes[3]; ;) {
      const page = await changes.storedWritesAfter(after, until, 7);
      paged.push(...page.map((w) => w.resourceVersion));
      if (page.length < 7) break;
      after = page[page.length - 1].resourceVersion;
    }
    expect(paged).toEqual(writes.filter((rv) => rv > writes[3] && rv <= until));
  });

  it('reads a range as whole writes in one pass: the same writes, pages and items as write-by-write', async () => {
    const head = writes[writes.length - 1];
    const each = new Map<number, string>();
    for (const rv of writes) each.set(rv, serviceChangeJson(await changes.storedWrite(rv)));
    const scopes = [{}, { namespace: 'default' }, { namespace: 'default', name: 'a' }, { actor: 'controller' }, { fieldManager: 'editor' }, { namespace: 'other' }];
    for (const scope of scopes) {
      for (const pageSize of [1, 3, 50]) {
        const oneByOne: string[] = [];
        const onePass: string[] = [];
        for (let fromRv = 1; fromRv <= head;) {
          const range = { ...scope, fromRv, toRv: head, fromPosition: await ctx.app.get<ServiceReadStore>(SERVICE_READ_STORE).writeStartAtOrAfter(fromRv) };
          const rvs = await changes.matchingWrites(range, pageSize);
          const stored = await changes.matchingStoredWrites(range, pageSize);
          expect(stored.map((w) => w.resourceVersion)).toEqual(rvs);
          oneByOne.push(...rvs.map((rv) => each.get(rv)!));
          onePass.push(...stored.map((write) => serviceChangeJson(write)));
          if (rvs.length < pageSize) break;
          fromRv = rvs[rvs.length - 1] + 1;
        }
        expect(onePass).toEqual(oneByOne);
      }
    }
    // An event-type filter matches single events of a write: it has no one-pass reading.
    await expect(changes.matchingStoredWrites({ eventType: 'ServiceCreated', fromRv: 1, toRv: head, fromPosition: 1 }, 5)).rejects.toThrow(/whole/);
  });

  it('stores the patch in the revision row (a delete has none: it writes no revision)', () => {
    const rows = patches() as { patch: Buffer | null }[];
    expect(rows.length).toBeGreaterThan(50);
    // Stored encoded (src/store/stored-text-codec.ts), each a JSON patch.
    expect(rows.every((r) => Buffer.isBuffer(r.patch) && Array.isArray(JSON.parse(decodeStoredText(r.patch))))).toBe(true);
  });

  it('fills rows written before migration 0007 at start-up, with the same patches', async () => {
    const before = patches();
    handle.sqlite.exec('UPDATE service_revisions SET patch = NULL');
    // Until then the change log computes them, as it always did.
    for (const rv of writes) expect(serviceChangeJson(await changes.storedWrite(rv))).toBe(JSON.stringify(serviceChange(await changes.write(rv))));
    expect(backfillRevisionPatches(handle.sqlite)).toBe(before.length);
    expect(patches()).toEqual(before);
    expect(backfillRevisionPatches(handle.sqlite)).toBe(0);
  });

  it('fills them when a server opens a store last written before migration 0007', async () => {
    const before = patches();
    const dir = mkdtempSync(join(tmpdir(), 'svctrail-patches-'));
    try {
      const path = join(dir, 'old.db');
      await handle.sqlite.backup(path);
      // As a store migrated to 0007 but never opened since: every patch missing.
      const old = new Database(path);
      old.exec('UPDATE service_revisions SET patch = NULL');
      old.close();
      const reopened = openDatabase({ path, migrationsFolder: join(__dirname, '../../migrations'), synchronous: 'NORMAL' });
      try {
        expect(reopened.sqlite.prepare('SELECT uid, resource_version AS rv, patch FROM service_revisions ORDER BY uid, resource_version').all()).toEqual(before);
      } finally {
        reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rebuilds the same patches, and every other projection row, from the log', () => {
    const projector = ctx.app.get(Projector);
    // Every row, ids included: the bulk fold numbers ingress intervals as the live path did.
    const snapshot = () => Object.fromEntries(projector.tables.map((t) => [t, handle.sqlite.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));
    const before: Record<string, unknown[]> = { ...snapshot(), patches: patches() };
    const intervals = before.ingress_intervals as { to_resource_version: number | null }[];
    // The random history left intervals both closed and open.
    expect(intervals.some((r) => r.to_resource_version === null) && intervals.some((r) => r.to_resource_version !== null)).toBe(true);
    rebuildProjections(handle, projector);
    expect({ ...snapshot(), patches: patches() }).toEqual(before);
  });
});
