/**
 * Builds the chat area for the composition root: repositories, the API key store, the Anthropic
 * provider and the chat service, plus the handlers and snapshot part host.ts wires in.
 */
import type Database from 'better-sqlite3';
import type { ChatSnapshot, HostMode, Settings } from '../../../src-preload/contract';
import type { HostEventBus } from '../events';
import { AnthropicProvider } from '../llm/anthropic-provider';
import { ApiKeyStore } from '../llm/api-key-store';
import type { LlmProvider } from '../llm/llm-types';
import type { Clock } from '../clock';
import type { SecretBox } from '../secrets/secret-box';
import type { ChatContextSources } from './chat-context';
import { createChatHandlers } from './chat-handlers';
import { ChatService } from './chat-service';
import type { ChatToolbox } from './chat-toolbox';
import { ConversationRepository } from './conversation-repository';
import { MessageRepository } from './message-repository';
import { MessageSender } from './message-sender';

export interface ChatAreaOptions {
  db: Database.Database;
  mode: HostMode;
  secrets: SecretBox;
  /** The host's environment (web mode honours ANTHROPIC_API_KEY from it). */
  env: Record<string, string | undefined>;
  settings(): Settings;
  events: HostEventBus;
  clock: Clock;
  toolbox: ChatToolbox;
  /** Replaces the Anthropic provider (tests). */
  provider?: LlmProvider;
  /** Resources and prompts the user adds to messages (attachments, `/` prompts). */
  context?: ChatContextSources;
}

export interface ChatArea {
  service: ChatService;
  provider: LlmProvider;
  keys: ApiKeyStore;
  handlers: ReturnType<typeof createChatHandlers>;
  snapshot(): ChatSnapshot;
  /** Stops every running turn (call before the fleet stops, so tool calls are cancelled first). */
  dispose(): Promise<void>;
}

export function createChatArea(options: ChatAreaOptions): ChatArea {
  const { db, events, clock } = options;
  const keys = new ApiKeyStore({ db, secrets: options.secrets, mode: options.mode, env: options.env, now: clock.now });
  const provider =
    options.provider ?? new AnthropicProvider({ apiKey: () => keys.resolve(), baseUrl: () => options.settings().anthropicBaseUrl });
  const service = new ChatService({
    conversations: new ConversationRepository(db),
    messages: new MessageRepository(db),
    keys,
    provider,
    toolbox: options.toolbox,
    settings: options.settings,
    events,
    now: clock.now,
  });
  // A stored key that cannot be opened (e.g. sealed by the desktop app's keychain) is reported once known.
  void keys
    .check()
    .then(() => {
      if (keys.status().problem) events.emit('llmStatusChanged', { apiKey: keys.status() });
    })
    .catch(() => undefined); // the host may have been disposed meanwhile
  const sender = new MessageSender(service, options.settings, options.context);
  const handlers = createChatHandlers({ chat: service, keys, provider, events, sender });
  return { service, provider, keys, handlers, snapshot: () => service.snapshot(), dispose: () => service.dispose() };
}
