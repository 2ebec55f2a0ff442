// WAL checkpoints off the main thread. SQLite's automatic checkpoint runs inside the COMMIT that
// crosses the threshold, on the thread that committed — here the event loop, where it stalls
// every request queued behind it. Instead the main connection never checkpoints
// (wal_autocheckpoint=0) and a worker thread with its own connection runs PASSIVE checkpoints,
// which never block writers and copy only frames no reader still needs.
//
// The WAL must stay short. SQLite starts it over from the top only at a write that finds every
// frame copied back; while checkpoints lag, it grows, and a burst of writes leaves hundreds of
// MB behind that the checkpointer then copies back with its own fsyncs while every commit waits
// on one too (the slow-after-burst effect). So the worker checkpoints every 100 ms, and at once
// again while the previous checkpoint left frames behind; a WAL that did grow is truncated back
// to WAL_SIZE_LIMIT when it starts over (journal_size_limit).
//
// An idle server needs no checkpoints, and a worker thread costs its own isolate (about 15 MB
// resident). So a worker parks once nothing has written to the WAL file for PARK_AFTER_MS and
// its last checkpoint copied every frame: it closes its connection and exits. While it is
// parked the main thread looks at the WAL file's size and modification time every interval (a
// stat, no SQLite) and starts a worker again as soon as any connection has written to it, or
// when a checkpoint is requested.
//
// Since nothing else checkpoints, a silent failure here would let the WAL grow without limit:
// every failure is logged and reported to the observer (/metrics), and the worker is replaced
// (a failed checkpoint may mean a broken connection) after a delay that doubles up to 30 s while
// it keeps failing — which also keeps a lasting failure from logging every second.
import { Logger } from '@nestjs/common';
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { DatabaseHandle } from './database';

export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** Where a checkpoint failed: in `wal_checkpoint` itself, or the worker thread died. */
export type CheckpointFailureStage = 'checkpoint' | 'worker';

export interface CheckpointObserver {
  checkpointFailed(stage: CheckpointFailureStage): void;
}

export interface WalCheckpointerOptions {
  intervalMs?: number;
  /** How long nothing writes to the WAL (and nothing is left to copy) before the worker parks. */
  parkAfterMs?: number;
  /** First delay before a dead worker is started again; doubles up to MAX_RESTART_DELAY_MS. */
  restartDelayMs?: number;
  observer?: CheckpointObserver;
}

const MAX_RESTART_DELAY_MS = 30_000;
const PARK_AFTER_MS = 5_000;

/** Bytes a WAL file keeps on disk when it starts over (it may grow past it during a burst). */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.path, { fileMustExist: true });
  db.pragma('busy_timeout = 1000');
} catch (error) {
  // A SqliteError crosses to the parent without its message; a plain Error keeps it.
  throw new Error(String(error));
}
const run = (requested) => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ...row, requested });
    return row;
  } catch (error) {
    parentPort.postMessage({ error: String(error), requested });
  }
};
let timer;
let copied = -1;
// What changes whenever a connection writes to the WAL file (a checkpoint does not write it).
const walStamp = () => {
  const stat = statSync(workerData.path + '-wal', { bigint: true, throwIfNoEntry: false });
  return stat ? stat.size + ':' + stat.mtimeNs + ':' + stat.ino : '';
};
let stamp = walStamp();
let idleSince = Date.now();
const tick = () => {
  const row = run(false);
  const now = walStamp();
  if (!row || row.log > row.checkpointed || now !== stamp) {
    stamp = now;
    idleSince = Date.now();
  } else if (Date.now() - idleSince >= workerData.parkAfterMs) {
    // Nothing to copy for a while: park (the parent starts a worker again when the WAL changes).
    parentPort.postMessage({ parked: true });
    db.close();
    parentPort.close();
    return;
  }
  // Still behind but moving (this checkpoint copied frames the last one had not): go again
  // right away. Frames a reader holds back are not worth a spin: wait for the next interval.
  const progressed = row && row.checkpointed > copied && row.log > row.checkpointed;
  copied = row && row.log > row.checkpointed ? row.checkpointed : -1;
  timer = setTimeout(tick, progressed ? 1 : workerData.intervalMs);
};
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'now') run(true);
  if (m === 'stop') { clearTimeout(timer); db.close(); parentPort.close(); }
});
parentPort.postMessage({ ready: true });
`;

interface Pending {
  resolve(result: CheckpointResult): void;
  reject(error: Error): void;
}

type WorkerMessage = Partial<CheckpointResult> & { error?: string; ready?: boolean; parked?: boolean; requested?: boolean };

/** What changes whenever a connection writes to the WAL file (the worker's own test, restated). */
function walStamp(walPath: string): string {
  const stat = statSync(walPath, { bigint: true, throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeNs}:${stat.ino}` : '';
}

