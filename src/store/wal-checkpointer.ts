// WAL checkpoints off the main thread. SQLite's automatic checkpoint runs inside the COMMIT that
// crosses the threshold, on the thread that committed — here the event loop, where it stalls
// every request queued behind it. Instead the main connection never checkpoints
// (wal_autocheckpoint=0) and a worker thread with its own connection runs PASSIVE checkpoints,
// which never block writers and copy only frames no reader still needs.
import { Worker } from 'node:worker_threads';
import type { DatabaseHandle } from './database';

export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const run = () => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage(row);
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
};
const timer = setInterval(run, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'now') run();
  if (m === 'stop') { clearInterval(timer); db.close(); parentPort.close(); }
});
`;

export class WalCheckpointer {
  private readonly worker: Worker;
  lastResult?: CheckpointResult;
  private listeners: ((r: CheckpointResult) => void)[] = [];

  constructor(handle: DatabaseHandle, path: string, intervalMs = 1000) {
    handle.sqlite.pragma('wal_autocheckpoint = 0');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, intervalMs, driver: require.resolve('better-sqlite3') },
    });
    this.worker.unref();
    this.worker.on('message', (m: CheckpointResult & { error?: string }) => {
      if (m.error) return;
      this.lastResult = { busy: m.busy, log: m.log, checkpointed: m.checkpointed };
      for (const listener of this.listeners) listener(this.lastResult);
      this.listeners = [];
    });
  }

  /** Runs one checkpoint now and resolves with its result (for tests and shutdown). */
  checkpointNow(): Promise<CheckpointResult> {
    return new Promise((resolve) => {
      this.listeners.push(resolve);
      this.worker.postMessage('now');
    });
  }

  async stop(): Promise<void> {
    this.worker.postMessage('stop');
    await new Promise((resolve) => this.worker.once('exit', resolve));
  }
}
