import type { chatMethods, HandlersFor } from '../../../src-preload/contract';
import type { HostEventBus } from '../events';
import type { ApiKeyStore } from '../llm/api-key-store';
import type { LlmProvider } from '../llm/llm-types';
import type { ChatService } from './chat-service';
import type { MessageSender } from './message-sender';

export interface ChatHandlerDeps {
  chat: ChatService;
  keys: ApiKeyStore;
  provider: LlmProvider;
  events: HostEventBus;
  /** Sends messages with their attachments and chosen prompt. */
  sender: MessageSender;
}

/** The contract's chat methods. */
export function createChatHandlers({ chat, keys, provider, events, sender }: ChatHandlerDeps): HandlersFor<typeof chatMethods> {
  return {
    createConversation: async (input) => chat.create(input?.title),
    renameConversation: async ({ id, title }) => chat.rename(id, title),
    deleteConversation: async ({ id }) => chat.remove(id),
    listConversations: async (input) => chat.list(input),
    setConversationServers: async ({ id, serverIds }) => chat.setServers(id, serverIds),
    listMessages: async ({ conversationId, beforeSeq, limit }) => chat.page(conversationId, beforeSeq, limit),
    sendMessage: async (input) => sender.send(input),
    attachResource: async ({ serverId, uri, name }) => sender.attach(serverId, uri, name),
    detachResource: async ({ attachmentId }) => sender.detach(attachmentId),
    stopTurn: async ({ conversationId }) => chat.stop(conversationId),
    retryTurn: async ({ conversationId }) => chat.retry(conversationId),
    setApiKey: async ({ apiKey }) => {
      const apiKeyStatus = await keys.set(apiKey);
      events.emit('llmStatusChanged', { apiKey: apiKeyStatus });
      return { apiKey: apiKeyStatus };
    },
    clearApiKey: async () => {
      const apiKeyStatus = keys.clear();
      events.emit('llmStatusChanged', { apiKey: apiKeyStatus });
      return { apiKey: apiKeyStatus };
    },
    listModels: async () => provider.listModels({ signal: AbortSignal.timeout(10_000) }),
  };
}
