/**
 * Tokenizes on a worker thread, so that the host's thread never pays for it.
 *
 * Why: building the o200k_base encoder (gpt-tokenizer) loads and indexes 200,000 ranks — about half a
 * second of CPU, several on a busy machine, during which no IPC call and no server's message would be
 * answered if it ran on the host's thread. Here the worker builds it once, when the first count is
 * asked for, and every count after that is one message each way (the counts a measure asks for in one
 * turn of the event loop travel together).
 *
 * Its life is `WorkerThread`'s (`core/worker-thread.ts`): it requires gpt-tokenizer's CommonJS encoding by
 * the absolute path the host resolved (electron-vite keeps dependencies external, so they are in
 * `node_modules` at run time, in web mode and in Electron alike).
 *
 * If the module is missing or the worker stops, every waiting count fails with the reason (the meter
 * then says "Tokens not counted") and the next count starts a new worker — up to `MAX_RESTARTS` times in
 * a row, after which counts fail at once with that reason.
 */
import { createRequire } from 'node:module';
import { WorkerThread } from '../worker-thread';

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

/** A worker that keeps stopping (a missing module, say) is started at most this many times more in a row. */
const MAX_RESTARTS = 3;

export class TokenizerWorker {
  private readonly thread: WorkerThread<number>;
  private queued: CountRequest[] = [];

  constructor(options: TokenizerWorkerOptions = {}) {
    this.thread = new WorkerThread({
      name: 'the tokenizer',
      source: options.source ?? TOKENIZER_WORKER_SOURCE,
      workerData: () => ({ encoding: createRequire(import.meta.url).resolve('gpt-tokenizer/cjs/encoding/o200k_base') }),
      maxRestarts: MAX_RESTARTS,
      onMessage: (results) => this.onResults(results as CountResult[]),
      onStopped: () => (this.queued = []),
      failure: notCounted,
    });
  }

  /** Tokens of a text, given as its pieces; the worker starts on the first call. */
  count(parts: string[]): Promise<number> {
    const { id, answer } = this.thread.expect();
    if (this.queued.length === 0) setImmediate(() => this.send());
    this.queued.push({ id, parts });
    return answer;
  }

  /** Stops the worker; counts still waiting fail. */
  async dispose(): Promise<void> {
    this.queued = [];
    await this.thread.close('Patchbay is closing');
  }

  /** The counts asked for in one turn of the event loop go as one message. */
  private send(): void {
    const batch = this.queued;
    this.queued = [];
    if (batch.length > 0) this.thread.post(batch);
  }

  private onResults(results: CountResult[]): void {
    for (const result of results) {
      this.thread.answer(result.id, 'error' in result ? notCounted(`the tokenizer failed (${result.error})`) : result.tokens);
    }
  }
}

function notCounted(reason: string): Error {
  return new Error(`Tokens were not counted: ${reason}. The meter tries again on the next change; if this persists, restart Patchbay.`);
}
