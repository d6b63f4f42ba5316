/**
 * Tool search and provider tool limits through the whole host, against several real
 * server-everything copies and both scripted model endpoints: more tools than OpenAI accepts is said
 * before sending (the message kept); with search on, the model gets the search tool only, searches,
 * and calls the found tool (through consent) from the next request on; a search with no match is told
 * to the model and the turn goes on; found tools stay offered for the conversation's next turns. The
 * scripted endpoint itself refuses more than 128 tools, as OpenAI does, so a request Patchbay should not
 * have sent fails loudly.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_SEARCH_TOOL_NAME, type ChatMessage, type HostApi, type HostEvent } from '@contract';
import { REPO_ROOT } from '../../test-support/fixtures';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { useScriptedOpenAi } from '../../test-support/use-scripted-openai';
import { waitFor } from '../servers/wait';
import { startScriptedLlm, type ScriptedLlm } from './test-support/scripted-llm';
import { answerTool } from '../../test-support/answers';

const openai = useScriptedOpenAi();
let anthropic: ScriptedLlm;
beforeAll(async () => {
  anthropic = await startScriptedLlm();
});
afterAll(async () => {
  await anthropic?.stop();
});

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** `copies` server-everything servers named everything-1…n, all Ready. */
async function everythings(t: TestHost, copies: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: copies }, (_, i) =>
      t.addServer({ name: `everything-${i + 1}`, command: process.execPath, args: [EVERYTHING, 'stdio'] }),
    ),
  );
}

function idleWith(api: HostApi, events: HostEvent[], conversationId: string, count: number) {
  return waitFor(
    () =>
      events.some(
        (e) =>
          e.name === 'conversationUpdated' &&
          e.payload.id === conversationId &&
          e.payload.turn === 'idle' &&
          e.payload.messageCount === count,
      ),
    { timeoutMs: 30_000, what: `the turn to end with ${count} messages` },
  );
}

const toolNamesOf = (request: { body?: { tools?: { function: { name: string } }[] } | null }) =>
  (request.body?.tools ?? []).map((tool) => tool.function.name);

function searchResults(messages: ChatMessage[]) {
  return messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_result' && b.toolSearch ? [b] : [])));
}

describe('tool search and tool limits, OpenAI-compatible', () => {
  it('says before sending that 7 servers’ tools are over the limit; with search on, searches, then calls the found tool', async () => {
    const t = startHost();
    const api = t.api;
    await everythings(t, 7);
    const local = await api.addProvider({ type: 'openai-compatible', name: 'OpenAI', baseUrl: openai.url });
    await api.updateSettings({ toolSearch: 'off' });
    const conversation = await api.createConversation();
    await api.setConversationModel({ id: conversation.id, providerId: local.id, model: 'llama3.1:8b' });

    // Search off: nothing is sent; the notice names the count and the limit; the message is kept.
    await api.sendMessage({ conversationId: conversation.id, text: 'What is 2 + 3?' });
    const failed = await waitFor(async () => (await api.getConversation({ id: conversation.id }))?.lastError, {
      timeoutMs: 20_000,
      what: 'the too-many-tools notice',
    });
    const offered = Number(/offers (\d+) tools/.exec(failed.message)?.[1]);
    expect(offered).toBeGreaterThan(128);
    expect(failed).toMatchObject({ kind: 'too-many-tools', retryable: true, message: expect.stringContaining('at most 128') });
    expect(failed.message).toMatch(/Turn on tool search/);
    expect(await openai.chatRequests()).toHaveLength(0);
    expect((await api.listMessages({ conversationId: conversation.id })).messages).toMatchObject([
      { role: 'user', content: [{ type: 'text', text: 'What is 2 + 3?' }] },
    ]);

    // Search on (automatic): the search tool goes alone; the found tool from the next request on.
    await api.updateSettings({ toolSearch: 'automatic' });
    await openai.script([
      { type: 'find_tool', nameEndsWith: '__get-sum', query: 'sum of two numbers', input: { a: 2, b: 3 } },
      { type: 'text', text: 'The sum is 5.' },
    ]);
    await api.retryTurn({ conversationId: conversation.id });
    const consent = await t.asked('tool');
    expect(consent).toMatchObject({ tool: 'get-sum', args: { a: 2, b: 3 } });
    await answerTool(api, { id: consent.id, decision: 'allow_once' });
    await idleWith(api, t.events, conversation.id, 6);

    const [first, second, third] = await openai.chatRequests();
    expect(toolNamesOf(first)).toEqual([TOOL_SEARCH_TOOL_NAME]);
    expect(first.body?.messages.at(-1)).toMatchObject({ role: 'user' });
    const found = toolNamesOf(second);
    expect(found[0]).toBe(TOOL_SEARCH_TOOL_NAME);
    expect(found.some((name) => name.endsWith('__get-sum'))).toBe(true);
    expect(found.length).toBeLessThanOrEqual(6);
    expect(toolNamesOf(third)).toEqual(found);
    // One consent only: the search itself needed none.
    expect(t.countAsked('tool')).toBe(1);

    const messages = (await api.listMessages({ conversationId: conversation.id })).messages;
    const [search] = searchResults(messages);
    expect(search.toolSearch).toMatchObject({ query: 'sum of two numbers' });
    expect(search.toolSearch!.found.some((tool) => tool.toolName === 'get-sum')).toBe(true);
    expect(search.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Found \d+ tools? for "sum of two numbers"/) });
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'The sum is 5.' }] });

    // A search with no match: the model is told, and the turn goes on to its answer.
    await openai.reset();
    await openai.script([
      { type: 'find_tool', nameEndsWith: '__no-such-tool', query: 'zzqx quantum teleporter' },
      { type: 'text', text: 'I have no tool for that.' },
    ]);
    await api.sendMessage({ conversationId: conversation.id, text: 'Teleport me' });
    await idleWith(api, t.events, conversation.id, 10);
    const [again] = await openai.chatRequests();
    // Found tools stay offered for the conversation: the next turn's first request carries them.
    expect(toolNamesOf(again)).toEqual(found);
    const after = (await api.listMessages({ conversationId: conversation.id })).messages;
    const none = searchResults(after).at(-1)!;
    expect(none.toolSearch).toEqual({ query: 'zzqx quantum teleporter', found: [] });
    expect(none.content[0]).toMatchObject({ text: expect.stringContaining('No tools match "zzqx quantum teleporter"') });
    expect(after.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'I have no tool for that.' }] });
    expect((await api.getConversation({ id: conversation.id }))?.lastError).toBeUndefined();
  }, 120_000);
});

