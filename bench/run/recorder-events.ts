// What client-go's event recorder sends, as kube-controller-manager's service controller runs it
// (k8s.io/cloud-provider controllers/service; client-go tools/record event.go makeEvent and
// events_cache.go eventObserve): a POST of each new Event, named `<object>.<hex nanoseconds>`,
// count 1; then, as the same Event repeats, a strategic-merge PATCH of exactly count,
// lastTimestamp and message. The bench's Event cases (cases.ts), bench:framework and
// bench:check-floor send these bodies.
import { Agent, request as httpsRequest } from 'node:https';
import type { Rng } from '../rng';

/** kube-controller-manager's user agent: svctrail (and the floors) name its managedFields entry `kube-controller-manager`. */
export const RECORDER_USER_AGENT = 'kube-controller-manager/v1.32.0 (linux/amd64) kubernetes/70d3cc9/system:serviceaccount:kube-system:service-controller';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

/** The object an Event is about: a LoadBalancer Service. */
export interface EventAbout {
  ns: string;
  name: string;
  uid: string;
  rv: string;
}

interface Said {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/**
 * The service controller's Events, each as often as a sync emits it: every sync of a load balancer
 * says Ensuring and then Ensured, node changes say Updated, failures warn.
 */
const SERVICE_CONTROLLER: Said[] = [
  { type: 'Normal', reason: 'EnsuringLoadBalancer', message: 'Ensuring load balancer' },
  { type: 'Normal', reason: 'EnsuringLoadBalancer', message: 'Ensuring load balancer' },
  { type: 'Normal', reason: 'EnsuringLoadBalancer', message: 'Ensuring load balancer' },
  { type: 'Normal', reason: 'EnsuredLoadBalancer', message: 'Ensured load balancer' },
  { type: 'Normal', reason: 'EnsuredLoadBalancer', message: 'Ensured load balancer' },
  { type: 'Normal', reason: 'EnsuredLoadBalancer', message: 'Ensured load balancer' },
  { type: 'Normal', reason: 'UpdatedLoadBalancer', message: 'Updated load balancer with new hosts' },
  { type: 'Normal', reason: 'UpdatedLoadBalancer', message: 'Updated load balancer with new hosts' },
  { type: 'Warning', reason: 'SyncLoadBalancerFailed', message: 'Error syncing load balancer: failed to ensure load balancer: context deadline exceeded' },
  { type: 'Warning', reason: 'UnAvailableLoadBalancer', message: 'There are no available nodes for LoadBalancer' },
];

/** Each of the controller's Events once (an object's live Events differ by reason: the recorder aggregates repeats into one). */
export const SERVICE_CONTROLLER_EVENTS: Said[] = [...new Map(SERVICE_CONTROLLER.map((s) => [s.reason, s])).values()];

/** metav1.Time: seconds. */
const seconds = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

/** The POST body of a new Event about `about` (kind/apiVersion and creationTimestamp: null as client-go encodes them). */
export function recorderEvent(about: EventAbout, name: string, said: Said, at = new Date()): string {
  const time = seconds(at);
  return JSON.stringify({
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name, namespace: about.ns, creationTimestamp: null },
    involvedObject: { kind: 'Service', namespace: about.ns, name: about.name, uid: about.uid, apiVersion: 'v1', resourceVersion: about.rv },
    reason: said.reason,
    message: said.message,
    source: { component: 'service-controller' },
    firstTimestamp: time,
    lastTimestamp: time,
    count: 1,
    type: said.type,
    eventTime: null,
    reportingComponent: 'service-controller',
    reportingInstance: '',
  });
}

/** The repeat's PATCH body: exactly what eventObserve sends. */
export const repeatPatch = (count: number, message: string, at = new Date()): string => JSON.stringify({ count, lastTimestamp: seconds(at), message });

/** Nanoseconds for new Events' names: increasing, unique in this process (client-go names an Event by its time). */
let nanos = BigInt(Date.now()) * 1_000_000n;
export function newEventName(about: EventAbout): string {
  nanos += 1_000n;
  return `${about.name}.${nanos.toString(16)}`;
}

/** A new Event about a random one of `objects` (what the POST cases send). */
export function newEvent(rng: Rng, objects: EventAbout[]): { path: string; body: string } {
  const about = objects[rng.int(objects.length)];
  return { path: `/api/v1/namespaces/${about.ns}/events`, body: recorderEvent(about, newEventName(about), SERVICE_CONTROLLER[rng.int(SERVICE_CONTROLLER.length)]) };
}

/** The live Events the repeat cases patch: created on each target before (seedEvents), the same names everywhere. */
export interface EventPool {
  events: { about: EventAbout; name: string; said: Said }[];
  /** The count each Event was last sent with, across every target: each repeat sends one more, so every PATCH changes the Event. */
  counts: Uint32Array;
}

/** 2026-12-01 in nanoseconds: the pool's Events were first seen then (their names are fixed, so each target gets the same). */
const POOL_EPOCH = 1_796_083_200_000_000_000n;

/** Up to two Events per object (`size` in all), spread over the objects and the controller's reasons. */
export function eventPool(objects: EventAbout[], size: number): EventPool {
  const events = Array.from({ length: Math.min(size, 2 * objects.length) }, (_, i) => {
    const about = objects[i % objects.length];
    return {
      about,
      name: `${about.name}.${(POOL_EPOCH + BigInt(i) * 1_000_003n).toString(16)}`,
      said: SERVICE_CONTROLLER_EVENTS[(i + Math.floor(i / objects.length)) % SERVICE_CONTROLLER_EVENTS.length],
    };
  });
  return { events, counts: new Uint32Array(events.length).fill(1) };
}

/** A repeat of a random Event of the pool (what the PATCH cases send). */
export function repeatOf(rng: Rng, pool: EventPool): { path: string; body: string } {
  const i = rng.int(pool.events.length);
  const e = pool.events[i];
  return { path: `/api/v1/namespaces/${e.about.ns}/events/${e.name}`, body: repeatPatch(++pool.counts[i], e.said.message) };
}

/** One write of the recorder's, answered (a PATCH is a strategic merge unless `contentType` says otherwise). */
export function recorderWrite(
  url: string,
  token: string,
  method: 'POST' | 'PATCH',
  path: string,
  body: string,
  opts: { agent?: Agent | false; contentType?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL(path, url),
      {
        method,
        agent: opts.agent ?? false,
        rejectUnauthorized: false,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          'content-type': opts.contentType ?? (method === 'POST' ? 'application/json' : STRATEGIC_MERGE_PATCH),
          'content-length': Buffer.byteLength(body),
          'user-agent': RECORDER_USER_AGENT,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Creates the pool's Events on one server (16 at a time, as its recorder would have, count 1). */
export async function seedEvents(url: string, token: string, pool: EventPool): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16, rejectUnauthorized: false });
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < pool.events.length) {
          const e = pool.events[next++];
          const answer = await recorderWrite(url, token, 'POST', `/api/v1/namespaces/${e.about.ns}/events`, recorderEvent(e.about, e.name, e.said), { agent });
          if (answer.status !== 201) throw new Error(`seeding Event ${e.about.ns}/${e.name}: ${answer.status} ${answer.body.slice(0, 300)}`);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
}
