// `npm run bench:data`: seeded, reproducible svctrail data directories for the benchmark —
// bench/data/1m (1,000,000 events over 10,000 Services in 100 namespaces) and bench/data/10k
// (10,000 events over 1,000 Services in 10 namespaces, for --quick and the 10k-vs-1M rows).
//
// It is a REAL svctrail database: the migrations in migrations/, and every write runs the
// server's own pipeline in-process (decode the body as the API does → decide → append through
// SqliteEventStore → evolve → Projector), exactly as a command handler's write does, except that
// thousands of writes share one transaction and synchronous=OFF while generating (the file is
// checkpointed and closed cleanly at the end). The CA, serving certificate and tokens come from
// the server's own ensureDataDir, so `node dist/main.js --data-dir bench/data/1m` serves it.
//
// What the history looks like (all from one seed; no Math.random, no wall clock in the data):
//   - default/kubernetes first, as the server's bootstrap would create it;
//   - the Services: ~85% LoadBalancer (most with allocateLoadBalancerNodePorts=false, as
//     MetalLB-style setups run, some with node ports), the rest ClusterIP;
//   - status writes by a load-balancer controller: ingress IPs assigned, moved to another IP
//     (addresses are reused across Services, so "who held IP X" has several answers), switched
//     to a hostname, cleared; LoadBalancerReady / DNSReady conditions flapping True/False, a
//     condition removed now and then;
//   - spec and label edits by people (kubectl), a few deletions followed by re-creation under the
//     same name (a new uid, a new stream);
//   - 1% of the Services are "hot" and receive 30% of the writes;
//   - server time advances ~3 s per write from 2025-01-01T00:00:00Z.
//
// usage: node bench/dist/generate-data.js [--only 10k|1m] [--out DIR --events N] [--services N]
//        [--namespaces N] [--seed N] [--field-managers] [--force]
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MIGRATIONS, ROOT, real } from './real';
import type { DatabaseHandle, Service, ServiceCommand, CommittedWrite } from './real';
import { Rng } from './rng';

/** Bumped whenever the generated history changes shape: an older dataset is regenerated. */
// 4: revisions carry their write's patch (migration 0007), which the floor reads.
// 5: created in auto_vacuum = INCREMENTAL with migration 0010 (compaction), as a new store is.
// 6: revisions' objects and patches stored encoded (src/store/stored-text-codec.ts).
export const GENERATOR_VERSION = 6;

/** Two addresses with very different histories, for "who had it at T" as history grows. */
export const HEAVY_ADDRESS = '198.18.0.1';
export const ONCE_ADDRESS = '198.18.0.2';
export const HEAVY_SERVICE = { namespace: 'default', name: 'bench-address-heavy' };
export const ONCE_SERVICE = { namespace: 'default', name: 'bench-address-once' };

export interface DatasetManifest {
  generatorVersion?: number;
  events: number;
  writes: number;
  services: number;
  liveServices: number;
  namespaces: number;
  seed: number;
  generatedAt: string;
  generationMs: number;
  eventsPerSecond: number;
  dbBytes: number;
  counts: Record<string, number>;
  /** How often HEAVY_ADDRESS and ONCE_ADDRESS were assigned (each assignment is one interval). */
  addresses?: { heavy: { address: string; assignments: number }; once: { address: string; assignments: number } };
}

export const DATA_ROOT = join(ROOT, 'bench', 'data');
/** Both keep 100 Services per namespace, so a namespace LIST returns the same number of items. */
export const DATASETS: Record<string, { events: number; services: number; namespaces: number }> = {
  '10k': { events: 10_000, services: 1_000, namespaces: 10 },
  '1m': { events: 1_000_000, services: 10_000, namespaces: 100 },
};

