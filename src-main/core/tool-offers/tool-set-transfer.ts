/**
 * Tool sets in a Patchbay export (`toolSets` beside `servers`), and back when that export is imported
 * elsewhere. Servers get new ids there, so members travel by server name and are matched by name on
 * import; a member whose server is not there is left out and said so.
 */
import { z } from 'zod';
import { ToolSetNameSchema, type ToolSetMemberIds } from '@contract';
import type { StoredToolSet } from './tool-set-repository';

/** One tool set as exported. */
export interface ExportedToolSet {
  name: string;
  servers: string[];
  tools: { server: string; tool: string }[];
  /** Takes in servers added later (there: those added after the import). */
  addedLater?: boolean;
}

const ExportedToolSetsSchema = z.object({
  toolSets: z
    .array(
      z.object({
        name: ToolSetNameSchema,
        servers: z.array(z.string().max(200)).max(500).default([]),
        tools: z
          .array(z.object({ server: z.string().max(200), tool: z.string().min(1).max(500) }))
          .max(5000)
          .default([]),
        addedLater: z.boolean().default(false),
      }),
    )
    .max(500),
});

export function exportToolSets(sets: readonly StoredToolSet[]): ExportedToolSet[] {
  return sets.map((set) => ({
    name: set.name,
    servers: set.members.servers.map((s) => s.name),
    tools: set.members.tools.map((t) => ({ server: t.serverName, tool: t.tool })),
    ...(set.members.addedLater ? { addedLater: true } : {}),
  }));
}

/** A set to create from an imported file, and what of it could not be matched. */
export interface ImportedToolSet {
  name: string;
  members: ToolSetMemberIds;
  leftOut: string[];
}

/** The tool sets of an export's text (none when it has none or is another format), matched by server name. */
export function importedToolSets(text: string, serverIdByName: (name: string) => string | undefined): ImportedToolSet[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return []; // JSONC or another app's file: those carry no tool sets
  }
  const parsed = ExportedToolSetsSchema.safeParse(document);
  if (!parsed.success) return [];
  return parsed.data.toolSets.map((set) => {
    const leftOut: string[] = [];
    const servers = set.servers.flatMap((name) => {
      const id = serverIdByName(name);
      if (!id) leftOut.push(name);
      return id ? [id] : [];
    });
    const tools = set.tools.flatMap(({ server, tool }) => {
      const id = serverIdByName(server);
      if (!id) leftOut.push(`${tool} on ${server}`);
      return id ? [{ serverId: id, tool }] : [];
    });
    return { name: set.name, members: { servers, tools, ...(set.addedLater ? { addedLater: true } : {}) }, leftOut };
  });
}
