/**
 * Checkpoints the database's WAL on a worker thread, so that no write on the main thread pays for one.
 *
 * Why: SQLite's automatic checkpoint runs inside whichever commit pushes the WAL past 1,000 pages. That
 * commit copies the WAL's pages back into the database file and fsyncs both files: 4–21 ms measured on
 * the bench machine, blocking the main thread in the middle of a streamed answer's checkpoint or a tool
 * call's write-ahead audit row. Here the main connection's automatic checkpoint is off and a worker with
 * its own connection runs a PASSIVE checkpoint (it never blocks a writer) every `intervalMs`. The first
 * write on the main connection after a complete checkpoint starts the WAL over from its beginning, so
 * the file stays bounded by roughly one interval's writes.
 *
 * Durability is unchanged: commits are as durable as their `synchronous` level made them, and the
 * worker's connection runs its checkpoints with `synchronous=FULL` (the WAL is synced before pages are
 * copied, the database after). If the worker cannot start or stops, the main connection goes back to
 * automatic checkpoints (`onFallback` says so) — slower writes now and then, never an unbounded WAL.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { WorkerThread } from '../worker-thread';

export interface WalCheckpointerOptions {
  /** The database file the main connection has open (WAL mode). */
  file: string;
  /** better-sqlite3's native binding, when the app ships its own build (Electron). */
  nativeBinding?: string;
  /** Between checkpoints (default 1,000 ms). */
  intervalMs?: number;
  /** The worker could not start or stopped: automatic checkpoints are back on, with the reason. */
  onFallback?(reason: string): void;
}

/** What a checkpoint reported: WAL frames in the log, and how many of them are now in the database. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** SQLite's default `wal_autocheckpoint`: what the main connection returns to without the worker. */
const AUTOCHECKPOINT_PAGES = 1000;

/** The worker's source (its life is `WorkerThread`'s); it requires better-sqlite3 by the absolute path the main thread resolved. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true, nativeBinding: workerData.nativeBinding });
  db.pragma('synchronous = FULL');
} catch (error) {
  parentPort.postMessage({ type: 'failed', message: 'it cannot open the database: ' + String(error && error.message) });
  process.exit(1);
}
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
const timer = setInterval(() => {
  try { checkpoint(); } catch (error) { parentPort.postMessage({ type: 'failed', message: 'a checkpoint failed: ' + String(error && error.message) }); }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message.type === 'checkpoint') {
    try { parentPort.postMessage({ type: 'checkpointed', id: message.id, result: checkpoint() }); }
    catch (error) { parentPort.postMessage({ type: 'checkpointed', id: message.id, error: String(error && error.message) }); }
  } else if (message.type === 'close') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
parentPort.postMessage({ type: 'ready' });
`;

type WorkerMessage =
  { type: 'ready' } | { type: 'failed'; message: string } | { type: 'checkpointed'; id: number; result?: CheckpointResult; error?: string };

export class WalCheckpointer {
  private readonly thread: WorkerThread<CheckpointResult>;
  private state: 'starting' | 'running' | 'fallback' | 'closed' = 'starting';

  constructor(
    private readonly db: Database.Database,
    private readonly options: WalCheckpointerOptions,
  ) {
    // Off from the start: a checkpoint that the worker would do anyway must not also run on a commit here.
    db.pragma('wal_autocheckpoint = 0');
    this.thread = new WorkerThread({
      name: 'the checkpoint worker',
      source: WORKER_SOURCE,
      workerData: () => ({
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        file: options.file,
        nativeBinding: options.nativeBinding,
        intervalMs: options.intervalMs ?? 1000,
      }),
      // Not started again: the main connection's automatic checkpoints take over instead.
      maxRestarts: 0,
      onMessage: (message) => this.onMessage(message as WorkerMessage),
      onStopped: (reason) => this.fallBack(reason),
    });
    this.thread.start();
  }

  /** `running` once the worker has its connection; `fallback` when checkpoints are automatic again. */
  get status(): 'starting' | 'running' | 'fallback' | 'closed' {
    return this.state;
  }

  /** Runs a checkpoint now, on the worker, and says how far it got (tests use it to wait for one). */
  checkpointNow(): Promise<CheckpointResult> {
    if (this.state === 'fallback' || this.state === 'closed') {
      return Promise.reject(new Error(`The checkpoint worker is ${this.state === 'closed' ? 'closed' : 'not running'}`));
    }
    const { id, answer } = this.thread.expect();
    this.thread.post({ type: 'checkpoint', id });
    return answer;
  }

  /**
   * Stops the worker (its last checkpoint finishes first) and gives the main connection its automatic
   * checkpoints back, so the WAL is still looked after until that connection closes.
   */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    await this.thread.close('The checkpoint worker closed', { type: 'close' });
  }

  private onMessage(message: WorkerMessage): void {
    if (message.type === 'ready') {
      if (this.state === 'starting') this.state = 'running';
    } else if (message.type === 'failed') {
      this.thread.stop(`the checkpoint worker stopped: ${message.message}`);
    } else {
      this.thread.answer(message.id, message.error !== undefined ? new Error(message.error) : (message.result as CheckpointResult));
    }
  }

  private fallBack(reason: string): void {
    if (this.state === 'fallback' || this.state === 'closed') return;
    this.state = 'fallback';
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    this.options.onFallback?.(reason);
  }
}
