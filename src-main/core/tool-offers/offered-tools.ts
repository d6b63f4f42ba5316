/**
 * What goes to the model: of the tools a conversation could use, those the user offers (and, with a
 * tool set, those the set names), each marked pinned when the user pinned it.
 */
import { setIncludes, type ToolSetMembers } from '@contract';
import type { FleetTool } from '../server-fleet/fleet-tools';
import type { ToolChoice } from './tool-offer-repository';

/** The choice for a tool of a server (recorded at first sight, so a missing one means "offered"). */
export type ChoiceOf = (serverId: string, tool: string) => ToolChoice | undefined;

export function offeredTools(entries: readonly FleetTool[], choiceOf: ChoiceOf, set?: ToolSetMembers): FleetTool[] {
  const offered: FleetTool[] = [];
  for (const entry of entries) {
    const choice = choiceOf(entry.serverId, entry.tool.name);
    if (choice && !choice.offered) continue;
    if (set && !setIncludes(set, entry.serverId, entry.tool.name)) continue;
    offered.push(choice?.pinned ? { ...entry, pinned: true } : entry);
  }
  return offered;
}
