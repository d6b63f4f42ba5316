/**
 * The chat's conversations and turns on a temp database, talking to the scripted Messages API over real HTTP, with a
 * toolbox the test controls. Records every event.
 */
import type { Tool } from '@modelcontextprotocol/client';
import Database from 'better-sqlite3';
import path from 'node:path';
import { DEFAULT_SETTINGS, type ChatMessage, type ConversationSummary, type HostEvent, type Settings } from '@contract';
import { tempDir } from '../../../test-support/temp-dir';
import { HostEventBus } from '../../events';
import { systemClock } from '../../clock';
import { createLlmArea, createProviderRegistry, type LlmArea } from '../../llm/llm-area';
import { KeyFileSecretBox } from '../../secrets/key-file-secret-box';
import { waitFor } from '../../servers/wait';
import { DATABASE_FILE, openDatabase } from '../../store/database';
import { ChatTurns } from '../chat-turns';
import { Conversations } from '../conversations';
import { RunningTurns } from '../running-turns';
import type { FleetTool } from '../../server-fleet/fleet-tools';
import type { ToolCallDone, ToolCallRequest } from '../../tools/tool-call';
import type { ChatToolbox } from '../chat-toolbox';
import { ConversationRepository } from '../conversation-repository';
import { MessageRepository } from '../message-repository';

export function sumTool(name = 'get-sum'): Tool {
  return {
    name,
    description: 'Adds two numbers',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  };
}

/** A toolbox over fixed tools whose calls `answer` decides (default: "done" with the args echoed). */
export function fakeToolbox(
  entries: FleetTool[],
  answer: (request: ToolCallRequest) => Promise<Pick<ToolCallDone, 'status' | 'result'>> = async (r) => ({
    status: 'ok',
    result: { content: [{ type: 'text', text: `ran ${r.tool} with ${JSON.stringify(r.args)}` }] },
  }),
) {
  const calls: ToolCallRequest[] = [];
  const toolbox: ChatToolbox = {
    list: (serverIds) => entries.filter((e) => !serverIds || serverIds.includes(e.serverId)),
    async call(request) {
      calls.push(request);
      return answer(request);
    },
  };
  return { toolbox, calls };
}

export interface ChatFixtureOptions {
  baseUrl: string;
  toolbox?: ChatToolbox;
  settings?: Partial<Settings>;
  apiKey?: string | null;
  dataDir?: string;
  checkpointMs?: number;
}

export interface ChatFixture {
  dataDir: string;
  db: Database.Database;
  dbPath: string;
  conversations: Conversations;
  turns: ChatTurns;
  settings: Settings;
  /** The real provider area on the same database (the Anthropic provider points at `baseUrl`). */
  llm: LlmArea;
  events: HostEvent[];
  idle(conversationId: string): Promise<unknown>;
  summary(conversationId: string): ConversationSummary;
  all(conversationId: string): ChatMessage[];
  close(): Promise<void>;
}

export async function chatFixture(options: ChatFixtureOptions): Promise<ChatFixture> {
  const dataDir = options.dataDir ?? tempDir();
  const { db } = openDatabase(dataDir);
  const events = new HostEventBus();
  const seen: HostEvent[] = [];
  events.subscribe((event) => seen.push(event));
  const settings: Settings = { ...DEFAULT_SETTINGS, anthropicBaseUrl: options.baseUrl, ...options.settings };
  const providers = createProviderRegistry({
    db,
    mode: 'web',
    secrets: new KeyFileSecretBox(dataDir),
    env: {},
    events,
    clock: systemClock,
  });
  const llm = createLlmArea({
    registry: providers.registry,
    defaults: () => ({ providerId: settings.defaultProviderId, model: settings.defaultModel }),
  });
  providers.linkedSettings.write({ anthropicBaseUrl: options.baseUrl }, new Date());
  if (options.apiKey !== null) await llm.quick.setKey(options.apiKey ?? 'sk-test');
  const messages = new MessageRepository(db);
  const repository = new ConversationRepository(db);
  const running = new RunningTurns();
  const common = { messages, router: llm.router, settings: () => settings, events, now: () => new Date(), running };
  const conversations = new Conversations({ ...common, conversations: repository, llmStatus: llm.status });
  const turns = new ChatTurns({
    ...common,
    conversations,
    repository,
    toolbox: options.toolbox ?? {
      list: () => [],
      call: async () => {
        throw new Error('no tools in this test');
      },
    },
    checkpointMs: options.checkpointMs,
    batchMs: 10,
  });
  const idle = (conversationId: string) =>
    waitFor(() => conversations.snapshot().conversations.find((c) => c.id === conversationId)?.turn === 'idle', {
      timeoutMs: 15_000,
      what: 'the turn to end',
    });
  const summary = (conversationId: string) => conversations.snapshot().conversations.find((c) => c.id === conversationId)!;
  const all = (conversationId: string) => messages.page(conversationId, undefined, 1000).messages;
  return {
    dataDir,
    db,
    dbPath: path.join(dataDir, DATABASE_FILE),
    conversations,
    turns,
    settings,
    llm,
    events: seen,
    idle,
    summary,
    all,
    async close() {
      await turns.dispose();
      llm.dispose();
      db.close();
    },
  };
}

/** Reads a message row from another connection, as a restarted host would see the file. */
export function readRowElsewhere(dbPath: string, id: number): { status: string; content: string } | undefined {
  const other = new Database(dbPath, { readonly: true });
  try {
    return other.prepare<[number], { status: string; content: string }>('SELECT status, content FROM chat_messages WHERE id = ?').get(id);
  } finally {
    other.close();
  }
}
