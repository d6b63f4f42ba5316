/**
 * Attached resources and prompt messages are scanned when the chat uses them (issue #38), through the
 * whole host: the `hostile` fixture's resources and prompts, Flagged content's three answers, and the
 * scripted Messages API recording what reached the model.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { FlaggedContentMode, HostApi } from '@contract';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { waitFor } from '../servers/wait';
import { startScriptedLlm, type ScriptedLlm } from './test-support/scripted-llm';

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm();
});
afterAll(async () => {
  await llm?.stop();
});

async function setUp(mode: FlaggedContentMode): Promise<{ t: TestHost; hostile: string }> {
  const t = startHost();
  onTestFinished(() => t.host.dispose());
  await t.api.setApiKey({ apiKey: 'sk-ant-guard-test' });
  await t.api.updateSettings({ anthropicBaseUrl: llm.url, flaggedContent: mode, toolSearch: 'off' });
  const hostile = await t.fixture('hostile.mjs');
  await llm.reset();
  return { t, hostile };
}

/** Sends what the draft holds in a new conversation; resolves with the text of the one request the model got, and the conversation. */
async function sent(
  api: HostApi,
  input: Omit<Parameters<HostApi['sendMessage']>[0], 'conversationId'>,
): Promise<{ request: string; conversationId: string }> {
  await llm.script([{ type: 'text', text: 'Noted.' }]);
  const conversation = await api.createConversation();
  await api.sendMessage({ conversationId: conversation.id, ...input });
  await waitFor(async () => (await llm.messageRequests()).length === 1 || undefined, { timeoutMs: 30_000, what: 'the request' });
  return { request: JSON.stringify((await llm.messageRequests())[0].body!.messages), conversationId: conversation.id };
}

describe('attached resources and prompts are scanned', () => {
  it('Warn only: a flagged resource is attached with its flag and a prompt used, each sent with the note', async () => {
    const { t, hostile } = await setUp('warn');
    const clean = await t.api.attachResource({ serverId: hostile, uri: 'hostile://notes/clean' });
    expect(clean.flags).toBeUndefined();
    const flagged = await t.api.attachResource({ serverId: hostile, uri: 'hostile://notes/plain' });
    expect(flagged.flags?.map((f) => f.rule)).toEqual(expect.arrayContaining(['ignore-instructions', 'hide-from-user']));
    expect(flagged.flags?.[0].match).toMatch(/Ignore all previous instructions/);
    const { request, conversationId } = await sent(t.api, {
      text: 'summarise',
      attachments: [flagged].map(({ attachmentId, serverId, uri }) => ({ attachmentId, serverId, uri })),
    });
    expect(request).toContain('[Patchbay flagged text in this resource that reads as aimed at you');
    expect(request).toContain('budget approved');
    // The conversation now holds private data (an attached resource) and untrusted content (flagged):
    // a call that can send data out asks despite "Always allow", and says why.
    await t.api.setToolPolicy({ serverId: hostile, tool: 'weather', policy: 'allow' });
    const pending = t.host.tools.callToolWithConsent({
      ...{ serverId: hostile, tool: 'weather', args: { mode: 'clean' }, origin: 'model' },
      chat: { conversationId, toolUseId: 'pb_risk' },
    });
    const risky = await t.asked('tool', (q) => q.tool === 'weather');
    expect(risky.risk).toContain('the resource plain notes from hostile');
    await t.api.answerQuestion({ id: risky.id, answer: { kind: 'tool', decision: 'deny' } });
    expect(await pending).toMatchObject({ status: 'denied' });

    await llm.reset();
    const prompt = await t.api.getPrompt({ serverId: hostile, name: 'poisoned', purpose: 'chat' });
    const withPrompt = await sent(t.api, { text: '', attachments: [], promptUseId: prompt.useId });
    expect(withPrompt.request).toContain("[Patchbay flagged text in this prompt's messages that reads as aimed at you");
    const { messages } = await t.api.listMessages({ conversationId: withPrompt.conversationId });
    const marker = messages.flatMap((m) => m.content).find((b) => b.type === 'prompt');
    expect(marker?.type === 'prompt' && marker.flags?.map((f) => f.rule)).toContain('ignore-instructions');
  }, 120_000);

  it('Block: a flagged resource is not attached and a flagged prompt not used, each refused naming the server; clean ones go', async () => {
    const { t, hostile } = await setUp('block');
    await expect(t.api.attachResource({ serverId: hostile, uri: 'hostile://notes/plain' })).rejects.toThrow(
      /The resource "plain notes" from hostile was not attached: Patchbay flagged text in it that reads as aimed at the model \("Ignore all previous instructions/,
    );
    expect((await t.api.attachResource({ serverId: hostile, uri: 'hostile://notes/clean' })).flags).toBeUndefined();
    const prompt = await t.api.getPrompt({ serverId: hostile, name: 'poisoned', purpose: 'chat' });
    const conversation = await t.api.createConversation();
    await expect(
      t.api.sendMessage({ conversationId: conversation.id, text: '', attachments: [], promptUseId: prompt.useId }),
    ).rejects.toThrow(/The prompt "poisoned" from hostile was not used/);
    expect(await llm.messageRequests()).toHaveLength(0);
  }, 120_000);

  it('Ask: attaching a flagged resource asks in the one queue; withheld, it is not attached; let through, it is, flagged', async () => {
    const { t, hostile } = await setUp('ask');
    const refused = t.api.attachResource({ serverId: hostile, uri: 'hostile://notes/plain' });
    const question = await t.asked('content');
    expect(question).toMatchObject({ serverName: 'hostile', toolName: 'plain notes', source: 'resource' });
    expect(question.preview).toContain('Ignore all previous instructions');
    await t.api.answerQuestion({ id: question.id, answer: { kind: 'content', send: false } });
    await expect(refused).rejects.toThrow(/The resource "plain notes" from hostile was not attached/);

    const allowed = t.api.attachResource({ serverId: hostile, uri: 'hostile://notes/plain' });
    const second = await t.asked('content', (q) => q.id !== question.id);
    await t.api.answerQuestion({ id: second.id, answer: { kind: 'content', send: true } });
    expect((await allowed).flags?.map((f) => f.rule)).toContain('ignore-instructions');
  }, 120_000);
});
