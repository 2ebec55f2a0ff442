import { validateConfig } from '../config/app-config';
import { MetricsService } from '../observability/metrics.service';
import type { MirrorSource, MirrorSourceStore } from '../store/ports/mirror-source-store';
import type { ServiceReads } from '../store/ports/service-read-store';
import { MirrorStatus } from './mirror-status';
import type { Observation, ObservedWriteRecorder } from './observed-write-recorder';
import { Reflector, type SourceApi } from './reflector';
import { isExpired, SourceExpiredError } from './source-expired-error';
import { SourceHttpError } from './source/source-http-error';

const service = (name: string, rv: string) => ({
  metadata: { name, namespace: 'a', uid: `uid-${name}`, resourceVersion: rv, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { type: 'ClusterIP' },
  status: {},
});

/** A recorder that keeps what it was given, and the resume point as a store would (only from the one before it). */
class FakeRecorder {
  readonly observations: Observation[] = [];
  position: string | null = null;
  record(observation: Observation): Promise<{ resourceVersions: number[] }> {
    this.observations.push(observation);
    const resume = observation.kind === 'position' ? observation.resume : observation.resume;
    if (resume) {
      if (resume.after !== this.position) return Promise.reject(new Error(`resume point moved: ${this.position} ≠ ${resume.after}`));
      this.position = resume.resourceVersion;
    }
    return Promise.resolve({ resourceVersions: [] });
  }
}

function harness(source: SourceApi) {
  const recorder = new FakeRecorder();
  const sources: MirrorSourceStore = {
    load: () => Promise.resolve<MirrorSource>({ clusterUid: 'c', server: 's', resourceVersion: recorder.position }),
    claim: () => Promise.resolve({ clusterUid: 'c', server: 's', resourceVersion: recorder.position }),
    observations: () => Promise.resolve(new Map()),
  };
  const reads = { listPage: () => Promise.resolve([]) } as unknown as ServiceReads;
  const status = new MirrorStatus(new MetricsService(validateConfig({})));
  status.lead(true);
  const reflector = new Reflector(
    source,
    's',
    recorder as unknown as ObservedWriteRecorder,
    sources,
    reads,
    status,
    { now: () => new Date() },
    {
      pageSize: 2,
      watchTimeoutSeconds: 30,
      idleTimeoutMs: 5_000,
      maxInFlight: 8,
      backoff: { initialMs: 100, maxMs: 400, random: () => 0 },
      random: () => 0,
    },
  );
  return { recorder, reflector, status };
}

const kubernetes = { metadata: { uid: 'c' } };

/** A watch that stays open, sending nothing, until the reflector gives it up. */
const openUntilAborted = (signal: AbortSignal) => new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));

describe('Reflector', () => {
  it('lists page by page, then watches from the list resourceVersion with bookmarks, recording each event with the point it resumes from', async () => {
    const paths: string[] = [];
    let watched = 0;
    const source: SourceApi = {
      getJson: (path) => {
        paths.push(path);
        if (path.includes('/kubernetes')) return Promise.resolve(kubernetes);
        if (!path.includes('continue=')) return Promise.resolve({ metadata: { resourceVersion: '10', continue: 'p2' }, items: [service('a', '3'), service('b', '5')] });
        return Promise.resolve({ metadata: { resourceVersion: '10' }, items: [service('c', '9')] });
      },
      async *watch(path, { signal }) {
        paths.push(path);
        if (watched++ > 0) return openUntilAborted(signal);
        yield { type: 'MODIFIED', object: service('a', '11') };
        yield { type: 'BOOKMARK', object: { metadata: { resourceVersion: '12' } } };
        yield { type: 'DELETED', object: service('b', '13') };
      },
    };
    const { recorder, reflector, status } = harness(source);
    reflector.start();
    while (recorder.position !== '13') await new Promise((resolve) => setTimeout(resolve, 5));
    await reflector.stop();
    expect(paths.slice(1, 3)).toEqual(['/api/v1/services?limit=2', '/api/v1/services?limit=2&continue=p2']);
    expect(paths[3]).toBe('/api/v1/services?watch=true&resourceVersion=10&allowWatchBookmarks=true&timeoutSeconds=30');
    expect(paths[4]).toBe('/api/v1/services?watch=true&resourceVersion=13&allowWatchBookmarks=true&timeoutSeconds=30');
    expect(recorder.observations.map((o) => [o.kind, o.kind === 'position' ? o.resume.resourceVersion : o.via, o.kind === 'position' ? '' : o.sourceResourceVersion])).toEqual([
      ['object', 'list', '3'],
      ['object', 'list', '5'],
      ['object', 'list', '9'],
      ['position', '10', ''],
      ['object', 'watch', '11'],
      ['position', '12', ''],
      ['gone', 'watch', '13'],
    ]);
    expect(status.synced).toBe(true);
  });

  it('relists (via relist) when the watch answers 410 Expired, and only then', async () => {
    let lists = 0;
    let watches = 0;
    const source: SourceApi = {
      getJson: (path) => {
        if (path.includes('/kubernetes')) return Promise.resolve(kubernetes);
        lists++;
        return Promise.resolve({ metadata: { resourceVersion: String(lists * 100) }, items: [service('a', String(lists * 100 - 1))] });
      },
      async *watch(_path, { signal }) {
        watches++;
        if (watches === 1) yield { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 100 (150)' } };
        return openUntilAborted(signal);
      },
    };
    const { recorder, reflector } = harness(source);
    reflector.start();
    while (recorder.position !== '200') await new Promise((resolve) => setTimeout(resolve, 5));
    await reflector.stop();
    expect(lists).toBe(2);
    expect(recorder.observations.filter((o) => o.kind === 'object').map((o) => (o as { via: string }).via)).toEqual(['list', 'relist']);
  });

  it('never asks in a busy loop: failing requests and watches that end at once are retried after growing waits', async () => {
    let calls = 0;
    const source: SourceApi = {
      getJson: () => {
        calls++;
        return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
      },
      async *watch() {},
    };
    const { reflector, status } = harness(source);
    reflector.start();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await reflector.stop();
    // 50, 100, 200, 200… ms (random 0: half of each step): about six tries in a second, not thousands.
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(calls).toBeLessThanOrEqual(8);
    expect(status.synced).toBe(false);
    expect(status.notReadyReason).toMatch(/ECONNREFUSED/);

    let watches = 0;
    const quiet: SourceApi = {
      getJson: (path) => Promise.resolve(path.includes('/kubernetes') ? kubernetes : { metadata: { resourceVersion: '1' }, items: [] }),
      // eslint-disable-next-line require-yield -- a watch that ends without an event: the reflector must start another
      async *watch() {
        watches++;
      },
    };
    const second = harness(quiet);
    second.reflector.start();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await second.reflector.stop();
    expect(watches).toBeGreaterThanOrEqual(3);
    expect(watches).toBeLessThanOrEqual(8);
  });

  it('takes a 410 answer (an expired continue token) and an in-band Expired as the source having compacted past its place; nothing else', () => {
    expect(isExpired(new SourceHttpError(410, '/api/v1/services?continue=x'))).toBe(true);
    expect(isExpired(new SourceExpiredError('too old resource version: 1 (5)'))).toBe(true);
    expect(isExpired(new SourceHttpError(503, '/api/v1/services'))).toBe(false);
    expect(isExpired(new Error('read ECONNRESET'))).toBe(false);
  });
});
