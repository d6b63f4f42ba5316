/**
 * What a conversation offers the model, as the chat's tool picker shows it: the same rule as the
 * core's toolbox (offered tools of the conversation's servers, within its tool set), from the
 * store's mirror of the host's choices.
 */
import { setIncludes, type ToolOfferView, type ToolSetMemberIds, type ToolSetView } from '@contract';

/** The tools the model gets: offered, of the chosen servers (null: every Ready server), within the set. */
export function toolsForModel(tools: readonly ToolOfferView[], serverIds: readonly string[] | null, set?: ToolSetView): ToolOfferView[] {
  return tools.filter(
    (t) => t.offered && (serverIds === null || serverIds.includes(t.serverId)) && (!set || setIncludes(set.members, t.serverId, t.tool)),
  );
}

/** "38 of 228 tools" */
export function offeredCount(offered: number, total: number): string {
  return `${offered} of ${total} ${total === 1 ? 'tool' : 'tools'}`;
}

/**
 * A selection as tool set members: a server all of whose offered tools are selected is named whole
 * (its tools added later come with it), else its selected tools one by one.
 */
export function selectionAsMembers(selected: readonly ToolOfferView[], all: readonly ToolOfferView[]): ToolSetMemberIds {
  const servers: string[] = [];
  const tools: ToolSetMemberIds['tools'] = [];
  for (const serverId of new Set(selected.map((t) => t.serverId))) {
    const mine = selected.filter((t) => t.serverId === serverId);
    const offered = all.filter((t) => t.serverId === serverId && t.offered);
    if (mine.length === offered.length) servers.push(serverId);
    else tools.push(...mine.map((t) => ({ serverId, tool: t.tool })));
  }
  return { servers, tools };
}
