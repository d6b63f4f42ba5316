/**
 * Tokenizes on a worker thread, so that the host's thread never pays for it.
 *
 * Why: building the o200k_base encoder (gpt-tokenizer) loads and indexes 200,000 ranks — about half a
 * second of CPU, several on a busy machine, during which no IPC call and no server's message would be
 * answered if it ran on the host's thread. Here the worker builds it once, when the first count is
 * asked for, and every count after that is one message each way (the counts a measure asks for in one
 * turn of the event loop travel together).
 *
 * As in `wal-checkpointer.ts`, the worker's source is evaluated (`eval: true`) rather than loaded from a
 * file, so it runs the same under tsx, vitest, the electron-vite bundle and a packaged app; it requires
 * gpt-tokenizer's CommonJS encoding by the absolute path the host resolved (electron-vite keeps dependencies
 * external, so they are in `node_modules` at run time, in web mode and in Electron alike).
 *
 * If the module is missing or the worker stops, every waiting count fails with the reason (the meter
 * then says "Tokens not counted") and the next count starts a new worker.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface TokenizerWorkerOptions {
  /** The worker's source; tests give one that fails, or one that waits before it tokenizes. */
  source?: string;
}

/** A text to count, already cut into pieces the encoder handles quickly (`splitLongRuns`). */
interface CountRequest {
  id: number;
  parts: string[];
}

type CountResult = { id: number; tokens: number } | { id: number; error: string };

/** Builds the encoder, then answers each batch of counts with one batch of results. */
export const TOKENIZER_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { encode } = require(workerData.encoding);
// Text that happens to spell a special token ("<|endoftext|>") is counted as the text it is, not refused.
const asText = { disallowedSpecial: new Set() };
parentPort.on('message', (batch) => {
  parentPort.postMessage(batch.map(({ id, parts }) => {
    try {
      let tokens = 0;
      for (const part of parts) tokens += encode(part, asText).length;
      return { id, tokens };
    } catch (error) {
      return { id, error: String((error && error.message) || error) };
    }
  }));
});
`;

export class TokenizerWorker {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, { resolve(tokens: number): void; reject(error: Error): void }>();
  private queued: CountRequest[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: TokenizerWorkerOptions = {}) {}

  /** Tokens of a text, given as its pieces; the worker starts on the first call. */
  count(parts: string[]): Promise<number> {
    if (this.closed) return Promise.reject(notCounted('Patchbay is closing'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      if (this.queued.length === 0) setImmediate(() => this.send());
      this.queued.push({ id, parts });
    });
  }

  /** Stops the worker; counts still waiting fail. */
  async dispose(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.rejectWaiting(notCounted('Patchbay is closing'));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private send(): void {
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0 || this.closed) return;
    let worker: Worker;
    try {
      worker = this.worker ?? this.start();
    } catch (error) {
      this.fail(undefined, `the tokenizer could not start (${messageOf(error)})`);
      return;
    }
    // Answers are awaited: keep the process alive until they come.
    worker.ref();
    worker.postMessage(batch);
  }

  private start(): Worker {
    const resolve = createRequire(import.meta.url).resolve;
    const worker = new Worker(this.options.source ?? TOKENIZER_WORKER_SOURCE, {
      eval: true,
      workerData: { encoding: resolve('gpt-tokenizer/cjs/encoding/o200k_base') },
    });
    worker.on('message', (results: CountResult[]) => this.onResults(worker, results));
    worker.on('error', (error: unknown) => this.fail(worker, `the tokenizer failed (${messageOf(error)})`));
    worker.on('exit', (code) => this.fail(worker, `the tokenizer stopped (exit code ${code})`));
    this.worker = worker;
    return worker;
  }

  private onResults(worker: Worker, results: CountResult[]): void {
    for (const result of results) {
      const waiter = this.waiting.get(result.id);
      this.waiting.delete(result.id);
      if ('error' in result) waiter?.reject(notCounted(`the tokenizer failed (${result.error})`));
      else waiter?.resolve(result.tokens);
    }
    // Nothing awaited: an idle worker never keeps the app from quitting.
    if (this.waiting.size === 0 && this.queued.length === 0) worker.unref();
  }

  /** The worker is gone (or never started): what waits fails, and the next count starts a new one. */
  private fail(worker: Worker | undefined, reason: string): void {
    if (worker !== this.worker || this.closed) return;
    this.worker = undefined;
    void worker?.terminate();
    this.rejectWaiting(notCounted(reason));
  }

  private rejectWaiting(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    this.queued = [];
  }
}

function notCounted(reason: string): Error {
  return new Error(`Tokens were not counted: ${reason}. The meter tries again on the next change; if this persists, restart Patchbay.`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