describe('the scripted OpenAI-compatible endpoint', () => {
  it('refuses more than 128 tools as OpenAI does', async () => {
    const tool = (i: number) => ({ type: 'function', function: { name: `t${i}`, parameters: { type: 'object' } } });
    const ask = (count: number) =>
      fetch(`${openai.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'm',
          messages: [{ role: 'user', content: 'hi' }],
          tools: Array.from({ length: count }, (_, i) => tool(i)),
        }),
      });
    const refused = await ask(129);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'array_above_max_length', param: 'tools' } });
    expect((await ask(128)).status).toBe(200);
  });
});

describe('tool search, Anthropic', () => {
  it('engages past 40 tools, finds the same tool name on three servers, calls one, and keeps them offered', async () => {
    const t = startHost();
    await t.api.setApiKey({ apiKey: 'sk-ant-test' });
    await t.api.updateSettings({ anthropicBaseUrl: anthropic.url });
    await everythings(t, 3);
    await anthropic.reset();
    await anthropic.script([
      { type: 'find_tool', nameEndsWith: '__echo', query: 'echo', input: { message: 'hi' } },
      { type: 'text', text: 'It said hi.' },
    ]);
    const conversation = await t.api.createConversation();
    await t.api.sendMessage({ conversationId: conversation.id, text: 'Echo hi' });
    const consent = await t.asked('tool');
    expect(consent).toMatchObject({ tool: 'echo', args: { message: 'hi' } });
    await answerTool(t.api, { id: consent.id, decision: 'allow_once' });
    await idleWith(t.api, t.events, conversation.id, 6);

    const names = (await anthropic.messageRequests()).map((r) => (r.body?.tools ?? []).map((tool) => tool.name));
    expect(names[0]).toEqual([TOOL_SEARCH_TOOL_NAME]);
    // The same tool name on three servers: each found under its own name.
    const echoes = names[1].filter((name) => name.endsWith('__echo'));
    expect(echoes.length).toBe(3);
    expect(new Set(echoes).size).toBe(3);

    // The next turn starts with the found tools (read back from the stored search results).
    await anthropic.reset();
    await anthropic.script([{ type: 'text', text: 'Still here.' }]);
    await t.api.sendMessage({ conversationId: conversation.id, text: 'And now?' });
    await idleWith(t.api, t.events, conversation.id, 8);
    const [next] = await anthropic.messageRequests();
    expect((next.body?.tools ?? []).map((tool) => tool.name)).toEqual(names[1]);
  }, 120_000);
});
