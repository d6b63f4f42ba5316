/**
 * One worker thread's life, the same for each of the host's workers (the context meter's tokenizer,
 * the WAL checkpointer): started from its source, started again after it stops — at most
 * `maxRestarts` times in a row, so a worker that cannot start never spins —, terminated on close, and
 * every request still waiting failed with the reason in words the moment it stops. An idle worker never
 * keeps the process alive; one that owes an answer does.
 *
 * The source is evaluated (`eval: true`) rather than loaded from a file, so it runs the same under tsx,
 * vitest, the electron-vite bundle and a packaged app, none of which agree on where a compiled worker
 * file would be; it requires its packages by the absolute paths the host resolved (`workerData`).
 */
import { Worker } from 'node:worker_threads';

export interface WorkerThreadOptions {
  /** What the worker is, in messages: "the tokenizer" ("the tokenizer stopped (exit code 1)"). */
  name: string;
  source: string;
  /** Read at each start (resolving a module path may throw: the start then fails with that reason). */
  workerData(): unknown;
  /** Every message the worker posts; answers are passed on with `answer`, failures with `stop`. */
  onMessage(message: unknown): void;
  /** The worker stopped (waiting requests have failed already); `final` when it will not start again. */
  onStopped?(reason: string, final: boolean): void;
  /** How many times in a row (no answer in between) a stopped worker is started again, on the next post. Default 0. */
  maxRestarts?: number;
  /** The error a waiting request fails with (default: the reason as it is). */
  failure?(reason: string): Error;
}

export class WorkerThread<Answer> {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, { resolve(answer: Answer): void; reject(error: Error): void }>();
  private nextId = 1;
  /** Stops since the last answer; past `maxRestarts` the worker stays down, with this reason. */
  private stops = 0;
  private down: string | undefined;
  /** Why it closed, once it has. */
  private closed: string | undefined;

  constructor(private readonly options: WorkerThreadOptions) {}

  /** Starts the worker now (otherwise the first `post` does). */
  start(): void {
    this.current();
  }

  /** A new request: the id its message carries, and the answer the worker will give it (or the reason it will not). */
  expect(): { id: number; answer: Promise<Answer> } {
    const id = this.nextId++;
    const refused = this.closed ?? this.down;
    if (refused !== undefined) return { id, answer: Promise.reject(this.failure(refused)) };
    const answer = new Promise<Answer>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    return { id, answer };
  }

  /** Posts to the worker, starting it if needed; it is kept alive until every request has its answer. */
  post(message: unknown): void {
    if (this.closed !== undefined) return;
    const worker = this.current();
    if (!worker) return;
    if (this.waiting.size > 0) worker.ref();
    worker.postMessage(message);
  }

  /** The worker answered request `id` (an `Error` fails it). */
  answer(id: number, result: Answer | Error): void {
    const waiter = this.waiting.get(id);
    this.waiting.delete(id);
    this.stops = 0;
    if (result instanceof Error) waiter?.reject(result);
    else waiter?.resolve(result);
    if (this.waiting.size === 0) this.worker?.unref();
  }

  /** The worker is of no more use (it said it failed): terminated, as if it had stopped. */
  stop(reason: string): void {
    if (this.worker) this.stopped(this.worker, reason);
  }

  /**
   * Fails what waits with `reason`, then ends the worker: with `farewell` posted for it to close by
   * itself (awaited until it exits), else terminated.
   */
  async close(reason: string, farewell?: unknown): Promise<void> {
    if (this.closed !== undefined) return;
    this.closed = reason;
    this.failWaiting(reason);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    if (farewell === undefined) {
      await worker.terminate();
      return;
    }
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage(farewell);
    await exited;
  }

  private current(): Worker | undefined {
    if (this.worker || this.closed !== undefined || this.down !== undefined) return this.worker;
    try {
      const worker = new Worker(this.options.source, { eval: true, workerData: this.options.workerData() });
      worker.unref();
      worker.on('message', (message: unknown) => {
        if (worker === this.worker) this.options.onMessage(message);
      });
      worker.on('error', (error: unknown) => this.stopped(worker, `${this.options.name} failed (${messageOf(error)})`));
      worker.on('exit', (code) => this.stopped(worker, `${this.options.name} stopped (exit code ${code})`));
      this.worker = worker;
      return worker;
    } catch (error) {
      this.stopped(undefined, `${this.options.name} could not start (${messageOf(error)})`);
      return undefined;
    }
  }

  /** Only the current worker's first word counts: a worker already replaced or closed says nothing. */
  private stopped(worker: Worker | undefined, reason: string): void {
    if (worker !== this.worker || this.closed !== undefined) return;
    this.worker = undefined;
    void worker?.terminate();
    this.stops += 1;
    const final = this.stops > (this.options.maxRestarts ?? 0);
    if (final && this.stops > 1) this.down = `${reason}; it stopped ${this.stops} times in a row and is not started again`;
    else if (final) this.down = reason;
    this.failWaiting(reason);
    this.options.onStopped?.(reason, final);
  }

  private failWaiting(reason: string): void {
    const error = this.failure(reason);
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }

  private failure(reason: string): Error {
    return this.options.failure?.(reason) ?? new Error(reason);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
