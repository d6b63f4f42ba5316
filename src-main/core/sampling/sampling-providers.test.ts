/**
 * Sampling across providers: the dialog offers every provider's models, preselects by the server's
 * preferences over all of them (and says why), and generates with the provider of the model the user
 * approves — here the scripted OpenAI-compatible endpoint, through server-everything's real request.
 */
import { describe, expect, it } from 'vitest';
import { PRIMARY_PROVIDER_ID } from '@contract';
import { startHost } from '../../test-support/tool-host';
import { useScriptedOpenAi } from '../../test-support/use-scripted-openai';
import { waitFor } from '../servers/wait';
import { approveSampling, sendSampling, rejectSampling } from '../../test-support/answers';

const openai = useScriptedOpenAi();

describe('sampling through an OpenAI-compatible provider', () => {
  it('offers every provider’s models, generates with the one the user picks, and the server gets its answer', async () => {
    const t = startHost();
    const local = await t.api.addProvider({ type: 'openai-compatible', name: 'Ollama', baseUrl: openai.url });
    await waitFor(async () => (await t.api.getSnapshot()).providers.providers.find((p) => p.id === local.id)?.models.length === 2, {
      what: 'the local models',
    });
    const id = await t.everything();
    await openai.reset();
    await openai.script([{ type: 'text', text: 'A local answer.', usage: { prompt: 30, completion: 3 } }]);

    const run = t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'Say hi', maxTokens: 60 } });
    const asked = await t.asked('sampling');
    expect(asked).toMatchObject({ providerId: PRIMARY_PROVIDER_ID, model: 'claude-sonnet-5-5', modelReason: 'Your default model.' });
    expect(asked.models).toEqual(
      expect.arrayContaining([
        { providerId: PRIMARY_PROVIDER_ID, providerName: 'Anthropic', id: 'claude-sonnet-5-5', displayName: expect.any(String) },
        { providerId: local.id, providerName: 'Ollama', id: 'qwen2.5:7b', displayName: 'qwen2.5:7b' },
      ]),
    );

    await approveSampling(t.api, { id: asked.id, model: 'qwen2.5:7b', providerId: local.id });
    const review = await t.updated('sampling', (v) => v.stage === 'review');
    expect(review).toMatchObject({ providerId: local.id, model: 'qwen2.5:7b' });
    expect(review.response).toMatchObject({ text: 'A local answer.', model: 'qwen2.5:7b', usage: { inputTokens: 30, outputTokens: 3 } });
    const [sent] = await openai.chatRequests();
    expect(sent.body).toMatchObject({ model: 'qwen2.5:7b', max_tokens: 60, temperature: 0.7 });
    expect(sent.body?.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Resource trigger-sampling-request context: Say hi' },
    ]);
    expect(sent.body?.tools).toBeUndefined();

    await sendSampling(t.api, { id: asked.id, text: review.response!.text });
    const result = JSON.stringify(await run);
    expect(result).toContain('A local answer.');
    expect(result).toContain('qwen2.5:7b');
  });

  it('preselects the default provider’s model when the default is a local one, and an unreachable one fails for retry', async () => {
    const t = startHost();
    const local = await t.api.addProvider({ type: 'openai-compatible', name: 'Ollama', baseUrl: openai.url });
    await t.api.updateSettings({ defaultProviderId: local.id, defaultModel: 'llama3.1:8b' });
    const id = await t.everything();
    await openai.reset();
    await openai.script([{ type: 'error', status: 404, message: 'model "llama3.1:8b" not found, try pulling it first' }]);
    const run = t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'x' } });
    const asked = await t.asked('sampling');
    expect(asked).toMatchObject({ providerId: local.id, model: 'llama3.1:8b', modelReason: 'Your default model.' });
    await approveSampling(t.api, { id: asked.id, model: asked.model });
    const failed = await t.updated('sampling', (v) => v.stage === 'request' && v.error !== undefined);
    expect(failed.error).toMatch(/Ollama has no model "llama3.1:8b"/);
    await rejectSampling(t.api, { id: asked.id });
    expect(JSON.stringify(await run)).toMatch(/User rejected sampling request/);
  });
});
