/**
 * The 2026-07-28 path: the server answers `tools/call` with `input_required`; the SDK routes the
 * embedded requests to the same handlers, so the same dialogs (events) appear, and the retry carries
 * what the user approved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../chat/test-support/scripted-llm';
import { startHost } from '../../test-support/tool-host';
import { approveSampling, sendSampling, rejectSampling, answerElicitation } from '../../test-support/answers';

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm();
});
afterAll(async () => {
  await llm?.stop();
});

describe('sampling and elicitation on a 2026-07-28 server (input_required)', () => {
  it('asks through the same dialogs, and the retried call completes with the answers', async () => {
    const t = startHost();
    await t.api.setApiKey({ apiKey: 'sk-ant-modern-test' });
    await t.api.updateSettings({ anthropicBaseUrl: llm.url });
    await llm.reset();
    await llm.script([{ type: 'text', text: 'Old pond, a frog jumps' }]);
    const id = await t.fixture('modern-sampling.mjs');

    const sample = t.api.runTool({ serverId: id, tool: 'ask-sample', args: {} });
    const asked = await t.asked('sampling');
    expect(asked).toMatchObject({
      serverName: 'modern-sampling',
      maxTokens: 40,
      toolCall: { tool: 'ask-sample' },
      model: 'claude-haiku-5-5',
    });
    expect(asked.modelReason).toContain('"haiku"');
    await approveSampling(t.api, { id: asked.id, edits: [], model: asked.model });
    const review = await t.updated('sampling', (v) => v.stage === 'review', 0);
    await sendSampling(t.api, { id: asked.id, text: review.response!.text });
    expect(JSON.stringify(await sample)).toContain('sampled: Old pond, a frog jumps');

    const form = t.api.runTool({ serverId: id, tool: 'ask-form', args: {} });
    const elicited = await t.asked('elicitation');
    expect(elicited.requestedSchema?.properties.name).toMatchObject({ default: 'Grace' });
    await answerElicitation(t.api, { id: elicited.id, action: 'accept', content: { name: 'Grace', age: 85 } });
    expect(JSON.stringify(await form)).toContain('\\"action\\":\\"accept\\",\\"content\\":{\\"name\\":\\"Grace\\",\\"age\\":85}');

    const rejected = t.api.runTool({ serverId: id, tool: 'ask-sample', args: {} });
    const again = await t.asked('sampling');
    await rejectSampling(t.api, { id: again.id });
    await expect(rejected.then((r) => JSON.stringify(r))).resolves.toMatch(/User rejected sampling request/);
  });
});