export class WalCheckpointer {
  private readonly logger = new Logger(WalCheckpointer.name);
  private readonly intervalMs: number;
  private readonly firstRestartDelayMs: number;
  private readonly parkAfterMs: number;
  /** Set while the worker is parked: the main thread's look at the WAL file. */
  private parkedWatch?: NodeJS.Timeout;
  private readonly observer?: CheckpointObserver;
  private worker?: Worker;
  /** The worker has opened the database and takes requests. */
  private ready = false;
  private stopping = false;
  private restartDelayMs: number;
  private restartTimer?: NodeJS.Timeout;
  /** Requests sent to the worker, answered in order. */
  private sent: Pending[] = [];
  /** Requests made while no worker was ready, sent when the next one is. */
  private queued: Pending[] = [];
  lastResult?: CheckpointResult;
  failures = 0;

  constructor(
    handle: DatabaseHandle,
    private readonly path: string,
    options: WalCheckpointerOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 100;
    this.firstRestartDelayMs = this.restartDelayMs = options.restartDelayMs ?? 1000;
    this.parkAfterMs = options.parkAfterMs ?? PARK_AFTER_MS;
    this.observer = options.observer;
    handle.sqlite.pragma('wal_autocheckpoint = 0');
    handle.sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    this.start();
  }

  /** Runs one checkpoint now and resolves with its result (for tests and shutdown). */
  checkpointNow(): Promise<CheckpointResult> {
    if (this.stopping) return Promise.reject(new Error('the checkpointer is stopped'));
    return new Promise((resolve, reject) => {
      if (!this.ready) {
        this.queued.push({ resolve, reject });
        if (this.parked) this.unpark();
        return;
      }
      this.sent.push({ resolve, reject });
      this.worker!.postMessage('now');
    });
  }

  /** No worker runs: none was needed for a while, and the WAL has not changed since. */
  get parked(): boolean {
    return this.parkedWatch !== undefined;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    clearInterval(this.parkedWatch);
    this.parkedWatch = undefined;
    this.rejectAll(new Error('the checkpointer stopped'));
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    if (this.ready) worker.postMessage('stop');
    else await worker.terminate();
    await exited;
  }

  private start(): void {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.path, intervalMs: this.intervalMs, parkAfterMs: this.parkAfterMs, driver: require.resolve('better-sqlite3') },
    });
    this.worker = worker;
    worker.unref();
    let crash: unknown;
    let replaced = false;
    // The WAL as the worker left it when it parked.
    let parkedAt: string | undefined;
    worker.on('message', (m: WorkerMessage) => {
      if (m.ready) return this.workerReady();
      if (m.parked) {
        // Requests from now on wait for the next worker.
        this.ready = false;
        parkedAt = walStamp(`${this.path}-wal`);
        return;
      }
      // Periodic runs answer nobody; a requested one answers the oldest request.
      const requester = m.requested ? this.sent.shift() : undefined;
      if (m.error === undefined) {
        this.restartDelayMs = this.firstRestartDelayMs;
        this.lastResult = { busy: m.busy!, log: m.log!, checkpointed: m.checkpointed! };
        requester?.resolve(this.lastResult);
        return;
      }
      requester?.reject(new Error(m.error));
      if (replaced || this.stopping) return;
      replaced = true;
      this.failed('checkpoint', `WAL checkpoint failed (${m.error}); replacing the worker in ${this.restartDelayMs} ms`);
      void worker.terminate();
    });
    worker.on('error', (error) => (crash = error));
    worker.on('exit', (code) => {
      this.worker = undefined;
      this.ready = false;
      if (this.stopping) return;
      if (parkedAt !== undefined && crash === undefined) return this.park(parkedAt);
      // A worker's error arrives deserialised: not an instanceof this thread's Error.
      const reason = crash === undefined ? `exited with code ${code}` : String((crash as { message?: unknown }).message ?? JSON.stringify(crash));
      if (!replaced) this.failed('worker', `WAL checkpoint worker died (${reason}); restarting it in ${this.restartDelayMs} ms`);
      this.rejectAll(new Error(`the WAL checkpoint worker stopped: ${reason}`), true);
      this.restartTimer = setTimeout(() => this.start(), this.restartDelayMs);
      this.restartTimer.unref();
      this.restartDelayMs = Math.min(this.restartDelayMs * 2, MAX_RESTART_DELAY_MS);
    });
  }

  private park(parkedAt: string): void {
    // Requests sent after the worker decided to park were never read: the next worker takes them.
    this.queued.unshift(...this.sent.splice(0));
    if (this.queued.length) return this.start();
    const walPath = `${this.path}-wal`;
    this.parkedWatch = setInterval(() => {
      if (walStamp(walPath) !== parkedAt) this.unpark();
    }, this.intervalMs);
    this.parkedWatch.unref();
  }

  private unpark(): void {
    clearInterval(this.parkedWatch);
    this.parkedWatch = undefined;
    this.start();
  }

  private workerReady(): void {
    this.ready = true;
    for (const request of this.queued.splice(0)) {
      this.sent.push(request);
      this.worker!.postMessage('now');
    }
  }

  private failed(stage: CheckpointFailureStage, message: string): void {
    this.failures++;
    this.logger.error(message);
    this.observer?.checkpointFailed(stage);
  }

  private rejectAll(error: Error, keepQueued = false): void {
    for (const request of this.sent.splice(0)) request.reject(error);
    if (!keepQueued) for (const request of this.queued.splice(0)) request.reject(error);
  }
}
