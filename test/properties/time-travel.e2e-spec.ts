// Property: every answer the API gave during a random run of writes (creates, status changes,
// label edits, deletions and re-creations, conflicts, no-ops) is returned again, byte for byte,
// by a time-travel read at its resourceVersion or its time; LISTs too.
import fc from 'fast-check';
import { FixedClock } from '../../src/shared/clock';
import { describeEachBackend } from '../helpers/storage-backends';
import type { TestServer } from '../helpers/test-server';

type Step = { op: 'create' | 'delete'; name: string } | { op: 'status'; name: string; ip: number } | { op: 'label'; name: string; value: string; stale: boolean };

const NAMES = ['a', 'b'];
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constantFrom('create' as const, 'delete' as const), name: fc.constantFrom(...NAMES) }),
  fc.record({ op: fc.constant('status' as const), name: fc.constantFrom(...NAMES), ip: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ op: fc.constant('label' as const), name: fc.constantFrom(...NAMES), value: fc.constantFrom('x', 'y'), stale: fc.boolean() }),
);

describeEachBackend('time travel returns what the API answered then', (backend) => {
  let t: TestServer;
  const clock = new FixedClock(new Date('2026-03-01T00:00:00Z'));
  beforeAll(async () => {
    t = await backend.start({ clock });
  });
  afterAll(async () => t.stop());

  it('for random write sequences', async () => {
    let run = 0;
    const checked = { gets: 0, lists: 0, times: 0, misses: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 25 }), async (steps) => {
        const ns = `/api/v1/namespaces/tt${++run}/services`;
        const answers: { name: string; rv: string; text: string; at: string }[] = [];
        const lists: { rv: string; text: string; at: string }[] = [];
        const gone: { name: string; rv: string }[] = [];
        // Both names exist at the start, so most generated steps act on something.
        const opening: Step[] = NAMES.map((name) => ({ op: 'create', name }));
        for (const step of [...opening, ...steps]) {
          clock.advance(1000);
          const at = clock.now().toISOString();
          const current = await t.client.get(`${ns}/${step.name}`);
          let res;
          if (step.op === 'create') res = await t.client.post(ns, { metadata: { name: step.name }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
          else if (step.op === 'delete') res = await t.client.delete(`${ns}/${step.name}`);
          else if (current.status !== 200) continue;
          else if (step.op === 'status') res = await t.client.put(`${ns}/${step.name}/status`, { ...current.json, status: { loadBalancer: { ingress: [{ ip: `192.0.2.${step.ip}` }] } } });
          else if (step.op === 'label') {
            const meta = { ...current.json.metadata, labels: { v: step.value }, ...(step.stale ? { resourceVersion: '1' } : {}) };
            res = await t.client.put(`${ns}/${step.name}`, { ...current.json, metadata: meta });
          } else continue;
          if (step.op === 'delete' && res.status === 200) {
            const head = (await t.client.get(ns)).json.metadata.resourceVersion;
            gone.push({ name: step.name, rv: head });
          } else if (res.status === 200 || res.status === 201) {
            answers.push({ name: step.name, rv: res.json.metadata.resourceVersion, text: res.text, at });
          }
          const list = await t.client.get(ns);
          lists.push({ rv: list.json.metadata.resourceVersion, text: list.text, at });
        }
        for (const a of answers) {
          const byRv = await t.client.get(`${ns}/${a.name}?resourceVersion=${a.rv}&resourceVersionMatch=Exact`);
          expect(byRv.text).toBe(a.text);
          const status = await t.client.get(`${ns}/${a.name}/status?resourceVersion=${a.rv}&resourceVersionMatch=Exact`);
          expect(status.text).toBe(a.text);
          checked.gets++;
        }
        for (const l of lists) {
          const past = await t.client.get(`${ns}?resourceVersion=${l.rv}&resourceVersionMatch=Exact`);
          expect(past.text).toBe(l.text);
          const byTime = await t.client.get(`${ns}?asOf=${encodeURIComponent(l.at)}`);
          expect(byTime.json.items).toEqual(JSON.parse(l.text).items);
          checked.lists++;
          checked.times++;
        }
        for (const g of gone) {
          const missing = await t.client.get(`${ns}/${g.name}?resourceVersion=${g.rv}&resourceVersionMatch=Exact`);
          if (missing.status === 404) checked.misses++;
        }
      }),
      { numRuns: 12 },
    );
    expect(checked.gets).toBeGreaterThan(20);
    expect(checked.lists).toBeGreaterThan(20);
  }, 180000);

  it('bad input and the future', async () => {
    const ns = '/api/v1/namespaces/ttbad/services';
    await t.client.post(ns, { metadata: { name: 'x' }, spec: { ports: [{ port: 80 }] } });
    expect((await t.client.get(`${ns}/x?asOf=yesterday`)).status).toBe(400);
    expect((await t.client.get(`${ns}?asOf=2026-13-01T00:00:00Z`)).status).toBe(400);
    expect((await t.client.get(`${ns}/x?asOf=2026-01-01T00:00:00Z&resourceVersion=3`)).status).toBe(400);
    const tooNew = await t.client.get(`${ns}/x?resourceVersion=99999999&resourceVersionMatch=Exact`);
    expect(tooNew.status).toBe(504);
    expect(tooNew.json.message).toMatch(/^Too large resource version: 99999999, current: \d+$/);
    const before = await t.client.get(`${ns}/x?asOf=2000-01-01T00:00:00Z`);
    expect(before.status).toBe(404);
  });
});
