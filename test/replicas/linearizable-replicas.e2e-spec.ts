// Linearizability of three replicas on one PostgreSQL database, under faults (issue 25, point 4).
//
// Several clients loop against random replicas over a few Services, each Service a register (the
// annotation test/value): a read is a GET; a compare-and-set is a GET followed by a PUT of the
// object with a new unique value and the resourceVersion it read (200: took effect; 409 Conflict:
// refused; 500 "the write was not stored": no effect; any other 5xx, a lost connection or the
// client's timeout: outcome unknown). Meanwhile: one replica is frozen (SIGSTOP, then SIGCONT),
// one is killed with kill -9 and started again, the replicas' PostgreSQL backends are terminated,
// PostgreSQL's primary is restarted, and PostgreSQL fails over: the suite's own primary and
// synchronous standby (postgres-replication.ts), the primary killed, the standby promoted, the
// replicas on a multi-host URL; a new standby is built in the old primary's place before the next
// round. The recorded history (invocation
// and completion times by performance.now()) must be linearizable (test/consistency/
// linearizability.ts), every fault must have happened, the run must have done real work, and the
// replicas must have kept serving: the others while one was frozen or dead, all after each fault.
//
// Short by default (one round of faults, ~20 s of load); SVCTRAIL_LINEARIZABLE_SECONDS=300 (npm
// run test:linearizable) runs rounds of faults, each replica frozen and killed in turn, for that long.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { Client } from 'pg';
import { ensureDataDir } from '../../src/tls/data-dir';
import { type CasOperation, checkLinearizability, type Operation } from '../consistency/linearizability';
import { describeReplicatedPostgres } from '../helpers/postgres-replication';
import { buildDist, removeBuild, type ServerProcess, startServerProcess } from '../helpers/server-process';

/** 0: one round of faults (about 20 s of load); otherwise rounds go on while one more fits in this many seconds. */
const LOAD_SECONDS = Number(process.env.SVCTRAIL_LINEARIZABLE_SECONDS) || 0;
const KEYS = ['lin-0', 'lin-1', 'lin-2', 'lin-3'];
const CLIENTS = 6;
/** A request not answered by then is given up: its outcome is unknown (a frozen replica's are). */
const REQUEST_TIMEOUT_MS = 2_500;
const NAMESPACE = 'linearizable';
const ANNOTATION = 'test/value';
/** Longer than the client's timeout: requests to the frozen replica end unknown. */
const FREEZE_MS = 3_000;
/** After each fault, a write must succeed again within this; the next fault waits for it. */
const RECOVERY_MS = 5_000;
/** Steady load between the recovery from one fault and the next fault (and after the last). */
const STEADY_MS = 1_000;

interface Replica {
  name: string;
  dataDir: string;
  process: ServerProcess;
  /** Times it was started (a restart after kill -9 serves on a new port). */
  generation: number;
  /** PUTs whose request may have reached it and that have no answer yet. */
  writesInFlight: number;
}

interface Fault {
  name: string;
  /** The replica it hit (none: the database). */
  replica?: string;
  startedAt: number;
  endedAt: number;
  /** What proved it happened; undefined when it did not. */
  proof?: string;
  failure?: string;
  detail?: string;
  /** The client that wrote through the other replicas meanwhile. */
  probe?: string;
}

/** An answer, or why there was none; `delivered`: the TLS handshake with the server completed, so the request may have reached it. */
type Answer = { status: number; json: any; text: string } | { error: string; delivered: boolean };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const path = (key: string) => `/api/v1/namespaces/${NAMESPACE}/services/${key}`;

