/**
 * Sampling and elicitation end to end in the core: server-everything asks (nested in a tool call run
 * through the contract), the scripted Messages API generates, the user's answers go through the
 * contract's validated methods, and the tool result shows what the server got back.
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

async function ready() {
  const t = startHost();
  await t.api.setApiKey({ apiKey: 'sk-ant-sampling-test' });
  await t.api.updateSettings({ anthropicBaseUrl: llm.url });
  await llm.reset();
  const id = await t.everything();
  return { t, id };
}

describe('sampling through the host', () => {
  it('shows the request nested in its tool call, generates the edited prompt, reviews, sends, and audits', async () => {
    const { t, id } = await ready();
    await llm.script([{ type: 'text', text: 'Scripted answer 42.' }]);
    const run = t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'Say hi', maxTokens: 50 } });
    const asked = await t.asked('sampling');
    expect(asked).toMatchObject({
      serverName: 'everything',
      toolCall: { tool: 'trigger-sampling-request' },
      systemPrompt: 'You are a helpful test server.',
      maxTokens: 50,
      temperature: 0.7,
      stage: 'request',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Resource trigger-sampling-request context: Say hi' }] }],
    });
    expect(asked.modelReason).toMatch(/default model/);
    expect((await t.api.getSnapshot()).questions.filter((q) => q.kind === 'sampling')).toHaveLength(1);

    await approveSampling(t.api, {
      id: asked.id,
      edits: [{ message: 0, block: 0, text: 'Say hello instead' }],
      systemPrompt: 'Be brief.',
      model: asked.model,
    });
    const review = await t.updated('sampling', (v) => v.stage === 'review');
    expect(review.response).toMatchObject({ text: 'Scripted answer 42.', usage: { outputTokens: expect.any(Number) } });
    const [request] = await llm.messageRequests();
    expect(request.body).toMatchObject({ system: 'Be brief.', max_tokens: 50 });
    expect(JSON.stringify(request.body?.messages)).toContain('Say hello instead');

    await sendSampling(t.api, { id: asked.id, text: 'Reviewed: 42.' });
    const outcome = await run;
    expect(JSON.stringify(outcome)).toContain('Reviewed: 42.');
    const [entry] = (await t.api.listInteractionAudit({})).entries;
    expect(entry).toMatchObject({
      kind: 'sampling',
      outcome: 'sent',
      decidedBy: 'user',
      toolCall: 'trigger-sampling-request',
      note: 'response edited by the user',
    });
    expect(entry.request).toContain('Say hello instead');
    expect(entry.response).toContain('Reviewed: 42.');
    expect((await t.api.getSnapshot()).questions.filter((q) => q.kind === 'sampling')).toHaveLength(0);
  });

  it('Reject reaches the server as -1; block answers with an error and no dialog; the cap and rate limit too', async () => {
    const { t, id } = await ready();
    const run = t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'x' } });
    const asked = await t.asked('sampling');
    await rejectSampling(t.api, { id: asked.id });
    expect(JSON.stringify(await run)).toMatch(/-1|User rejected sampling request/);
    await expect(rejectSampling(t.api, { id: asked.id })).rejects.toMatchObject({ code: 'invalid_input' });

    await t.api.setSamplingPolicy({ serverId: id, mode: 'block' });
    expect(JSON.stringify(await t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'x' } }))).toContain(
      'Sampling is blocked',
    );
    await t.api.setSamplingPolicy({ serverId: id, mode: 'ask', maxTokensCap: 10 });
    expect(
      JSON.stringify(await t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'x', maxTokens: 11 } })),
    ).toContain('exceeds this server');
    await t.api.setSamplingPolicy({ serverId: id, mode: 'auto', ratePerMinute: 1 });
    await llm.script([{ type: 'text', text: 'auto' }]);
    const auto = t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'x' } });
    const reviewed = await t.updated('sampling', (v) => v.stage === 'review' && v.autoApproved);
    expect(JSON.stringify(await t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'y' } }))).toContain(
      'Rate limit exceeded',
    );
    await sendSampling(t.api, { id: reviewed.id, text: reviewed.response!.text });
    expect(JSON.stringify(await auto)).toContain('auto');
    expect(t.countAsked('sampling')).toBe(2);
    const outcomes = (await t.api.listInteractionAudit({})).entries.map((e) => e.outcome);
    expect(outcomes).toEqual(['sent', 'blocked', 'blocked', 'blocked', 'rejected']);
  });

  it('audits each step as it happened, with who decided: nothing is called approved that was not', async () => {
    const { t, id } = await ready();
    const steps = async () => (await t.api.listInteractionAudit({ limit: 1 })).entries[0];

    // Rejected at the first step: nothing was approved.
    let run = t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'first step' } });
    let asked = await t.asked('sampling');
    await rejectSampling(t.api, { id: asked.id });
    await run;
    let entry = await steps();
    expect(entry).toMatchObject({ outcome: 'rejected', decidedBy: 'user' });
    expect(entry.steps).toEqual([{ stage: 'request', action: 'rejected', by: 'user', at: expect.any(String) }]);
    expect(JSON.parse(entry.request)).not.toHaveProperty('approved');

    // Approved by the user (edited), then the response rejected.
    await llm.script([{ type: 'text', text: 'Not this.' }]);
    run = t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'second' } });
    asked = await t.asked('sampling');
    await approveSampling(t.api, { id: asked.id, edits: [{ message: 0, block: 0, text: 'edited prompt' }], model: asked.model });
    await t.updated('sampling', (v) => v.id === asked.id && v.stage === 'review');
    await rejectSampling(t.api, { id: asked.id });
    await run;
    entry = await steps();
    expect(entry.steps).toEqual([
      { stage: 'request', action: 'approved', by: 'user', at: expect.any(String), note: 'prompt edited' },
      { stage: 'response', action: 'rejected', by: 'user', at: expect.any(String) },
    ]);
    expect(JSON.parse(entry.request).approved.messages[0].content[0].text).toBe('edited prompt');

    // Approved by the policy, sent by the user.
    await t.api.setSamplingPolicy({ serverId: id, mode: 'auto' });
    await llm.script([{ type: 'text', text: 'Fine.' }]);
    run = t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'third' } });
    const reviewed = await t.updated('sampling', (v) => v.stage === 'review' && v.autoApproved);
    await sendSampling(t.api, { id: reviewed.id, text: 'Fine.' });
    await run;
    expect((await steps()).steps).toEqual([
      { stage: 'request', action: 'approved', by: 'policy', at: expect.any(String) },
      { stage: 'response', action: 'sent', by: 'user', at: expect.any(String) },
    ]);

    // Blocked by the policy; withdrawn by the server going away.
    await t.api.setSamplingPolicy({ serverId: id, mode: 'block' });
    await t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'fourth' } });
    expect((await steps()).steps).toEqual([
      { stage: 'request', action: 'blocked', by: 'policy', at: expect.any(String), note: expect.stringContaining('blocked') },
    ]);
    await t.api.setSamplingPolicy({ serverId: id, mode: 'ask' });
    void t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'fifth' } }).catch(() => undefined);
    asked = await t.asked('sampling');
    await t.api.stopServer({ id });
    await t.next('interactionSettled', (s) => s.id === asked.id, 0);
    expect((await steps()).steps).toEqual([
      { stage: 'request', action: 'withdrawn', by: 'host', at: expect.any(String), note: expect.stringContaining('everything') },
    ]);
  });

  it('withdraws the request when the server stops, and says so', async () => {
    const { t, id } = await ready();
    void t.api.runTool({ serverId: id, tool: 'trigger-sampling-request', args: { prompt: 'x' } }).catch(() => undefined);
    const asked = await t.asked('sampling');
    await t.api.stopServer({ id });
    const settled = await t.next('interactionSettled', (s) => s.id === asked.id, 0);
    expect(settled).toMatchObject({ kind: 'sampling', outcome: 'withdrawn', note: expect.stringContaining('everything') });
  });
});

describe('elicitation through the host', () => {
  it('Accept sends validated values; Decline and Cancel reach the server as such', async () => {
    const { t, id } = await ready();
    const run = t.api.runTool({ serverId: id, tool: 'trigger-elicitation-request', args: {} });
    const asked = await t.asked('elicitation');
    expect(asked).toMatchObject({ serverName: 'everything', mode: 'form', toolCall: { tool: 'trigger-elicitation-request' } });
    expect(asked.requestedSchema?.properties.integer).toMatchObject({ type: 'integer', default: 42 });
    await expect(answerElicitation(t.api, { id: asked.id, action: 'accept', content: { integer: 500 } })).rejects.toMatchObject({
      code: 'invalid_input',
      data: expect.arrayContaining([
        { path: ['content', 'name'], message: 'String is required' },
        { path: ['content', 'integer'], message: 'Integer must be at most 100' },
      ]),
    });
    await answerElicitation(t.api, {
      id: asked.id,
      action: 'accept',
      content: { name: 'Ada Lovelace', integer: 7, check: true, untitledMultipleSelectEnum: ['Piano'] },
    });
    const accepted = JSON.stringify(await run);
    expect(accepted).toContain('Name: Ada Lovelace');
    expect(accepted).toContain('Favorite Integer: 7');

    for (const action of ['decline', 'cancel'] as const) {
      const again = t.api.runTool({ serverId: id, tool: 'trigger-elicitation-request', args: {} });
      const next = await t.asked(
        'elicitation',
        (v) => v.id !== asked.id && !t.events.some((e) => e.name === 'interactionSettled' && e.payload.id === v.id),
      );
      await answerElicitation(t.api, { id: next.id, action });
      expect(JSON.stringify(await again)).toContain(action === 'decline' ? 'declined' : 'cancelled');
    }
    expect((await t.api.listInteractionAudit({})).entries.map((e) => e.outcome)).toEqual(['cancelled', 'declined', 'accepted']);
  });
});