export interface GenerateOptions {
  out: string;
  events: number;
  /** Assignments of HEAVY_ADDRESS (default: 10,000, at most a twentieth of the events). */
  heavyAssignments?: number;
  services: number;
  namespaces: number;
  seed: number;
  /**
   * Writes record field ownership (metadata.managedFields) under each actor's field manager, as
   * the server does for every write that names one. Off for the bench datasets (their history
   * predates field management); on for the stored-text dictionary's training history.
   */
  fieldManagers?: boolean;
  log?: (line: string) => void;
}

interface Actor {
  user: string;
  groups: string[];
  userAgent: string;
  fieldManager: string;
}

const LB_CONTROLLER: Actor = {
  user: 'system:serviceaccount:metallb-system:controller',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:metallb-system', 'system:authenticated'],
  userAgent: 'controller/v0.14.9 (linux/amd64) metallb',
  fieldManager: 'controller',
};
const CLOUD_CONTROLLER: Actor = {
  user: 'system:serviceaccount:kube-system:cloud-controller-manager',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  userAgent: 'cloud-controller-manager/v1.32.0 (linux/amd64) kubernetes/abcdef0',
  fieldManager: 'cloud-controller-manager',
};
const PEOPLE: Actor[] = ['alice', 'bob', 'carol', 'admin'].map((user) => ({
  user,
  groups: user === 'admin' ? ['system:masters', 'system:authenticated'] : ['devs', 'system:authenticated'],
  userAgent: 'kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9',
  fieldManager: 'kubectl-edit',
}));
const APISERVER: Actor = { user: 'system:apiserver', groups: ['system:masters'], userAgent: 'svctrail', fieldManager: 'kube-apiserver' };

const APPS = ['web', 'api', 'auth', 'cart', 'search', 'db', 'cache', 'queue', 'media', 'edge', 'metrics', 'mail'];
const REASONS_FALSE = ['IPPoolExhausted', 'Pending', 'AllocationFailed', 'HealthCheckFailing'];

