// The reflector's LIST reconciled page by page: what it records, in what order, and how much of
// the list it holds while doing so (a source of many pages of two items).
import { validateConfig } from '../config/app-config';
import type { Service } from '../domain/service.types';
import { MetricsService } from '../observability/metrics.service';
import type { MirrorSource, MirrorSourceStore } from '../store/ports/mirror-source-store';
import type { ServiceReads } from '../store/ports/service-read-store';
import { MirrorStatus } from './mirror-status';
import type { Observation } from './observation';
import { ReflectedServices } from './reflected-services';
import { Reflector, type SourceApi } from './reflector';

const PAGE_SIZE = 2;

const service = (name: string, rv: string) => ({
  metadata: { name, namespace: 'a', uid: `uid-${name}`, resourceVersion: rv, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { type: 'ClusterIP' },
  status: {},
});

/**
 * A source whose LIST at resourceVersion 100 has `names` in pages of two, whose watch from the
 * stored point 5 answers 410 Expired and whose other watches stay open. It counts the listed
 * objects it has handed out that the reflector may still hold: every page of an objects walk (a
 * token asked for again, or every page when `everyPage`), the first page always.
 */
function pagedSource(names: string[], recorded: () => number, everyPage: boolean) {
  const paths: string[] = [];
  const asked = new Set<string>();
  let handedOut = 0;
  let mostHeld = 0;
  const source: SourceApi = {
    getJson: (path) => {
      if (path.includes('/kubernetes')) return Promise.resolve({ metadata: { uid: 'c' } });
      paths.push(path);
      const token = new URL(path, 'https://source').searchParams.get('continue');
      const at = token === null ? 0 : Number(token);
      const items = names.slice(at, at + PAGE_SIZE).map((name, i) => service(name, String(10 + at + i)));
      if (token === null || everyPage || asked.has(token)) handedOut += items.length;
      if (token !== null) asked.add(token);
      mostHeld = Math.max(mostHeld, handedOut - recorded());
      const next = at + PAGE_SIZE < names.length ? { continue: String(at + PAGE_SIZE) } : {};
      return Promise.resolve({ metadata: { resourceVersion: '100', ...next }, items });
    },
    async *watch(path, { signal }) {
      if (path.includes('resourceVersion=5&')) yield { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 5 (90)' } };
      await new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    },
  };
  return { source, paths, mostHeld: () => mostHeld };
}

/** Keeps what it was given; the resume point moves only from the one before it, as the store's does. */
class Recorder {
  readonly observations: Observation<Service>[] = [];
  position: string | null;
  constructor(position: string | null) {
    this.position = position;
  }
  record(observation: Observation<Service>): Promise<{ resourceVersions: number[] }> {
    this.observations.push(observation);
    const resume = observation.resume;
    if (resume) {
      if (resume.after !== this.position) return Promise.reject(new Error(`resume point moved: ${this.position} ≠ ${resume.after}`));
      this.position = resume.resourceVersion;
    }
    return Promise.resolve({ resourceVersions: [] });
  }
  objects(): number {
    return this.observations.filter((o) => o.kind === 'object').length;
  }
}

async function reflect(listed: string[], stored: { names: string[]; position: string | null }) {
  const recorder = new Recorder(stored.position);
  const source = pagedSource(listed, () => recorder.objects(), stored.names.length === 0);
  const reads = { listPage: ({ after }: { after?: unknown }) => Promise.resolve(after ? [] : stored.names.map((name) => ({ namespace: 'a', name }))) } as unknown as ServiceReads;
  const row = (): MirrorSource => ({ clusterUid: 'c', server: 's', resourceVersion: recorder.position, eventsResourceVersion: null });
  const sources: MirrorSourceStore = { load: () => Promise.resolve(row()), claim: () => Promise.resolve(row()), observations: () => Promise.resolve(new Map()) };
  const mirror = new MirrorStatus(new MetricsService(validateConfig({})));
  mirror.lead(true);
  const options = { pageSize: PAGE_SIZE, watchTimeoutSeconds: 30, idleTimeoutMs: 5_000, maxInFlight: 3, backoff: { initialMs: 100, maxMs: 400, random: () => 0 }, random: () => 0 };
  const reflector = new Reflector(source.source, 's', new ReflectedServices(recorder, reads), sources, mirror.services, { now: () => new Date() }, options);
  reflector.start();
  while (recorder.position !== '100') await new Promise((resolve) => setTimeout(resolve, 5));
  await reflector.stop();
  return { recorder, paths: source.paths, mostHeld: source.mostHeld() };
}

const describeObservation = (o: Observation<Service>) => (o.kind === 'gone' ? `gone ${o.name}` : o.kind === 'object' ? `object ${o.object.metadata.name}` : `position ${o.resume.resourceVersion}`);

describe('Reflector LIST, reconciled page by page', () => {
  const listed = Array.from({ length: 11 }, (_, i) => `s${String(i).padStart(2, '0')}`);

  it('given an empty store, when it lists, then it records each page as it comes and holds no more than a page and the next', async () => {
    const { recorder, paths, mostHeld } = await reflect(listed, { names: [], position: null });
    expect(recorder.observations.map(describeObservation)).toEqual([...listed.map((n) => `object ${n}`), 'position 100']);
    // Each page asked for once.
    expect(paths).toEqual(['limit=2', ...[2, 4, 6, 8, 10].map((at) => `limit=2&continue=${at}`)].map((q) => `/api/v1/services?${q}`));
    expect(mostHeld).toBeLessThanOrEqual(2 * PAGE_SIZE);
  });

  it('given a store that holds names, when it relists after 410, then every gone one is deleted before any object is recorded, the objects from a second walk of the same pages, holding no more than a page and the next', async () => {
    const stored = { names: ['gone-a', ...listed.slice(0, 6), 'gone-b'], position: '5' };
    const { recorder, paths, mostHeld } = await reflect(listed, stored);
    expect(recorder.observations.map(describeObservation)).toEqual(['gone gone-a', 'gone gone-b', ...listed.map((n) => `object ${n}`), 'position 100']);
    expect(recorder.observations.filter((o) => o.kind !== 'position').every((o) => o.via === 'relist')).toBe(true);
    // The gone ones at the list's resourceVersion; each object at its own.
    expect(recorder.observations[0]).toMatchObject({ kind: 'gone', sourceResourceVersion: '100', lastKnown: null });
    expect(recorder.observations[2]).toMatchObject({ kind: 'object', sourceResourceVersion: '10' });
    // The names walk, then the later pages again by their tokens (the first page is kept).
    const continued = [2, 4, 6, 8, 10].map((at) => `/api/v1/services?limit=2&continue=${at}`);
    expect(paths).toEqual(['/api/v1/services?limit=2', ...continued, ...continued]);
    expect(mostHeld).toBeLessThanOrEqual(2 * PAGE_SIZE);
  });
});
