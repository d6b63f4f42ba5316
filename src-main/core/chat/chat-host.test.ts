/**
 * Chat through the host API, the way every bridge calls it (validated by the contract's schemas):
 * settings point at the scripted Messages API, the key is sent once and never comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_OUTCOME, type ConversationSummary, type HostEvent, type ToolCallStatus } from '@contract';
import { openDatabase } from '../store/database';
import { tempDir } from '../../test-support/temp-dir';
import { startTestHost } from '../../test-support/test-host';
import { ConversationRepository, snippetAround } from './conversation-repository';
import { waitFor } from '../servers/wait';
import { startScriptedLlm, type ScriptedLlm } from './test-support/scripted-llm';
import { answerTool } from '../../test-support/answers';

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm();
});
afterAll(async () => {
  await llm?.stop();
});
function start(dataDir?: string) {
  const { host, api, events } = startTestHost(dataDir ? { dataDir } : {});
  return { host, api, events, dataDir: host.info.dataDir };
}

const KEY = 'sk-ant-host-test-key';

/** The statuses a chat tool call's card went through, as the one tool-call stream told them. */
const cardStatuses = (events: HostEvent[], toolUseId: string): ToolCallStatus[] =>
  events.flatMap((e): ToolCallStatus[] => {
    if (e.name === 'toolCallWaiting' && e.payload.chat?.toolUseId === toolUseId) return ['waiting-approval'];
    if (e.name === 'toolCallStarted' && e.payload.chat?.toolUseId === toolUseId) return ['running'];
    if (e.name === 'toolCallFinished' && e.payload.chat?.toolUseId === toolUseId) return [TOOL_OUTCOME[e.payload.status]];
    return [];
  });