/** The process state letter from /proc (T: stopped), or undefined when it is gone. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

// Run twice: replicas each appending their own writes, and replicas sharing one write leader
// (--replica-url: the others forward their writes to it, store/ports/write-leadership.ts).
for (const writeLeader of [false, true])
  describeReplicatedPostgres(
    `linearizability of three replicas on one PostgreSQL database under faults, failovers included${writeLeader ? ', with one write leader' : ''}`,
    'synchronous',
    (database) => {
      const root = mkdtempSync(join(tmpdir(), 'svctrail-linearizable-'));
      const replicas: Replica[] = [];
      /** Every process ever started, for afterAll. */
      const processes: ServerProcess[] = [];
      let credentials: { ca: string; token: string };

      const start = async (dataDir: string): Promise<ServerProcess> => {
        const started = await startServerProcess(['--data-dir', dataDir, '--storage', database().multiHostUrl, '--log-level', 'warn', ...(writeLeader ? ['--replica-url', 'auto'] : [])]);
        processes.push(started);
        return started;
      };

      /** One request with a deadline; never rejects. */
      const call = (replica: Replica, method: 'GET' | 'PUT', target: string, body?: unknown): Promise<Answer> =>
        new Promise((resolve) => {
          let settled = false;
          let delivered = false;
          const finish = (answer: Answer) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            if (delivered && method === 'PUT') replica.writesInFlight--;
            resolve(answer);
          };
          const payload = body === undefined ? undefined : JSON.stringify(body);
          const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${credentials.token}` };
          if (payload !== undefined) {
            headers['content-type'] = 'application/json';
            headers['content-length'] = String(Buffer.byteLength(payload));
          }
          const req = httpsRequest(new URL(target, replica.process.url), { method, headers, ca: credentials.ca, agent: false }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              let json: unknown;
              try {
                json = JSON.parse(text);
              } catch {
                json = undefined;
              }
              finish({ status: res.statusCode ?? 0, json, text });
            });
            res.on('error', (error) => finish({ error: `response: ${error.message}`, delivered: true }));
            res.on('close', () => finish({ error: 'response cut short', delivered: true }));
          });
          // Before the handshake completes no byte of the request can reach the server.
          req.on('socket', (socket) =>
            (socket as TLSSocket).once('secureConnect', () => {
              if (settled) return;
              delivered = true;
              if (method === 'PUT') replica.writesInFlight++;
            }),
          );
          req.on('error', (error: NodeJS.ErrnoException) => finish({ error: error.code ?? error.message, delivered }));
          const timer = setTimeout(() => {
            finish({ error: `no answer within ${REQUEST_TIMEOUT_MS} ms`, delivered });
            req.destroy();
          }, REQUEST_TIMEOUT_MS);
          if (payload !== undefined) req.write(payload);
          req.end();
        });

      beforeAll(async () => {
        buildDist();
        // One set of credentials, copied to each replica's directory.
        await ensureDataDir({ dataDir: join(root, 'a'), now: () => new Date() });
        for (const name of ['b', 'c']) cpSync(join(root, 'a'), join(root, name), { recursive: true });
        credentials = { ca: readFileSync(join(root, 'a', 'ca.crt'), 'utf8'), token: readFileSync(join(root, 'a', 'tokens.csv'), 'utf8').split(',')[0] };
        const started = await Promise.allSettled(['a', 'b', 'c'].map(async (name) => ({ name, dataDir: join(root, name), process: await start(join(root, name)), generation: 1, writesInFlight: 0 })));
        for (const outcome of started) if (outcome.status === 'fulfilled') replicas.push(outcome.value);
        const failed = started.find((outcome) => outcome.status === 'rejected');
        if (failed) throw failed.reason;
      }, 180_000);

      afterAll(async () => {
        // The servers are removed after this hook: the replicas are stopped while they run.
        await database().primary().start();
        for (const started of processes) {
          const { child } = started;
          if (child.exitCode !== null || child.signalCode !== null) continue;
          child.kill('SIGCONT'); // a stopped process would not act on SIGTERM
          child.kill('SIGTERM');
          let timer: NodeJS.Timeout | undefined;
          const stopped = await Promise.race([started.exited.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 10_000)))]);
          clearTimeout(timer);
          if (!stopped) {
            child.kill('SIGKILL');
            await started.exited;
          }
        }
        rmSync(root, { recursive: true, force: true });
        removeBuild();
      }, 60_000);

      it(
        `a history of reads and compare-and-sets on ${KEYS.length} Services through 3 replicas, while replicas freeze and die and PostgreSQL restarts and fails over, is linearizable (${LOAD_SECONDS ? `${LOAD_SECONDS} s` : 'one round of faults'})`,
        async () => {
          const began = performance.now();
          const now = () => performance.now() - began;
          const history: Operation[] = [];
          const initial: Record<string, string> = {};
          const anomalies: string[] = [];
          const faults: Fault[] = [];

          for (const key of KEYS) {
            const value = `${key}-initial`;
            const created = await call(replicas[0], 'PUT', path(key), {
              metadata: { name: key, namespace: NAMESPACE, annotations: { [ANNOTATION]: value } },
              spec: { type: 'ClusterIP', ports: [{ port: 80 }] },
            });
            expect('status' in created ? [created.status, created.json?.metadata?.annotations?.[ANNOTATION]] : created).toEqual([201, value]);
            initial[key] = value;
          }

          /** Invocation of the latest compare-and-set that took effect. */
          let lastWriteInvokedAt = Number.NEGATIVE_INFINITY;
          const note = (replica: Replica, answer: Answer) => `${replica.name}#${replica.generation} ${'status' in answer ? answer.status : answer.error}`;

          /** A GET: the value read (ok), a refusal (fail) or no answer (unknown); returns the object when read. */
          const read = async (client: number | string, key: string, among: Replica[] = replicas): Promise<any> => {
            const replica = pick(among);
            const invokedAt = now();
            const answer = await call(replica, 'GET', path(key));
            const completedAt = now();
            const base = { type: 'read' as const, key, client, invokedAt, completedAt, note: note(replica, answer) };
            if ('status' in answer && answer.status === 200) {
              history.push({ ...base, outcome: 'ok', value: answer.json?.metadata?.annotations?.[ANNOTATION] });
              return answer.json;
            }
            // Services are never deleted: a 404 is a read of "absent", for the checker to judge.
            if ('status' in answer && answer.status === 404 && answer.json?.reason === 'NotFound') history.push({ ...base, outcome: 'ok', value: undefined });
            else history.push({ ...base, outcome: 'status' in answer || !answer.delivered ? 'fail' : 'unknown' });
            if ('status' in answer && answer.status < 500 && answer.status !== 404) anomalies.push(`GET ${key} on ${note(replica, answer)}: ${answer.text.slice(0, 300)}`);
            return undefined;
          };

          /** A PUT of the object read, with a new value, conditional on the resourceVersion read. */
          const compareAndSet = async (client: number | string, key: string, object: any, value: string, among: Replica[] = replicas): Promise<void> => {
            const replica = pick(among);
            const expected = object.metadata?.annotations?.[ANNOTATION];
            const body = { ...object, metadata: { ...object.metadata, annotations: { ...object.metadata.annotations, [ANNOTATION]: value } } };
            const invokedAt = now();
            const answer = await call(replica, 'PUT', path(key), body);
            const completedAt = now();
            const base = { type: 'cas' as const, key, client, expected, value, invokedAt, note: note(replica, answer) };
            if (!('status' in answer)) {
              history.push({ ...base, completedAt: answer.delivered ? Number.POSITIVE_INFINITY : completedAt, outcome: answer.delivered ? 'unknown' : 'fail' });
              return;
            }
            const { status, json } = answer;
            if (status === 200) {
              history.push({ ...base, completedAt, outcome: 'ok', succeeded: true });
              lastWriteInvokedAt = Math.max(lastWriteInvokedAt, invokedAt);
              if (json?.metadata?.annotations?.[ANNOTATION] !== value) anomalies.push(`PUT ${key} on ${note(replica, answer)} answered another value: ${answer.text.slice(0, 300)}`);
            } else if (status === 409 && json?.reason === 'Conflict') {
              history.push({ ...base, completedAt, outcome: 'ok', succeeded: false });
            } else if (status === 500 && json?.reason === 'InternalError' && /the write was not stored/.test(json?.message ?? '')) {
              // WriteNotStoredError: the server says the transaction holding it was rolled back.
              history.push({ ...base, completedAt, outcome: 'fail' });
            } else {
              // ServerTimeout, "may or may not have been stored", anything else: it may have taken effect.
              history.push({ ...base, completedAt: Number.POSITIVE_INFINITY, outcome: 'unknown' });
              if (status < 500) anomalies.push(`PUT ${key} on ${note(replica, answer)}: ${answer.text.slice(0, 300)}`);
            }
          };

          let loadOver = false;
          const clients = Array.from({ length: CLIENTS }, async (_, client) => {
            for (let seq = 0; !loadOver; seq++) {
              const key = pick(KEYS);
              const object = await read(client, key);
              if (object === undefined) {
                await sleep(25); // a replica down answers at once: do not spin
                continue;
              }
              if (Math.random() < 0.6) await compareAndSet(client, key, object, `c${client}-${seq}`);
            }
          });

          // ---- the faults ----
          const fault = (name: string, replica?: Replica): Fault => {
            const record: Fault = { name, replica: replica?.name, startedAt: now(), endedAt: Number.NaN };
            faults.push(record);
            return record;
          };
          /** Waits (a second at most) until a PUT reached one of `targets`, then a random few ms: a fault then hits a write in progress. */
          const whileWriting = async (targets: Replica[]): Promise<string> => {
            const inFlight = () => targets.reduce((n, r) => n + r.writesInFlight, 0);
            for (let i = 0; i < 500 && inFlight() === 0; i++) await sleep(2);
            await sleep(Math.random() * 15);
            return `${inFlight()} write(s) in flight to it`;
          };
          /**
           * While a replica is frozen or dead, one more client reads and writes through the others
           * only (its operations are part of the history): whether they go on serving writes is
           * measured by it, not by clients that are busy waiting for the victim.
           */
          let probes = 0;
          const probe = (victim: Replica): (() => Promise<void>) => {
            let stop = false;
            const name = `probe-${++probes}`;
            const others = replicas.filter((r) => r !== victim);
            const running = (async () => {
              for (let seq = 0; !stop; seq++) {
                const key = pick(KEYS);
                const object = await read(name, key, others);
                if (object === undefined) await sleep(25);
                else if (!stop) await compareAndSet(name, key, object, `${name}-${seq}`, others);
              }
            })();
            return async () => {
              stop = true;
              await running;
            };
          };
          const freeze = async (replica: Replica) => {
            // Frozen while it is writing (a GC pause or a stopped VM mid-transaction).
            const writing = await whileWriting([replica]);
            const record = fault('freeze (SIGSTOP)', replica);
            record.detail = writing;
            const { child } = replica.process;
            child.kill('SIGSTOP');
            record.probe = `probe-${probes + 1}`;
            const stopProbe = probe(replica);
            try {
              for (let i = 0; i < 50 && processState(child.pid!) !== 'T'; i++) await sleep(20);
              const state = processState(child.pid!);
              if (state === 'T') record.proof = `pid ${child.pid} stopped (state T)`;
              else record.failure = `pid ${child.pid} state ${state} after SIGSTOP`;
              await sleep(FREEZE_MS);
            } finally {
              child.kill('SIGCONT');
              record.endedAt = now();
              await stopProbe();
            }
          };
          const killAndRestart = async (replica: Replica) => {
            const writing = await whileWriting([replica]);
            const record = fault('kill -9 and restart', replica);
            record.detail = writing;
            const old = replica.process;
            old.child.kill('SIGKILL');
            record.probe = `probe-${probes + 1}`;
            const stopProbe = probe(replica);
            const { signal } = await old.exited;
            await sleep(500);
            try {
              replica.process = await start(replica.dataDir);
              replica.generation++;
              const ready = await call(replica, 'GET', '/readyz');
              if (signal === 'SIGKILL' && 'status' in ready && ready.status === 200) record.proof = `exited on ${signal}; serving again at ${replica.process.url}`;
              else record.failure = `exit signal ${signal}; restarted /readyz: ${JSON.stringify(ready).slice(0, 200)}`;
            } catch (error) {
              record.failure = `could not restart: ${(error as Error).message.slice(0, 500)}`;
            }
            record.endedAt = now();
            await stopProbe();
          };
          const terminateBackends = async () => {
            const record = fault('terminate PostgreSQL backends');
            let terminated = 0;
            try {
              // Three times, a moment apart: backends mid-transaction and mid-COMMIT, the fresh ones too.
              for (let round = 0; round < 3; round++) {
                await whileWriting(replicas);
                // PostgreSQL may still be coming back from the restart fault.
                let admin: Client;
                for (let attempt = 1; ; attempt++) {
                  admin = new Client({ connectionString: database().primary().url });
                  admin.on('error', () => undefined);
                  try {
                    await admin.connect();
                    break;
                  } catch (error) {
                    if (attempt >= 20) throw error;
                    await sleep(500);
                  }
                }
                try {
                  const { rows } = await admin.query<{ n: number }>(
                    // The replicas' sessions (autovacuum's are not ours to end). MATERIALIZED: the planner
                    // would otherwise run pg_terminate_backend on every backend before filtering by database.
                    `WITH targets AS MATERIALIZED (SELECT pid FROM pg_stat_activity WHERE datname = $1 AND usename = current_user AND pid <> pg_backend_pid())
                 SELECT (count(*) FILTER (WHERE pg_terminate_backend(pid)))::int AS n FROM targets`,
                    ['postgres'],
                  );
                  terminated += rows[0].n;
                } finally {
                  await admin.end().catch(() => undefined);
                }
                await sleep(300);
              }
              if (terminated > 0) record.proof = `${terminated} backends terminated`;
              else record.failure = 'no backend to terminate';
            } catch (error) {
              record.failure = (error as Error).message;
            }
            record.endedAt = now();
          };
          const restartPostgres = async () => {
            const record = fault('PostgreSQL restart');
            const primary = database().primary();
            let wasDown = false;
            try {
              await primary.stop();
              wasDown = !primary.ready();
              await sleep(1_500);
            } catch (error) {
              record.failure = `stopping it: ${(error as Error).message}`;
            } finally {
              await primary.start();
              if (wasDown && primary.ready()) record.proof = 'stopped (pg_isready refused), then accepting connections again';
              else record.failure ??= `down after stop: ${wasDown}; up after start: ${primary.ready()}`;
              record.endedAt = now();
            }
          };
          /** The primary killed while replicas write, the synchronous standby promoted; the fault ends when it accepts writes. */
          const failover = async () => {
            await whileWriting(replicas);
            const record = fault('PostgreSQL failover');
            const old = database().primary();
            try {
              await database().failover('killed');
              const promoted = database().primary();
              if (promoted !== old && promoted.ready() && !old.running()) record.proof = `primary on ${old.port} killed, standby on ${promoted.port} promoted`;
              else record.failure = `primary still on ${promoted.port}, old one running: ${old.running()}`;
            } catch (error) {
              record.failure = (error as Error).message;
            }
            record.endedAt = now();
          };

          /** Waits until a write invoked after the fault took effect (at most RECOVERY_MS), then a steady moment. */
          const settle = async () => {
            const endedAt = faults[faults.length - 1].endedAt;
            while (now() < endedAt + RECOVERY_MS && lastWriteInvokedAt < endedAt) await sleep(50);
            await sleep(STEADY_MS);
          };
          const faultRounds = (async () => {
            try {
              await sleep(STEADY_MS);
              for (let round = 0; ; round++) {
                const roundStart = now();
                await freeze(replicas[round % 3]);
                await settle();
                await killAndRestart(replicas[(round + 2) % 3]);
                await settle();
                await terminateBackends();
                await settle();
                await restartPostgres();
                await settle();
                await failover();
                await settle();
                // A standby again (synchronous once it streams) for the next round's failover.
                await database().rebuildStandby();
                // Another round while one as long as this one fits.
                if (now() + (now() - roundStart) > LOAD_SECONDS * 1000) return;
              }
            } finally {
              loadOver = true;
            }
          })();

          // Every client and the faults end before anything else happens (none rejects but by a bug here).
          const ended = await Promise.allSettled([faultRounds, ...clients]);
          await database().primary().start();
          for (const replica of replicas) replica.process.child.kill('SIGCONT');
          for (const outcome of ended) if (outcome.status === 'rejected') throw outcome.reason;
          // A final read of every key on every replica, once everything is back.
          await sleep(500);
          for (const key of KEYS)
            for (const replica of replicas) {
              const invokedAt = now();
              const answer = await call(replica, 'GET', path(key));
              const completedAt = now();
              if ('status' in answer && answer.status === 200) {
                history.push({ type: 'read', key, client: 'final', invokedAt, completedAt, outcome: 'ok', value: answer.json?.metadata?.annotations?.[ANNOTATION], note: note(replica, answer) });
              } else anomalies.push(`final GET ${key} on ${note(replica, answer)}: ${'status' in answer ? answer.text.slice(0, 300) : ''}`);
            }
          // A replica that is gone says why: its exit and the end of what it logged (warnings and errors).
          for (const replica of replicas) {
            const exit = replica.process.child.exitCode ?? replica.process.child.signalCode;
            if (exit !== null) anomalies.push(`${replica.name} exited (${exit}) during the run; its log ends: ${replica.process.stdout().slice(-1500)} ${replica.process.stderr().slice(-1500)}`);
          }
          const runMs = now();

          const checkStarted = performance.now();
          const result = checkLinearizability(history, { initial });
          const checkMs = performance.now() - checkStarted;

          // ---- the summary ----
          const count = (filter: (op: Operation) => boolean) => history.filter(filter).length;
          const outcomes = (type: Operation['type']) => {
            const of = history.filter((op) => op.type === type);
            if (type !== 'cas') return ['ok', 'fail', 'unknown'].map((o) => `${o} ${of.filter((op) => op.outcome === o).length}`).join(', ');
            const cas = of as CasOperation[];
            return `took effect ${cas.filter((op) => op.outcome === 'ok' && op.succeeded).length}, conflict ${cas.filter((op) => op.outcome === 'ok' && !op.succeeded).length}, not stored ${cas.filter((op) => op.outcome === 'fail').length}, unknown ${cas.filter((op) => op.outcome === 'unknown').length}`;
          };
          const casOk = history.filter((op): op is CasOperation => op.type === 'cas' && op.outcome === 'ok' && op.succeeded === true);

          // Availability while a replica is frozen or dead, and recovery after each fault.
          const problems: string[] = [];
          const faultLines = faults.map((f) => {
            const window = `${(f.startedAt / 1000).toFixed(1)}–${(f.endedAt / 1000).toFixed(1)} s`;
            if (!f.proof) problems.push(`fault "${f.name}"${f.replica ? ` on ${f.replica}` : ''} at ${window} did not happen as planned: ${f.failure}`);
            const during = history.filter((op) => op.invokedAt >= f.startedAt && op.invokedAt < f.endedAt);
            const byOutcome = ['ok', 'fail', 'unknown'].map((o) => `${o} ${during.filter((op) => op.outcome === o).length}`).join(', ');
            let line = `${f.name}${f.replica ? ` ${f.replica}` : ''} ${window}: ${f.proof ?? `FAILED (${f.failure})`}${f.detail ? `, ${f.detail}` : ''}; ops invoked meanwhile: ${byOutcome}`;
            if (f.probe) {
              const probed = history.filter((op): op is CasOperation => op.type === 'cas' && op.client === f.probe && op.invokedAt < f.endedAt);
              const tookEffect = probed.filter((op) => op.outcome === 'ok' && op.succeeded && op.completedAt <= f.endedAt);
              const tally = `${tookEffect.length} took effect in time, ${probed.length - tookEffect.length} did not (${['ok', 'fail', 'unknown'].map((o) => `${o} ${probed.filter((op) => op.outcome === o).length}`).join(', ')})`;
              line += `; writes through the other replicas meanwhile: ${tally}`;
              if (tookEffect.length === 0) {
                problems.push(
                  `while ${f.replica} was down (${f.name}, ${window}) no write through the other replicas took effect: ${tally}` +
                    (probed.length
                      ? `, e.g. ${probed
                          .slice(0, 3)
                          .map(
                            (op) =>
                              `${op.note}${op.outcome === 'ok' ? ` after ${Math.round(op.completedAt - op.invokedAt)} ms, ${Math.round(op.completedAt - f.endedAt)} ms after ${f.replica} was back` : ''}`,
                          )
                          .join('; ')}`
                      : ''),
                );
              }
            }
            const after = casOk.filter((op) => op.invokedAt >= f.endedAt).map((op) => op.completedAt - f.endedAt);
            const recoveryMs = after.length ? Math.min(...after) : undefined;
            line += `; first write after it completed ${recoveryMs === undefined ? 'never' : `${Math.round(recoveryMs)} ms after its end`}`;
            if (recoveryMs === undefined || recoveryMs > RECOVERY_MS) {
              problems.push(`after "${f.name}"${f.replica ? ` on ${f.replica}` : ''} (ended ${(f.endedAt / 1000).toFixed(1)} s) no write completed within ${RECOVERY_MS} ms`);
            }
            return line;
          });
          const verdict =
            result.ok === true ? `linearizable (${result.operations} operations, ${result.steps} steps)` : result.ok === false ? `NOT LINEARIZABLE on ${result.key}` : `unknown (${result.reason})`;
          console.log(
            [
              `linearizable-replicas: ${(runMs / 1000).toFixed(1)} s of load, ${faults.length} faults, ${CLIENTS} clients, ${KEYS.length} keys, ${history.length} operations`,
              `  reads: ${outcomes('read')}`,
              `  compare-and-sets: ${outcomes('cas')}`,
              ...faultLines.map((line) => `  fault: ${line}`),
              `  checker: ${verdict} in ${Math.round(checkMs)} ms`,
              ...(anomalies.length ? [`  anomalies: ${anomalies.length}`, ...anomalies.slice(0, 10).map((a) => `    ${a}`)] : []),
            ].join('\n'),
          );

          if (result.ok !== true) {
            const file = join(tmpdir(), `svctrail-linearizable-history-${process.pid}-${Date.now()}.json`);
            writeFileSync(
              file,
              JSON.stringify({ initial, faults, history }, (_, v) => (v === Number.POSITIVE_INFINITY ? 'Infinity' : v)),
            );
            problems.unshift(
              result.ok === false
                ? `the history is not linearizable (history written to ${file}):\n${result.explanation}`
                : `the checker could not decide (${result.reason}); history written to ${file}`,
            );
          }
          const readsOk = count((op) => op.type === 'read' && op.outcome === 'ok');
          // Far below what a healthy run does (about 10 per second through the faults).
          const minimumWrites = Math.max(30, Math.round(runMs / 1000));
          if (casOk.length < minimumWrites) problems.push(`only ${casOk.length} compare-and-sets took effect (at least ${minimumWrites} expected)`);
          if (readsOk < 2 * minimumWrites) problems.push(`only ${readsOk} reads completed (at least ${2 * minimumWrites} expected)`);
          for (const name of ['freeze (SIGSTOP)', 'kill -9 and restart', 'terminate PostgreSQL backends', 'PostgreSQL restart', 'PostgreSQL failover']) {
            if (!faults.some((f) => f.name === name)) problems.push(`fault "${name}" never ran (load too short?)`);
          }
          problems.push(...anomalies.map((a) => `unexpected answer: ${a}`));
          // Thrown as text: the explanation reads better unquoted.
          if (problems.length) throw new Error(`${problems.length} problem(s):\n\n${problems.join('\n\n')}`);
        },
        LOAD_SECONDS * 1000 + 240_000,
      );
    },
  );