export function generateDataset(options: GenerateOptions): DatasetManifest {
  const log = options.log ?? (() => undefined);
  const started = performance.now();
  const rng = new Rng(options.seed);
  const { openDatabase } = real.database();
  const { SqliteEventStore } = real.eventStore();
  const { ServiceRepository } = real.repository();
  const { Projector } = real.projector();
  const { decide } = real.decider();
  const { evolveAll } = real.evolve();
  const { decodeServiceBody } = real.serviceBody();
  const { parseClusterIPRange, kubernetesServiceIP } = real.clusterIPRange();
  const { parseNodePortRange } = real.nodePortRange();

  const path = join(options.out, 'svctrail.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const handle: DatabaseHandle = openDatabase({ path, migrationsFolder: MIGRATIONS, synchronous: 'NORMAL' });
  handle.sqlite.pragma('synchronous = OFF');
  handle.sqlite.pragma('cache_size = -262144');
  const store = new SqliteEventStore(handle);
  const repository = new ServiceRepository(handle);
  const projector = new Projector(handle);
  const clusterIPRange = parseClusterIPRange('10.96.0.0/12');
  const nodePortRange = parseNodePortRange('30000-32767');

  let clock = Date.parse('2025-01-01T00:00:00Z');
  let events = 0;
  let writes = 0;
  const counts: Record<string, number> = {};

  /** A command handler's write (ServiceWriteRunner.run) without its per-write transaction (the caller batches). */
  const execute = (command: ServiceCommand, actor: Actor, verb: string): number => {
    const name = command.kind === 'CreateService' ? (command.object.metadata.name ?? '') : command.name;
    const state = repository.loadLive(command.namespace, name);
    clock += Math.max(1, Math.round(rng.exponential(3000)));
    const now = new Date(clock);
    const decision = decide(command, state, {
      now,
      newUid: () => rng.uuid(),
      allocation: {
        clusterIPRange,
        nodePortRange,
        isClusterIPAllocated: (ip) => repository.clusterIPHolder(ip) !== undefined,
        isNodePortAllocated: (port) => repository.nodePortHolder(port) !== undefined,
        random: () => rng.next(),
      },
      ...(options.fieldManagers ? { manager: actor.fieldManager } : {}),
    });
    if (decision.events.length === 0) return 0;
    const first = decision.events[0];
    const streamId = decision.created ? (first.type === 'ServiceCreated' ? first.data.object.metadata.uid! : '') : state.object!.metadata.uid!;
    const before = decision.created ? { object: null, streamVersion: 0, deleted: false } : state;
    const recorded = store.append({
      streamId,
      namespace: command.namespace,
      name,
      expectedVersion: decision.created ? 0 : state.streamVersion,
      events: decision.events,
      metadata: {
        user: actor.user,
        groups: actor.groups,
        userAgent: actor.userAgent,
        fieldManager: actor.fieldManager,
        requestId: rng.uuid(),
        verb,
        subresource: command.kind === 'ReplaceServiceStatus' ? 'status' : '',
        recordedAt: now.toISOString(),
      },
    });
    const resourceVersion = recorded[0].resourceVersion;
    const after = evolveAll(before, decision.events, resourceVersion);
    const write: CommittedWrite = {
      resourceVersion,
      streamId,
      namespace: command.namespace,
      name,
      events: recorded,
      metadata: recorded[0].metadata,
      before,
      after,
      objectJson: after.object ? JSON.stringify(after.object) : null,
    };
    projector.apply(write);
    for (const e of decision.events) counts[e.type] = (counts[e.type] ?? 0) + 1;
    events += recorded.length;
    writes++;
    return recorded.length;
  };

  /** The body a client would send, decoded and defaulted exactly as the API does. */
  const body = (object: unknown): Service => decodeServiceBody(JSON.stringify(object), 'Ignore').object;

  const names: { namespace: string; name: string }[] = [];
  const serviceBody = (namespace: string, name: string): unknown => {
    const app = rng.pick(APPS);
    const roll = rng.next();
    const type = roll < 0.8 ? 'LoadBalancer' : roll < 0.85 ? 'LoadBalancer+NodePorts' : 'ClusterIP';
    const ports = [{ name: 'http', port: 80, targetPort: 8080 }];
    if (rng.chance(0.3)) ports.push({ name: 'https', port: 443, targetPort: 8443 });
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace, labels: { app, 'app.kubernetes.io/part-of': namespace, tier: rng.pick(['frontend', 'backend']) } },
      spec: {
        type: type === 'ClusterIP' ? 'ClusterIP' : 'LoadBalancer',
        selector: { app },
        ports,
        ...(type === 'LoadBalancer' ? { allocateLoadBalancerNodePorts: false } : {}),
      },
    };
  };

  const live = (ns: string, name: string): Service | null => repository.loadLive(ns, name).object;

  const ipPool = (i: number): string => {
    // ~20k addresses shared by all Services, so addresses are reused over time.
    const blocks = ['203.0.113', '198.51.100', '192.0.2'];
    if (i < 3 * 254) return `${blocks[Math.floor(i / 254)]}.${(i % 254) + 1}`;
    const j = i - 3 * 254;
    return `172.${16 + ((j >> 16) & 15)}.${(j >> 8) & 255}.${j & 255 || 1}`;
  };
  const randomIP = () => ipPool(rng.int(20_000));

  const condition = (svc: Service, type: string, status: 'True' | 'False') => ({
    type,
    status,
    observedGeneration: svc.metadata.generation ?? 1,
    lastTransitionTime: new Date(clock).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    reason: status === 'True' ? (type === 'DNSReady' ? 'RecordPublished' : 'IPAllocated') : rng.pick(REASONS_FALSE),
    message: status === 'True' ? `${type} since write ${writes}` : `controller reported a problem at write ${writes}`,
  });

  const setCondition = (svc: Service, type: string, status: 'True' | 'False') => {
    const conditions = (svc.status.conditions ?? []).filter((c) => c.type !== type);
    conditions.push(condition(svc, type, status));
    conditions.sort((a, b) => a.type.localeCompare(b.type));
    svc.status.conditions = conditions;
  };

  const statusWrite = (svc: Service, actor: Actor) => execute({ kind: 'ReplaceServiceStatus', namespace: svc.metadata.namespace!, name: svc.metadata.name!, object: body(svc) }, actor, 'update');

  /** One write chosen for a Service as a controller or a person would make it. */
  const mutate = (ns: string, name: string) => {
    const svc = live(ns, name);
    if (!svc) {
      execute({ kind: 'CreateService', namespace: ns, object: body(serviceBody(ns, name)) }, rng.pick(PEOPLE), 'create');
      return;
    }
    const roll = rng.next();
    if (roll < 0.003) {
      execute({ kind: 'DeleteService', namespace: ns, name }, rng.pick(PEOPLE), 'delete');
      return;
    }
    if (roll < 0.03) {
      // A person edits the spec or the labels.
      const next = structuredClone(svc);
      if (rng.chance(0.5)) next.metadata.labels = { ...next.metadata.labels, release: `r${rng.int(500)}` };
      else next.spec.ports = (next.spec.ports ?? []).map((p) => ({ ...p, targetPort: 8000 + rng.int(1000) }));
      execute({ kind: 'ReplaceService', namespace: ns, name, object: body(next) }, rng.pick(PEOPLE), 'update');
      return;
    }
    const actor = rng.chance(0.7) ? LB_CONTROLLER : CLOUD_CONTROLLER;
    const next = structuredClone(svc);
    const isLB = svc.spec.type === 'LoadBalancer';
    const ingress = next.status.loadBalancer.ingress ?? [];
    const op = rng.next();
    if (isLB && ingress.length === 0) {
      next.status.loadBalancer = { ingress: [{ ip: randomIP(), ipMode: 'VIP' }] };
      setCondition(next, 'LoadBalancerReady', 'True');
    } else if (isLB && op < 0.3) {
      next.status.loadBalancer = { ingress: [{ ip: randomIP(), ipMode: 'VIP' }] };
    } else if (isLB && op < 0.36) {
      next.status.loadBalancer = {};
      setCondition(next, 'LoadBalancerReady', 'False');
    } else if (isLB && op < 0.42) {
      next.status.loadBalancer = { ingress: [{ hostname: `${name}.${ns}.lb.example.com` }] };
    } else if (isLB && op < 0.46) {
      next.status.loadBalancer = { ingress: [...ingress.slice(0, 1), { ip: randomIP(), ipMode: 'Proxy' }] };
    } else if (op < 0.93) {
      const type = rng.chance(0.75) ? 'LoadBalancerReady' : 'DNSReady';
      const current = (next.status.conditions ?? []).find((c) => c.type === type);
      setCondition(next, type, current?.status === 'True' ? 'False' : 'True');
    } else if (next.status.conditions?.length) {
      next.status.conditions = next.status.conditions.slice(1);
      if (!next.status.conditions.length) delete next.status.conditions;
    } else {
      setCondition(next, 'DNSReady', 'True');
    }
    statusWrite(next, actor);
  };

  // default/kubernetes, as KubernetesServiceBootstrap creates it (it must hold the first IP).
  execute(
    {
      kind: 'CreateService',
      namespace: 'default',
      object: body({
        metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
        spec: {
          ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
          clusterIP: kubernetesServiceIP(clusterIPRange),
          type: 'ClusterIP',
          sessionAffinity: 'None',
        },
        status: { loadBalancer: {} },
      }),
    },
    APISERVER,
    'create',
  );

  // Two Services outside the team namespaces (the LIST and PUT cases leave `default` alone): one
  // whose ingress alternates between HEAVY_ADDRESS and nothing, interleaved with the rest of the
  // history (each assignment opens an interval), and one that receives ONCE_ADDRESS once, halfway.
  const heavyAssignments = options.heavyAssignments ?? Math.min(10_000, Math.floor(options.events / 20));
  const lbBody = (svc: { namespace: string; name: string }) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: svc.name, namespace: svc.namespace, labels: { app: 'bench-address' } },
    spec: { type: 'LoadBalancer', selector: { app: 'bench-address' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }], allocateLoadBalancerNodePorts: false },
  });
  for (const svc of [HEAVY_SERVICE, ONCE_SERVICE]) execute({ kind: 'CreateService', namespace: svc.namespace, object: body(lbBody(svc)) }, APISERVER, 'create');
  const flap = { writes: 0, assignments: 0, onceDone: false };
  const setIngress = (svc: { namespace: string; name: string }, address: string | undefined) => {
    const next = structuredClone(live(svc.namespace, svc.name)!);
    next.status.loadBalancer = address ? { ingress: [{ ip: address, ipMode: 'VIP' }] } : {};
    statusWrite(next, LB_CONTROLLER);
  };
  /** Called before each ordinary write of the main loop: keeps the flapping spread evenly. */
  const addressWrites = (budgetFrom: number) => {
    const span = Math.max(1, options.events - budgetFrom);
    const due = Math.min(2 * heavyAssignments, Math.floor(((events - budgetFrom) / span) * 2 * heavyAssignments) + 1);
    while (flap.writes < due && events < options.events) {
      const assign = flap.writes % 2 === 0;
      setIngress(HEAVY_SERVICE, assign ? HEAVY_ADDRESS : undefined);
      flap.writes++;
      if (assign) flap.assignments++;
    }
    if (!flap.onceDone && events - budgetFrom >= span / 2 && events < options.events) {
      setIngress(ONCE_SERVICE, ONCE_ADDRESS);
      flap.onceDone = true;
    }
  };

  const batch = (fn: () => void) => handle.sqlite.transaction(fn).immediate();
  const perNamespace = Math.ceil(options.services / options.namespaces);
  for (let i = 0; i < options.services; i++) {
    const namespace = `team-${String(Math.floor(i / perNamespace)).padStart(2, '0')}`;
    names.push({ namespace, name: `svc-${String(i).padStart(5, '0')}` });
  }
  // Creation, in batches, interleaved with nothing (a cluster being populated).
  for (let from = 0; from < names.length && events < options.events; from += 2000) {
    batch(() => {
      for (const { namespace, name } of names.slice(from, from + 2000)) {
        if (events >= options.events) break;
        execute({ kind: 'CreateService', namespace, object: body(serviceBody(namespace, name)) }, rng.pick(PEOPLE), 'create');
      }
    });
  }
  const hot = Math.max(1, Math.floor(names.length / 100));
  let nextReport = 100_000;
  const loopFrom = events;
  while (events < options.events) {
    batch(() => {
      for (let i = 0; i < 5000 && events < options.events; i++) {
        addressWrites(loopFrom);
        if (events >= options.events) break;
        const target = rng.chance(0.3) ? names[rng.int(hot)] : names[rng.int(names.length)];
        mutate(target.namespace, target.name);
      }
    });
    if (events >= nextReport) {
      log(`  ${events} events (${Math.round(events / ((performance.now() - started) / 1000))}/s)`);
      nextReport += 100_000;
    }
  }
  handle.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  log('  vacuuming');
  handle.sqlite.exec('VACUUM');
  handle.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const liveServices = handle.sqlite.prepare('SELECT count(*) FROM services').pluck().get() as number;
  handle.close();
  const generationMs = performance.now() - started;
  const manifest: DatasetManifest = {
    generatorVersion: GENERATOR_VERSION,
    events,
    writes,
    services: options.services,
    liveServices,
    namespaces: options.namespaces,
    seed: options.seed,
    generatedAt: new Date().toISOString(),
    generationMs: Math.round(generationMs),
    eventsPerSecond: Math.round(events / (generationMs / 1000)),
    dbBytes: statSync(path).size,
    counts,
    addresses: {
      heavy: { address: HEAVY_ADDRESS, assignments: flap.assignments },
      once: { address: ONCE_ADDRESS, assignments: flap.onceDone ? 1 : 0 },
    },
  };
  writeFileSync(join(options.out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Creates the data directory (CA, serving certificate, tokens) with the server's own code. */
export async function prepareDataDir(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  await real.dataDir().ensureDataDir({ dataDir: dir, now: () => new Date() });
}

export function readManifest(dir: string): DatasetManifest | undefined {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file) || !existsSync(join(dir, 'svctrail.db'))) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as DatasetManifest;
}