describe('chat through the host API', () => {
  it('sends the key once, then only says whether it is set; chats; and the conversation survives a restart', async () => {
    const { host, api, events, dataDir } = start();
    const before = await api.getSnapshot();
    expect(before.chat.conversations).toEqual([]);
    expect(before.chat.llm.apiKey.state === 'not-set' || before.chat.llm.apiKey.source === 'environment').toBe(true);

    const status = await api.setApiKey({ apiKey: `  ${KEY}  ` });
    expect(status.apiKey).toMatchObject({ state: 'set', source: 'stored' });
    expect(JSON.stringify(status)).not.toContain(KEY);
    expect(JSON.stringify(await api.getSnapshot())).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);

    await api.updateSettings({ anthropicBaseUrl: llm.url, systemPrompt: 'Be terse.', maxTokens: 321 });
    await llm.reset();
    await llm.script([{ type: 'text', text: 'Hello from the script.' }]);
    const conversation = await api.createConversation();
    const sent = await api.sendMessage({ conversationId: conversation.id, text: 'Hi there' });
    expect(sent).toMatchObject({ role: 'user', seq: 1, content: [{ type: 'text', text: 'Hi there' }] });
    await waitFor(() => events.some((e) => e.name === 'conversationUpdated' && e.payload.turn === 'idle' && e.payload.messageCount === 2), {
      timeoutMs: 10_000,
      what: 'the answer',
    });
    const [request] = await llm.messageRequests();
    expect(request.credential.key).toBe(KEY);
    expect(request.body).toMatchObject({ system: 'Be terse.', max_tokens: 321, model: 'claude-sonnet-5-5' });
    await host.dispose();

    const again = start(dataDir);
    const snapshot = await again.api.getSnapshot();
    expect(snapshot.chat.conversations).toMatchObject([{ id: conversation.id, title: 'Hi there', messageCount: 2, turn: 'idle' }]);
    expect(snapshot.chat.llm.apiKey).toMatchObject({ state: 'set', source: 'stored' });
    const page = await again.api.listMessages({ conversationId: conversation.id });
    expect(page.messages.map((m) => m.content)).toEqual([
      [{ type: 'text', text: 'Hi there' }],
      [{ type: 'text', text: 'Hello from the script.' }],
    ]);
  });

  it('validates input, renames, limits a conversation to chosen servers, and deletes', async () => {
    const { api, events } = start();
    const conversation = await api.createConversation({ title: 'Plans' });
    await expect(api.sendMessage({ conversationId: conversation.id, text: '   ' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(api.sendMessage({ conversationId: 'nope', text: 'x' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(api.setApiKey({ apiKey: 'has space' })).rejects.toMatchObject({ code: 'invalid_input' });
    expect(await api.renameConversation({ id: conversation.id, title: ' Trip ' })).toMatchObject({ title: 'Trip' });
    // A link names a conversation by id: found with its summary, or null once it is gone.
    expect(await api.getConversation({ id: conversation.id })).toMatchObject({ id: conversation.id, title: 'Trip', turn: 'idle' });
    expect(await api.setConversationServers({ id: conversation.id, serverIds: ['a', 'a', 'b'] })).toMatchObject({ serverIds: ['a', 'b'] });
    expect(await api.setConversationServers({ id: conversation.id, serverIds: null })).toMatchObject({ serverIds: null });
    await api.deleteConversation({ id: conversation.id });
    expect(events.at(-1)).toEqual({ name: 'conversationRemoved', payload: { id: conversation.id } });
    expect((await api.getSnapshot()).chat.conversations).toEqual([]);
    expect(await api.getConversation({ id: conversation.id })).toBeNull();
  });

  it('a model call goes through consent: Allow once runs it and the result goes back; Deny goes back as is_error; Stop cancels it', async () => {
    const { api, events } = start();
    await api.setApiKey({ apiKey: KEY });
    await api.updateSettings({ anthropicBaseUrl: llm.url });
    const server = await api.addPresetServer({ preset: 'everything' });
    await waitFor(async () => (await api.getSnapshot()).servers.find((s) => s.config.id === server.config.id)?.runtime.status === 'ready', {
      timeoutMs: 60_000,
      what: 'server-everything to be ready',
    });
    await llm.reset();
    const call = (a: number, b: number) => ({ type: 'tool_use' as const, calls: [{ nameEndsWith: '__get-sum', input: { a, b } }] });
    await llm.script([call(2, 3), { type: 'text', text: 'Five.' }, call(1, 1), { type: 'text', text: 'Denied, then.' }, call(4, 4)]);
    const conversation = await api.createConversation();
    const idleWith = (count: number) =>
      waitFor(() => events.some((e) => e.name === 'conversationUpdated' && e.payload.turn === 'idle' && e.payload.messageCount === count), {
        timeoutMs: 20_000,
        what: `the turn to end with ${count} messages`,
      });
    const nextConsent = (after: number) =>
      waitFor(
        () =>
          events
            .slice(after)
            .find((e): e is Extract<typeof e, { name: 'questionAsked' }> => e.name === 'questionAsked' && e.payload.kind === 'tool'),
        {
          timeoutMs: 20_000,
          what: 'a consent request',
        },
      );

    let mark = events.length;
    await api.sendMessage({ conversationId: conversation.id, text: 'What is 2 + 3?' });
    const first = await nextConsent(mark);
    expect(first.payload).toMatchObject({ serverId: server.config.id, tool: 'get-sum', args: { a: 2, b: 3 } });
    expect(events.some((e) => e.name === 'toolCallWaiting' && e.payload.chat?.conversationId === conversation.id)).toBe(true);
    await answerTool(api, { id: first.payload.id, decision: 'allow_once' });
    await idleWith(4);
    // One stream tells the card where its call stands, keyed by Patchbay's id of the call.
    const use = (await api.listMessages({ conversationId: conversation.id })).messages[1].content.find((b) => b.type === 'tool_use')!;
    expect(use.id).toMatch(/^pb_[0-9a-f]{32}$/);
    expect(cardStatuses(events, use.id)).toEqual(['waiting-approval', 'running', 'done']);
    const allowed = (await llm.messageRequests())[1].body!.messages.at(-1)!.content as unknown as Record<string, unknown>[];
    expect(allowed[0]).toMatchObject({
      type: 'tool_result',
      is_error: false,
      content: [
        { type: 'text', text: expect.stringMatching(/^\[Result of the tool "get-sum" from the MCP server /) },
        { type: 'text', text: 'The sum of 2 and 3 is 5.' },
      ],
    });

    mark = events.length;
    await api.sendMessage({ conversationId: conversation.id, text: 'And 1 + 1?' });
    const second = await nextConsent(mark);
    await answerTool(api, { id: second.payload.id, decision: 'deny' });
    await idleWith(8);
    const denied = (await llm.messageRequests())[3].body!.messages.at(-1)!.content as unknown as Record<string, unknown>[];
    expect(denied[0]).toMatchObject({ type: 'tool_result', is_error: true });
    const page = await api.listMessages({ conversationId: conversation.id });
    expect(page.messages[6].content[0]).toMatchObject({ type: 'tool_result', outcome: 'denied', isError: true });

    // Stop while the dialog is open: the dialog goes, and the call is cancelled (not denied) — in the chat and in the audit trail.
    mark = events.length;
    await api.sendMessage({ conversationId: conversation.id, text: 'And 4 + 4?' });
    const third = await nextConsent(mark);
    await api.stopTurn({ conversationId: conversation.id });
    await waitFor(
      () => events.some((e) => e.name === 'questionSettled' && e.payload.kind === 'tool' && e.payload.id === third.payload.id),
      {
        what: 'the dialog to be withdrawn',
      },
    );
    await waitFor(async () => (await api.listMessages({ conversationId: conversation.id })).messages.length === 11, {
      what: 'the stopped turn to be stored',
    });
    const stopped = await api.listMessages({ conversationId: conversation.id });
    expect(stopped.messages[10].content[0]).toMatchObject({ type: 'tool_result', outcome: 'cancelled', isError: true });
    expect((await api.listToolAudit({})).entries[0]).toMatchObject({ tool: 'get-sum', origin: 'model', outcome: 'cancelled' });
  });

  it('arguments the user edited in Allow…: the chat stores and shows what ran, and the model is told', async () => {
    const { api, events } = start();
    await api.setApiKey({ apiKey: KEY });
    await api.updateSettings({ anthropicBaseUrl: llm.url });
    const server = await api.addPresetServer({ preset: 'everything' });
    await waitFor(async () => (await api.getSnapshot()).servers.find((s) => s.config.id === server.config.id)?.runtime.status === 'ready', {
      timeoutMs: 60_000,
      what: 'server-everything to be ready',
    });
    await llm.reset();
    const call = (a: number, b: number) => ({ type: 'tool_use' as const, calls: [{ nameEndsWith: '__get-sum', input: { a, b } }] });
    await llm.script([call(2, 3), { type: 'text', text: 'Forty-two.' }, call(1, 1), { type: 'text', text: 'Two.' }]);
    const conversation = await api.createConversation();
    const consent = (after: number) =>
      waitFor(
        () =>
          events
            .slice(after)
            .find((e): e is Extract<typeof e, { name: 'questionAsked' }> => e.name === 'questionAsked' && e.payload.kind === 'tool'),
        {
          timeoutMs: 20_000,
          what: 'a consent request',
        },
      );
    const idleWith = (count: number) =>
      waitFor(() => events.some((e) => e.name === 'conversationUpdated' && e.payload.turn === 'idle' && e.payload.messageCount === count), {
        timeoutMs: 20_000,
        what: `the turn to end with ${count} messages`,
      });

    let mark = events.length;
    await api.sendMessage({ conversationId: conversation.id, text: 'What is 2 + 3?' });
    await answerTool(api, { id: (await consent(mark)).payload.id, decision: 'allow_once', editedArgs: { a: 2, b: 40 } });
    await idleWith(4);
    // The card learns what runs as soon as it runs, and the stored result keeps it.
    expect(events).toContainEqual({
      name: 'toolCallStarted',
      payload: expect.objectContaining({ chat: expect.objectContaining({ conversationId: conversation.id }), editedArgs: { a: 2, b: 40 } }),
    });
    const stored = (await api.listMessages({ conversationId: conversation.id })).messages;
    expect(stored[1].content[0]).toMatchObject({ type: 'tool_use', input: { a: 2, b: 3 } });
    expect(stored[2].content[0]).toMatchObject({ type: 'tool_result', editedArgs: { a: 2, b: 40 }, outcome: 'done' });
    // The model's own tool_use stays as it wrote it; its result starts by saying what the user changed.
    const sent = (await llm.messageRequests())[1].body!.messages;
    expect(sent.at(-2)!.content).toMatchObject([{ type: 'tool_use', input: { a: 2, b: 3 } }]);
    const result = (sent.at(-1)!.content as unknown as { content: { text: string }[] }[])[0].content;
    expect(result[0].text).toMatch(/^\[Result of the tool "get-sum"/);
    result.shift();
    expect(result[0].text).toBe('[The user changed the arguments before running this tool. It ran with: {"a":2,"b":40}]');
    expect(result[1].text).toBe('The sum of 2 and 40 is 42.');

    // "Edited" to the same arguments is no edit.
    mark = events.length;
    await api.sendMessage({ conversationId: conversation.id, text: 'And 1 + 1?' });
    await answerTool(api, { id: (await consent(mark)).payload.id, decision: 'allow_once', editedArgs: { b: 1, a: 1 } });
    await idleWith(8);
    const plain = (await api.listMessages({ conversationId: conversation.id })).messages[6].content[0];
    expect(plain).toMatchObject({ type: 'tool_result', outcome: 'done' });
    expect(plain).not.toHaveProperty('editedArgs');
  });

  it('pages through every conversation (newest first, none twice, none missed) and finds old ones by title', async () => {
    // 1,205 conversations in a real database file, a minute apart, with a run sharing one timestamp.
    const dataDir = tempDir();
    const { db } = openDatabase(dataDir);
    const repo = new ConversationRepository(db);
    const base = Date.parse('2024-01-01T00:00:00Z');
    db.transaction(() => {
      for (let i = 0; i < 1205; i++) {
        const minute = i >= 90 && i < 110 ? 90 : i; // 20 with the same time, across the first page's end
        const title = i === 3 ? 'Tax return 2019' : i === 700 ? 'TAX questions' : `Conversation ${i}`;
        repo.create(title, new Date(base + minute * 60_000));
      }
    })();
    db.close();

    const { api } = start(dataDir);
    const snapshot = await api.getSnapshot();
    expect(snapshot.chat.conversations).toHaveLength(100);
    expect(snapshot.chat.moreConversations).toBe(true);

    const seen: ConversationSummary[] = [];
    let page = await api.listConversations({});
    expect(page.conversations.map((c) => c.id)).toEqual(snapshot.chat.conversations.map((c) => c.id));
    seen.push(...page.conversations);
    while (page.hasMore) {
      const last = seen[seen.length - 1];
      page = await api.listConversations({ after: { updatedAt: last.updatedAt, id: last.id }, limit: 250 });
      seen.push(...page.conversations);
    }
    expect(seen).toHaveLength(1205);
    expect(new Set(seen.map((c) => c.id)).size).toBe(1205);
    const times = seen.map((c) => c.updatedAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(seen.at(-1)?.title).toBe('Conversation 0');

    const found = await api.listConversations({ query: 'tax' });
    expect(found.conversations.map((c) => c.title)).toEqual(['TAX questions', 'Tax return 2019']);
    expect(found.hasMore).toBe(false);
    // LIKE's wildcards are matched as themselves.
    expect((await api.listConversations({ query: '%' })).conversations).toEqual([]);
    expect((await api.listConversations({ query: 'Conversation 1', limit: 5 })).hasMore).toBe(true);
  });

  it('finds conversations by what their messages say, and New conversation reuses an unused one instead of leaving it behind', async () => {
    const { api, events } = start();
    await api.setApiKey({ apiKey: KEY });
    await api.updateSettings({ anthropicBaseUrl: llm.url });
    await llm.reset();
    await llm.script([{ type: 'text', text: 'The capital of Australia is **Canberra**, not Sydney.' }]);
    const first = await api.createConversation();
    expect((await api.createConversation()).id).toBe(first.id); // unused: the same one again
    await api.sendMessage({ conversationId: first.id, text: 'Where is the capital?' });
    await waitFor(
      () =>
        events.some(
          (e) => e.name === 'conversationUpdated' && e.payload.id === first.id && e.payload.turn === 'idle' && e.payload.messageCount === 2,
        ),
      { timeoutMs: 10_000, what: 'the answer' },
    );
    const next = await api.createConversation();
    expect(next.id).not.toBe(first.id);
    expect((await api.createConversation()).id).toBe(next.id);
    // Asked for by title, a conversation is always a new one.
    expect((await api.createConversation({ title: 'New conversation' })).id).not.toBe(next.id);
    expect((await api.listConversations({})).conversations).toHaveLength(3);

    const byContent = await api.listConversations({ query: 'canberra' });
    expect(byContent.conversations.map((c) => [c.id, c.match])).toEqual([
      [first.id, 'The capital of Australia is **Canberra**, not Sydney.'],
    ]);
    const byTitle = (await api.listConversations({ query: 'where is' })).conversations;
    expect(byTitle.map((c) => [c.id, c.match])).toEqual([[first.id, undefined]]);
    // Only the words written are searched, not the stored JSON around them.
    expect((await api.listConversations({ query: '"type"' })).conversations).toEqual([]);
    expect((await api.listConversations({ query: 'text' })).conversations).toEqual([]);
    expect(snippetAround(`${'a '.repeat(100)}needle${' b'.repeat(100)}`, 'NEEDLE')).toMatch(/^….{40}needle.{100}…$/);
  });

  it('lists models from the configured base URL', async () => {
    const { api } = start();
    await api.setApiKey({ apiKey: KEY });
    await api.updateSettings({ anthropicBaseUrl: llm.url });
    expect(await api.listModels()).toMatchObject({
      source: 'api',
      models: expect.arrayContaining([expect.objectContaining({ id: 'claude-sonnet-5-5' })]),
    });
  });
});
