import { validateConfig } from '../config/app-config';
import type { KubeEvent } from '../domain/kube-event/kube-event.types';
import type { Service } from '../domain/service.types';
import { MetricsService } from '../observability/metrics.service';
import type { KubeEvents } from '../store/ports/kube-events';
import type { MirrorSource, MirrorSourceStore } from '../store/ports/mirror-source-store';
import type { ServiceReads } from '../store/ports/service-read-store';
import { MirrorStatus } from './mirror-status';
import type { Observation } from './observation';
import { ReflectedKubeEvents } from './reflected-kube-events';
import { ReflectedServices } from './reflected-services';
import { Reflector, type SourceApi } from './reflector';
import { isExpired, SourceExpiredError } from './source-expired-error';
import { ClusterHttpError } from '../cluster/cluster-http-error';

const service = (name: string, rv: string) => ({
  metadata: { name, namespace: 'a', uid: `uid-${name}`, resourceVersion: rv, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { type: 'ClusterIP' },
  status: {},
});

const event = (name: string, rv: string, count = 1) => ({
  metadata: { name, namespace: 'a', uid: `uid-${name}`, resourceVersion: rv, creationTimestamp: '2026-01-01T00:00:00Z' },
  involvedObject: { kind: 'Service', namespace: 'a', name: 'web', apiVersion: 'v1' },
  reason: 'EnsuringLoadBalancer',
  message: 'Ensuring load balancer',
  source: { component: 'service-controller' },
  count,
  type: 'Normal',
  eventTime: null,
  reportingComponent: 'service-controller',
  reportingInstance: '',
});

/** A recorder that keeps what it was given, and the resume point as a store would (only from the one before it). */
class FakeRecorder<T> {
  readonly observations: Observation<T>[] = [];
  position: string | null = null;
  record(observation: Observation<T>): Promise<{ resourceVersions: number[] }> {
    this.observations.push(observation);
    const resume = observation.kind === 'position' ? observation.resume : observation.resume;
    if (resume) {
      if (resume.after !== this.position) return Promise.reject(new Error(`resume point moved: ${this.position} ≠ ${resume.after}`));
      this.position = resume.resourceVersion;
    }
    return Promise.resolve({ resourceVersions: [] });
  }
}

const OPTIONS = {
  pageSize: 2,
  watchTimeoutSeconds: 30,
  idleTimeoutMs: 5_000,
  maxInFlight: 8,
  backoff: { initialMs: 100, maxMs: 400, random: () => 0 },
  random: () => 0,
};

/** The store's mirror_source row: the recorder's point is this reflector's; the other one stays where it is. */
function sourcesOf(position: () => string | null, resource: 'services' | 'events'): MirrorSourceStore {
  const row = (): MirrorSource => ({
    clusterUid: 'c',
    server: 's',
    resourceVersion: resource === 'services' ? position() : 'services-elsewhere',
    eventsResourceVersion: resource === 'events' ? position() : 'events-elsewhere',
  });
  return { load: () => Promise.resolve(row()), claim: () => Promise.resolve(row()), observations: () => Promise.resolve(new Map()) };
}

function harness(source: SourceApi) {
  const recorder = new FakeRecorder<Service>();
  const reads = { listPage: () => Promise.resolve([]) } as unknown as ServiceReads;
  const mirror = new MirrorStatus(new MetricsService(validateConfig({})));
  mirror.lead(true);
  const status = mirror.services;
  const reflector = new Reflector(
    source,
    's',
    new ReflectedServices(recorder, reads),
    sourcesOf(() => recorder.position, 'services'),
    status,
    { now: () => new Date() },
    OPTIONS,
  );
  return { recorder, reflector, status, mirror };
}

/** The Events' reflector, with the live Events the store holds named by `recorded`. */
function eventsHarness(source: SourceApi, recorded: { namespace: string; name: string }[] = []) {
  const recorder = new FakeRecorder<KubeEvent>();
  const events = { liveNames: (after: unknown) => Promise.resolve(after ? [] : recorded) } as unknown as KubeEvents;
  const mirror = new MirrorStatus(new MetricsService(validateConfig({})));
  mirror.lead(true);
  const reflector = new Reflector(
    source,
    's',
    new ReflectedKubeEvents(recorder, events),
    sourcesOf(() => recorder.position, 'events'),
    mirror.events,
    { now: () => new Date() },
    OPTIONS,
  );
  return { recorder, reflector, mirror };
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

  it('given a stop while the last page is being answered, when the page arrives after it, then no watch is opened and stop() ends', async () => {
    let answerPage: (page: unknown) => void = () => undefined;
    let pageAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (pageAsked = resolve));
    const watchSignals: AbortSignal[] = [];
    const source: SourceApi = {
      getJson: (path) => {
        if (path.includes('/kubernetes')) return Promise.resolve(kubernetes);
        pageAsked();
        // An answer already on its way: the abort does not reach it.
        return new Promise((resolve) => (answerPage = resolve));
      },
      // A source that honours its signal, as the cluster client does; one never aborted stays open.
      watch: (_path, { signal }) => {
        watchSignals.push(signal);
        return { [Symbol.asyncIterator]: () => ({ next: () => openUntilAborted(signal) }) };
      },
    };
    const { reflector } = harness(source);
    reflector.start();
    await asked;
    const stopped = reflector.stop();
    answerPage({ metadata: { resourceVersion: '10' }, items: [service('a', '3')] });
    await stopped;
    expect(watchSignals.filter((signal) => !signal.aborted)).toEqual([]);
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
    const { reflector, status, mirror } = harness(source);
    reflector.start();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await reflector.stop();
    // 50, 100, 200, 200… ms (random 0: half of each step): about six tries in a second, not thousands.
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(calls).toBeLessThanOrEqual(8);
    expect(status.synced).toBe(false);
    expect(status.notSyncedReason).toMatch(/ECONNREFUSED/);
    expect(mirror.ready).toBe(false);
    expect(mirror.notReadyReason).toMatch(/ECONNREFUSED/);

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

  it("reflects Events about core/v1 Services with one field selector on every LIST and WATCH, resuming from the Events' own point, never the Services'", async () => {
    const paths: string[] = [];
    let watched = 0;
    const source: SourceApi = {
      getJson: (path) => {
        paths.push(path);
        if (path.includes('/kubernetes')) return Promise.resolve(kubernetes);
        return Promise.resolve({ metadata: { resourceVersion: '20' }, items: [event('web.1', '15')] });
      },
      async *watch(path, { signal }) {
        paths.push(path);
        if (watched++ > 0) return openUntilAborted(signal);
        yield { type: 'MODIFIED', object: event('web.1', '21', 2) };
        yield { type: 'DELETED', object: event('web.1', '22', 2) };
      },
    };
    const { recorder, reflector, mirror } = eventsHarness(source);
    reflector.start();
    while (recorder.position !== '22') await new Promise((resolve) => setTimeout(resolve, 5));
    await reflector.stop();
    const selector = 'fieldSelector=involvedObject.kind%3DService%2CinvolvedObject.apiVersion%3Dv1%2CreportingComponent!%3Dsvctrail';
    expect(paths.slice(1)).toEqual([
      `/api/v1/events?${selector}&limit=2`,
      `/api/v1/events?${selector}&watch=true&resourceVersion=20&allowWatchBookmarks=true&timeoutSeconds=30`,
      `/api/v1/events?${selector}&watch=true&resourceVersion=22&allowWatchBookmarks=true&timeoutSeconds=30`,
    ]);
    const [listed, modified, deleted] = recorder.observations.filter((o) => o.kind !== 'position');
    expect(listed).toMatchObject({ kind: 'object', via: 'list', sourceResourceVersion: '15', object: { count: 1, metadata: { uid: 'uid-web.1' } } });
    // Stored form: the source's resourceVersion is kept beside the object, not in it.
    expect((listed as { object: KubeEvent }).object.metadata.resourceVersion).toBeUndefined();
    expect(modified).toMatchObject({ kind: 'object', via: 'watch', sourceResourceVersion: '21', object: { count: 2 } });
    expect(deleted).toMatchObject({ kind: 'gone', namespace: 'a', name: 'web.1', via: 'watch', sourceResourceVersion: '22', lastKnown: { count: 2 } });
    // The Events' status is its own; readiness follows the Services' only.
    expect(mirror.events.synced).toBe(true);
    expect(mirror.services.synced).toBe(false);
    expect(mirror.ready).toBe(false);
  });

  it("reconciles an Events relist against the live Events the store holds: those the source no longer has are gone (via relist), at the list's resourceVersion", async () => {
    let lists = 0;
    let watches = 0;
    const source: SourceApi = {
      getJson: (path) => {
        if (path.includes('/kubernetes')) return Promise.resolve(kubernetes);
        lists++;
        return Promise.resolve({ metadata: { resourceVersion: String(lists * 100) }, items: [event('kept', '90'), ...(lists > 1 ? [event('new', '150')] : [])] });
      },
      async *watch(_path, { signal }) {
        watches++;
        if (watches === 1) yield { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 100 (150)' } };
        return openUntilAborted(signal);
      },
    };
    const { recorder, reflector } = eventsHarness(source, [
      { namespace: 'a', name: 'kept' },
      { namespace: 'a', name: 'expired-meanwhile' },
    ]);
    reflector.start();
    while (recorder.position !== '200') await new Promise((resolve) => setTimeout(resolve, 5));
    await reflector.stop();
    const relisted = recorder.observations.filter((o) => o.kind !== 'position' && o.via === 'relist');
    expect(relisted.map((o) => (o.kind === 'gone' ? ['gone', o.name, o.sourceResourceVersion] : o.kind === 'object' ? ['object', o.object.metadata.name, o.sourceResourceVersion] : []))).toEqual([
      ['gone', 'expired-meanwhile', '200'],
      ['object', 'kept', '90'],
      ['object', 'new', '150'],
    ]);
  });

  it('takes a 410 answer (an expired continue token) and an in-band Expired as the source having compacted past its place; nothing else', () => {
    expect(isExpired(new ClusterHttpError(410, '/api/v1/services?continue=x'))).toBe(true);
    expect(isExpired(new SourceExpiredError('too old resource version: 1 (5)'))).toBe(true);
    expect(isExpired(new ClusterHttpError(503, '/api/v1/services'))).toBe(false);
    expect(isExpired(new Error('read ECONNRESET'))).toBe(false);
  });
});
