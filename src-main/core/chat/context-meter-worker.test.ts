/**
 * The context meter's tokenizer on its worker thread, through the contract of a real host: the host
 * answers while the tokenizer is busy, and a tokenizer that cannot start makes the count fail with
 * its reason (the meter shows "Tokens not counted") instead of leaving it waiting.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKENIZER_WORKER_SOURCE } from '../context-meter/tokenizer-worker';
import { startTestHost } from '../../test-support/test-host';
import { tempDir } from '../../test-support/temp-dir';

/**
 * The real worker, held before it builds its encoder until `gate` exists — a tokenizer thread
 * busy for as long as the test wants, as the real one is for seconds while it builds the encoder.
 */
function gatedSource(gate: string): string {
  return `
const fs = require('node:fs');
const pause = new Int32Array(new SharedArrayBuffer(4));
while (!fs.existsSync(${JSON.stringify(gate)})) Atomics.wait(pause, 0, 0, 20);
${TOKENIZER_WORKER_SOURCE}`;
}

const measureDraft = { draftChars: 0, attachmentIds: [] };
let encoder: Tiktoken;
beforeAll(() => {
  // The encoding the worker uses (building it takes seconds of CPU: here, outside the tests' time).
  encoder = new Tiktoken(o200k);
});

describe('the context meter’s tokenizer worker', () => {
  it('keeps the host answering while the first count is in flight, then gives the count', async () => {
    const gate = path.join(tempDir(), 'go');
    const { api } = startTestHost({ tokenizer: { source: gatedSource(gate) } });
    await api.updateSettings({ systemPrompt: 'Be terse, and name the server a tool came from.' });

    let counted = false;
    const measuring = api.measureContext(measureDraft).then((measure) => {
      counted = true;
      return measure;
    });
    // The tokenizer thread is blocked; the host's is not.
    expect((await api.getSnapshot()).servers).toEqual([]);
    expect(await api.createConversation()).toMatchObject({ id: expect.any(String) });
    expect(counted).toBe(false);

    await writeFile(gate, '');
    const measure = await measuring;
    const tokens = encoder.encode('Be terse, and name the server a tool came from.').length;
    expect(measure).toMatchObject({ total: tokens, system: tokens, tools: 0, history: 0 });
  });

  it('fails the count with the reason when the tokenizer throws or its module is missing — and tries again on the next count', async () => {
    const { api } = startTestHost({ tokenizer: { source: `throw new Error('the ranks are unreadable');` } });
    await api.updateSettings({ systemPrompt: 'Be terse.' });
    await expect(api.measureContext(measureDraft)).rejects.toMatchObject({
      message: expect.stringMatching(/^Tokens were not counted: the tokenizer failed \(the ranks are unreadable\)\. .*restart Patchbay/),
    });
    // Not remembered as a failure: the next ask starts a new worker (which fails again here).
    await expect(api.measureContext(measureDraft)).rejects.toMatchObject({ message: expect.stringContaining('the ranks are unreadable') });
    expect((await api.getSnapshot()).servers).toEqual([]);

    const missing = startTestHost({ tokenizer: { source: `require('/nowhere/node_modules/js-tiktoken/dist/lite.cjs');` } });
    await missing.api.updateSettings({ systemPrompt: 'Be terse.' });
    await expect(missing.api.measureContext(measureDraft)).rejects.toMatchObject({
      message: expect.stringMatching(/^Tokens were not counted: the tokenizer failed \(Cannot find module '\/nowhere\//),
    });
  });

  it('stops the worker when the host is disposed: a count still waiting fails rather than hanging', async () => {
    const { api, host } = startTestHost({ tokenizer: { source: gatedSource(path.join(tempDir(), 'never')) } });
    await api.updateSettings({ systemPrompt: 'Be terse.' });
    const failed = expect(api.measureContext(measureDraft)).rejects.toMatchObject({
      message: expect.stringContaining('Tokens were not counted: Patchbay is closing'),
    });
    await api.getSnapshot();
    await host.dispose();
    await failed;
  });
});