/** Generates one named dataset (10k, 1m) unless an identical one is already there. */
export async function ensureDataset(
  key: string,
  opts: { force?: boolean; seed?: number; services?: number; namespaces?: number; log?: (line: string) => void } = {},
): Promise<{ dir: string; manifest: DatasetManifest; generated: boolean }> {
  const dir = join(DATA_ROOT, key);
  const seed = opts.seed ?? 42;
  const services = opts.services ?? DATASETS[key].services;
  const namespaces = opts.namespaces ?? DATASETS[key].namespaces;
  const existing = readManifest(dir);
  if (!opts.force && existing && existing.generatorVersion === GENERATOR_VERSION && existing.seed === seed && existing.services === services && existing.events >= DATASETS[key].events) {
    return { dir, manifest: existing, generated: false };
  }
  await prepareDataDir(dir);
  opts.log?.(`generating ${key}: ${DATASETS[key].events} events over ${services} Services (seed ${seed}) into ${dir}`);
  const manifest = generateDataset({ out: dir, events: DATASETS[key].events, services, namespaces, seed, log: opts.log });
  opts.log?.(
    `  done: ${manifest.events} events, ${manifest.writes} writes in ${(manifest.generationMs / 1000).toFixed(1)} s ` +
      `(${manifest.eventsPerSecond} events/s), ${(manifest.dbBytes / 1e6).toFixed(1)} MB`,
  );
  return { dir, manifest, generated: true };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      out: { type: 'string' },
      events: { type: 'string' },
      services: { type: 'string' },
      namespaces: { type: 'string' },
      seed: { type: 'string', default: '42' },
      force: { type: 'boolean', default: false },
      'field-managers': { type: 'boolean', default: false },
    },
  });
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const services = values.services === undefined ? undefined : Number(values.services);
  const namespaces = values.namespaces === undefined ? undefined : Number(values.namespaces);
  const seed = Number(values.seed);
  if (values.out) {
    await prepareDataDir(values.out);
    const events = Number(values.events ?? 1_000_000);
    const svc = services ?? 10_000;
    log(`generating ${events} events over ${svc} Services (seed ${seed}) into ${values.out}`);
    const m = generateDataset({ out: values.out, events, services: svc, namespaces: namespaces ?? Math.ceil(svc / 100), seed, fieldManagers: values['field-managers'], log });
    log(`done: ${m.events} events, ${m.writes} writes in ${(m.generationMs / 1000).toFixed(1)} s (${m.eventsPerSecond} events/s), ${(m.dbBytes / 1e6).toFixed(1)} MB`);
    return;
  }
  const keys = values.only ? [values.only] : Object.keys(DATASETS);
  for (const key of keys) {
    if (!DATASETS[key]) throw new Error(`unknown dataset ${key} (known: ${Object.keys(DATASETS).join(', ')})`);
    const { dir, manifest, generated } = await ensureDataset(key, { force: values.force, seed, services, namespaces, log });
    if (!generated) log(`${key}: ${dir} is up to date (${manifest.events} events, seed ${manifest.seed}); --force regenerates`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench:data: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
