import type { chatMethods, HandlersFor } from '../../../src-preload/contract';
import type { LlmStatus, ModelList } from '../../../src-preload/contract';
import type { ChatService } from './chat-service';

/** The older key and model methods, which act on the Anthropic provider and the default model. */
export interface QuickLlm {
  setKey(apiKey: string): Promise<LlmStatus>;
  clearKey(): Promise<LlmStatus>;
  listModels(): Promise<ModelList>;
}

export interface ChatHandlerDeps {
  chat: ChatService;
  quick: QuickLlm;
}

/** The contract's chat methods. */
export function createChatHandlers({ chat, quick }: ChatHandlerDeps): HandlersFor<typeof chatMethods> {
  return {
    createConversation: async (input) => chat.create(input?.title),
    renameConversation: async ({ id, title }) => chat.rename(id, title),
    deleteConversation: async ({ id }) => chat.remove(id),
    setConversationServers: async ({ id, serverIds }) => chat.setServers(id, serverIds),
    listMessages: async ({ conversationId, beforeSeq, limit }) => chat.page(conversationId, beforeSeq, limit),
    sendMessage: async ({ conversationId, text }) => chat.send(conversationId, text),
    stopTurn: async ({ conversationId }) => chat.stop(conversationId),
    retryTurn: async ({ conversationId, withoutTools }) => chat.retry(conversationId, withoutTools),
    setConversationModel: async ({ id, providerId, model }) => chat.setModel(id, { providerId, model }),
    setApiKey: async ({ apiKey }) => quick.setKey(apiKey),
    clearApiKey: async () => quick.clearKey(),
    listModels: async () => quick.listModels(),
  };
}
