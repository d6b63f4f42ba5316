import { z } from 'zod';
import { ByIdSchema, IdString, method } from './method';
import type { ConversationSummary } from './chat';
import type { ContentFlag } from './content-flags';

/**
 * Per-tool control and tool sets (issue #30): which tools of each server the user offers to the model,
 * which are pinned (always sent up front, even when tool search is on), what a server's new tools start
 * as, and named sets of servers and tools a conversation can use. The core keeps every choice; the
 * renderer mirrors this snapshot.
 */

/** One tool of a Ready server and the user's choices for it. */
export interface ToolOfferView {
  serverId: string;
  serverName: string;
  tool: string;
  title?: string;
  /** The first line of its description (searched by the tool lists). */
  description?: string;
  /** Sent to models (when the conversation's servers and set include it). Off: only the user runs it. */
  offered: boolean;
  /** Always sent up front, even when tool search is on. */
  pinned: boolean;
  /** What the content scanner flagged in its title and description (see `ToolView.flags`). */
  flags?: ContentFlag[];
}

/** A server named by a tool set, with its name when the set was saved (to say what is gone). */
export interface ToolSetServer {
  id: string;
  name: string;
}

/** A tool named by a tool set. */
export interface ToolSetTool {
  serverId: string;
  serverName: string;
  tool: string;
}

export interface ToolSetMembers {
  /** Whole servers: every offered tool of theirs, those they add later too. */
  servers: ToolSetServer[];
  /** Single tools. */
  tools: ToolSetTool[];
  /**
   * The set also takes in servers added after it was saved: every tool of a server not among
   * `knownServerIds` (the servers there were when it was last saved, chosen or left out). Absent: it
   * does not (a set saved before this choice existed reads so).
   */
  addedLater?: { knownServerIds: string[] };
}

/** A set's member that is gone: `label` names it ("echo on Everything", "Everything"). */
export interface UnavailableMember {
  kind: 'server' | 'tool';
  label: string;
}

export interface ToolSetView {
  id: string;
  name: string;
  members: ToolSetMembers;
  /** Members that no longer exist (a removed server, a tool its Ready server no longer lists). */
  unavailable: UnavailableMember[];
}

export interface ToolOffersSnapshot {
  /** Every tool of every Ready server, in server order. */
  tools: ToolOfferView[];
  /** Per server id, whether its new tools are offered; absent: yes (the default). */
  offerNew: Record<string, boolean>;
  sets: ToolSetView[];
}

/** Whether a set names this tool, itself or through its whole server (the core and the renderer agree on it here). */
export function setIncludes(members: ToolSetMembers, serverId: string, tool: string): boolean {
  return (
    members.servers.some((s) => s.id === serverId) ||
    members.tools.some((t) => t.serverId === serverId && t.tool === tool) ||
    isAddedLater(members, serverId)
  );
}

/** Whether the set takes in this server as one added after it was saved. */
export function isAddedLater(members: ToolSetMembers, serverId: string): boolean {
  return members.addedLater !== undefined && !members.addedLater.knownServerIds.includes(serverId);
}

/** A copy's number stripped: "Everything (demo) 7" reads as "Everything (demo)" (quick-add and import number copies so). */
const baseName = (name: string) => name.replace(/ \d+$/, '');

/**
 * Names in words a person reads at a glance, copies counted once: "Everything ×11, Filesystem" for
 * Everything, Everything 2 … Everything 11 and Filesystem (a set's members, what of it is gone).
 */
export function countedNames(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(baseName(name), (counts.get(baseName(name)) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
}

/** The words a set's unavailable members are shown with. */
export function describeUnavailable(unavailable: readonly UnavailableMember[]): string {
  const n = unavailable.length;
  const kind = unavailable.every((m) => m.kind === 'tool') ? 'tool' : unavailable.every((m) => m.kind === 'server') ? 'server' : 'member';
  const what = `${n} ${kind}${n === 1 ? ' in this set is' : 's in this set are'}`;
  const labels = countedNames(unavailable.map((m) => m.label));
  return `${what} no longer available: ${labels}. The rest of the set still applies; edit the set in Settings to drop them.`;
}

const ToolName = z.string().min(1).max(500);
const SetToolOfferedSchema = z.object({ serverId: IdString, tool: ToolName, offered: z.boolean() }).strict();
const SetToolPinnedSchema = z.object({ serverId: IdString, tool: ToolName, pinned: z.boolean() }).strict();
const SetOfferNewSchema = z.object({ serverId: IdString, offerNew: z.boolean() }).strict();
export const ToolSetNameSchema = z.string().trim().min(1, 'A tool set needs a name').max(100, 'At most 100 characters');
const MembersInputSchema = z
  .object({
    servers: z.array(IdString).max(500),
    tools: z.array(z.object({ serverId: IdString, tool: ToolName }).strict()).max(5000),
    /** Take in the servers added after this save (see `ToolSetMembers.addedLater`). */
    addedLater: z.boolean().optional(),
  })
  .strict();
/** A set's members as the user picks them: whole servers by id, and tools by server id and name. */
export type ToolSetMemberIds = z.infer<typeof MembersInputSchema>;
const SaveToolSetSchema = z.object({ id: IdString.optional(), name: ToolSetNameSchema, members: MembersInputSchema }).strict();
const ConversationToolSetSchema = z.object({ id: IdString, toolSetId: IdString.nullable() }).strict();

export const toolOfferMethods = {
  /** Offers a tool to the model, or keeps it for the user's own runs only. */
  setToolOffered: method<typeof SetToolOfferedSchema, ToolOffersSnapshot>(SetToolOfferedSchema),
  /** Pins a tool: always sent up front, even when tool search is on. */
  setToolPinned: method<typeof SetToolPinnedSchema, ToolOffersSnapshot>(SetToolPinnedSchema),
  /** Whether the server's tools seen from now on (a first listing, `list_changed`) are offered. */
  setServerOfferNew: method<typeof SetOfferNewSchema, ToolOffersSnapshot>(SetOfferNewSchema),
  /** Creates a tool set (no id) or replaces one's name and members. */
  saveToolSet: method<typeof SaveToolSetSchema, ToolSetView>(SaveToolSetSchema),
  deleteToolSet: method<typeof ByIdSchema, void>(ByIdSchema),
  /** The tool set a conversation uses; null: every offered tool. */
  setConversationToolSet: method<typeof ConversationToolSetSchema, ConversationSummary>(ConversationToolSetSchema),
};

export interface ToolOfferEvents {
  /** A choice, a set, or the tools of Ready servers changed. */
  toolOffersChanged: ToolOffersSnapshot;
}
