/**
 * A worker thread's life with real workers: answers, a crash that fails what waits in words and is
 * started again on the next request, a bound on restarts in a row, and close.
 */
import { describe, expect, it } from 'vitest';
import { WorkerThread } from './worker-thread';

/** Echoes `{ id, value }` back; `{ crash: true }` exits with code 3. */
const ECHO = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (message) => {
  if (message.crash) process.exit(3);
  parentPort.postMessage(message);
});
`;

function echo(options: { source?: string; maxRestarts?: number; stopped?: string[] } = {}) {
  const thread: WorkerThread<number> = new WorkerThread<number>({
    name: 'the echo worker',
    source: options.source ?? ECHO,
    workerData: () => ({}),
    maxRestarts: options.maxRestarts,
    onMessage: (message) => {
      const { id, value } = message as { id: number; value: number };
      thread.answer(id, value);
    },
    onStopped: (reason, final) => options.stopped?.push(`${reason}${final ? ' (final)' : ''}`),
    failure: (reason) => new Error(`No echo: ${reason}.`),
  });
  return thread;
}

describe('WorkerThread', () => {
  it('answers requests, fails what waits when the worker crashes, and starts a new one for the next request', async () => {
    const stopped: string[] = [];
    const thread = echo({ maxRestarts: 1, stopped });
    const first = thread.expect();
    thread.post({ id: first.id, value: 7 });
    expect(await first.answer).toBe(7);

    const lost = thread.expect();
    thread.post({ crash: true });
    await expect(lost.answer).rejects.toThrow('No echo: the echo worker stopped (exit code 3).');

    const again = thread.expect();
    thread.post({ id: again.id, value: 8 });
    expect(await again.answer).toBe(8);
    expect(stopped).toEqual(['the echo worker stopped (exit code 3)']);
    await thread.close('closed by the test');
  });

  it('starts a worker that keeps failing at most maxRestarts more times, then refuses at once with the reason', async () => {
    const stopped: string[] = [];
    const thread = echo({ source: `throw new Error('the module is missing')`, maxRestarts: 2, stopped });
    for (let i = 0; i < 3; i++) {
      const { answer } = thread.expect();
      thread.post({});
      await expect(answer).rejects.toThrow('No echo: the echo worker failed (the module is missing).');
    }
    expect(stopped.at(-1)).toBe('the echo worker failed (the module is missing) (final)');
    expect(stopped).toHaveLength(3);
    await expect(thread.expect().answer).rejects.toThrow(
      'No echo: the echo worker failed (the module is missing); it stopped 3 times in a row and is not started again.',
    );
    await thread.close('closed by the test');
  });

  it('close fails what waits with its reason and ends the worker', async () => {
    const thread = echo({ source: `require('node:worker_threads').parentPort.on('message', () => {})` });
    const waiting = thread.expect();
    thread.post({ id: waiting.id });
    const failed = expect(waiting.answer).rejects.toThrow('No echo: Patchbay is closing.');
    await thread.close('Patchbay is closing');
    await failed;
    await expect(thread.expect().answer).rejects.toThrow('No echo: Patchbay is closing.');
  });
});
