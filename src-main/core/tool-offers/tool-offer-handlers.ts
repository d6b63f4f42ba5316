import type { HandlersFor, ToolOffersSnapshot, toolOfferMethods } from '@contract';
import { HostCallError } from '@contract';
import type { ToolOfferRepository } from './tool-offer-repository';
import type { ToolSets } from './tool-sets';

export interface ToolOfferHandlerDeps {
  offers: ToolOfferRepository;
  sets: ToolSets;
  /** Emits the new snapshot and returns it. */
  changedNow(): ToolOffersSnapshot;
  onSetDeleted(id: string): void;
  /** A configured server's name; undefined when there is no such server. */
  serverName(id: string): string | undefined;
}

/**
 * The tool offers' methods. Choosing a conversation's set (`setConversationToolSet`) is the chat's: it
 * edits a conversation, and the chat is made after the tool offers (see chat-area.ts).
 */
export function createToolOfferHandlers(deps: ToolOfferHandlerDeps): Omit<HandlersFor<typeof toolOfferMethods>, 'setConversationToolSet'> {
  const { offers, sets, changedNow } = deps;
  const known = (serverId: string) => {
    if (deps.serverName(serverId) === undefined) {
      throw new HostCallError('invalid_input', `No server with id ${serverId}: it may have been removed. Nothing was changed.`);
    }
  };
  return {
    setToolOffered: async ({ serverId, tool, offered }) => {
      known(serverId);
      offers.setOffered(serverId, tool, offered);
      return changedNow();
    },
    setToolPinned: async ({ serverId, tool, pinned }) => {
      known(serverId);
      offers.setPinned(serverId, tool, pinned);
      return changedNow();
    },
    setServerOfferNew: async ({ serverId, offerNew }) => {
      known(serverId);
      offers.setOfferNew(serverId, offerNew);
      return changedNow();
    },
    saveToolSet: async (input) => {
      const saved = sets.save(input);
      changedNow();
      return saved;
    },
    deleteToolSet: async ({ id }) => {
      if (!sets.remove(id)) throw new HostCallError('invalid_input', `No tool set with id ${id}: it may already have been deleted.`);
      deps.onSetDeleted(id);
      changedNow();
    },
  };
}
