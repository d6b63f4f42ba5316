/**
 * What survives a killed host: the user's message (committed before the request), the streamed
 * answer as of its last checkpoint (time-based and at tool-call boundaries), marked interrupted at
 * the next start — kept once, never dropped or duplicated.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/database';
import { chatFixture, fakeToolbox, readRowElsewhere, sumTool } from './test-support/chat-fixture';
import { useScriptedLlm } from './test-support/use-scripted-llm';
import { ChatTurns } from './chat-turns';
import { Conversations } from './conversations';
import { RunningTurns } from './running-turns';
import { ConversationRepository } from './conversation-repository';
import { MessageRepository } from './message-repository';
import { waitFor } from '../servers/wait';
import { HostEventBus } from '../events';
import type { ModelRouter } from '../llm/llm-types';
import { DEFAULT_SETTINGS } from '@contract';

const llm = useScriptedLlm();
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});

/** What a restarted host does first: open the same file and build the conversations and their turns. */
function restartOn(dataDir: string) {
  const { db } = openDatabase(dataDir);
  const messages = new MessageRepository(db);
  const repository = new ConversationRepository(db);
  const common = {
    messages,
    // This restarted host only recovers and reads history: it never routes a turn.
    router: {} as ModelRouter,
    settings: () => DEFAULT_SETTINGS,
    events: new HostEventBus(),
    now: () => new Date(),
    running: new RunningTurns(),
  };
  const conversations = new Conversations({
    ...common,
    conversations: repository,
    llmStatus: () => ({ apiKey: { state: 'not-set', storage: '' } }),
  });
  const turns = new ChatTurns({
    ...common,
    conversations,
    repository,
    toolbox: { list: () => [], call: async () => ({ status: 'tool_error', result: { isError: true, content: [] } }) },
  });
  return { db, messages, conversations, turns };
}

describe('chat persistence', () => {
  it('commits the user message before the request, checkpoints the stream, and recovers it as interrupted', async () => {
    const f = await chatFixture({ baseUrl: llm.url, checkpointMs: 50 });
    open.push(f);
    await llm.script([{ type: 'text', text: 'One two', chunks: ['One ', 'two'], hang: true }]);
    const conversation = f.conversations.create();
    const user = f.turns.send(conversation.id, 'Count');
    expect(readRowElsewhere(f.dbPath, user.id)).toMatchObject({ status: 'complete' });

    // The answer reaches the file within a checkpoint interval, while it still streams.
    const answerId = await waitFor(() => f.all(conversation.id)[1]?.id, { what: 'the answer row' });
    await waitFor(() => readRowElsewhere(f.dbPath, answerId)?.content.includes('One two'), { what: 'a checkpoint with the text' });
    expect(readRowElsewhere(f.dbPath, answerId)?.status).toBe('streaming');
    expect(f.db.pragma('synchronous', { simple: true })).toBe(2); // FULL again after the relaxed checkpoint

    // "Kill": a new host opens the file while the old one never finished the answer.
    const restarted = restartOn(f.dataDir);
    const recovered = restarted.messages.page(conversation.id, undefined, 10).messages;
    expect(recovered.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'interrupted'],
    ]);
    expect(recovered[1].content).toEqual([{ type: 'text', text: 'One two' }]);
    expect(restarted.conversations.snapshot().conversations[0]).toMatchObject({ id: conversation.id, messageCount: 2, turn: 'idle' });
    restarted.db.close();
  });

  it('checkpoints at a tool-call boundary even before the interval', async () => {
    let open_ = () => {};
    const gate = { promise: new Promise<void>((resolve) => (open_ = resolve)), resolve: () => open_() };
    const tools = fakeToolbox([{ serverId: 's', serverName: 'srv', tool: sumTool() }], async () => {
      await gate.promise;
      return { status: 'ok', result: { content: [{ type: 'text', text: '3' }] } };
    });
    const f = await chatFixture({ baseUrl: llm.url, toolbox: tools.toolbox, checkpointMs: 60_000 });
    open.push(f);
    await llm.script([{ type: 'tool_use', text: 'Calling', calls: [{ nameEndsWith: '__get-sum', input: { a: 1, b: 2 } }], hang: true }]);
    const conversation = f.conversations.create();
    f.turns.send(conversation.id, 'add');
    const answerId = await waitFor(() => f.all(conversation.id)[1]?.id, { what: 'the answer row' });
    const row = await waitFor(
      () => {
        const r = readRowElsewhere(f.dbPath, answerId);
        return r && r.content.includes('tool_use') ? r : undefined;
      },
      { what: 'the tool-boundary checkpoint' },
    );
    expect(JSON.parse(row.content)).toEqual([
      { type: 'text', text: 'Calling' },
      expect.objectContaining({ type: 'tool_use', name: 'srv__get-sum', input: { a: 1, b: 2 }, serverId: 's', toolName: 'get-sum' }),
    ]);
    await f.turns.stop(conversation.id);
    gate.resolve();
    // Stopped mid-stream with a finished call in it: kept, and the call is recorded as not run.
    const messages = f.all(conversation.id);
    expect(messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'interrupted'],
      ['user', 'complete'],
    ]);
    expect(messages[2].content[0]).toMatchObject({ type: 'tool_result', outcome: 'cancelled' });
    expect(tools.calls).toHaveLength(0);
  });

  it('pages history by keyset, oldest first within a page', async () => {
    const f = await chatFixture({ baseUrl: llm.url });
    open.push(f);
    const conversation = f.conversations.create();
    const messages = new MessageRepository(f.db);
    for (let i = 1; i <= 25; i++) {
      messages.append(
        {
          conversationId: conversation.id,
          role: i % 2 ? 'user' : 'assistant',
          content: [{ type: 'text', text: `m${i}` }],
          status: 'complete',
        },
        new Date(),
      );
    }
    const newest = f.conversations.page(conversation.id, undefined, 10);
    expect(newest.messages.map((m) => m.seq)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    expect(newest.hasMore).toBe(true);
    const older = f.conversations.page(conversation.id, newest.messages[0].seq, 10);
    expect(older.messages.map((m) => m.seq)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    const oldest = f.conversations.page(conversation.id, older.messages[0].seq, 10);
    expect(oldest).toMatchObject({ hasMore: false });
    expect(oldest.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(f.summary(conversation.id).messageCount).toBe(25);

    await f.conversations.remove(conversation.id);
    expect(f.db.prepare('SELECT COUNT(*) AS n FROM chat_messages').get()).toEqual({ n: 0 });
  });
});
