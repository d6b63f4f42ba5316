import type { ConversationSummary, HandlersFor, ToolOffersSnapshot, toolOfferMethods } from '@contract';
import { HostCallError } from '@contract';
import type { ToolOfferRepository } from './tool-offer-repository';
import type { ToolSets } from './tool-sets';

export interface ToolOfferHandlerDeps {
  offers: ToolOfferRepository;
  sets: ToolSets;
  /** Emits the new snapshot and returns it. */
  changedNow(): ToolOffersSnapshot;
  setConversationToolSet(conversationId: string, toolSetId: string | null): ConversationSummary;
  onSetDeleted(id: string): void;
  /** A configured server's name; undefined when there is no such server. */
  serverName(id: string): string | undefined;
}

export function createToolOfferHandlers(deps: ToolOfferHandlerDeps): HandlersFor<typeof toolOfferMethods> {
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
    setConversationToolSet: async ({ id, toolSetId }) => {
      if (toolSetId !== null && !sets.get(toolSetId)) {
        throw new HostCallError('invalid_input', `No tool set with id ${toolSetId}: it may have been deleted. Choose another set.`);
      }
      return deps.setConversationToolSet(id, toolSetId);
    },
  };
}
