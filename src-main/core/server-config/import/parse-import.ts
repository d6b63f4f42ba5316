import { getNodeValue, type Node } from 'jsonc-parser';
import type { ImportPreview, ImportPreviewEntry } from '@contract';
import { convertEntry, type EntryContext } from './convert-entry';
import { isRecord, memberOf, membersOf, own, readJsonc } from './read-jsonc';
import { PatchbayExportSchema, restoreEntry, type PatchbayRestoreContext } from './patchbay-format';
import { readInputs } from './variables';

/** What `parseImport` needs to know about the world; it reads nothing itself. */
export interface ImportContext {
  /** Names of the servers already configured (compared trimmed and case-insensitively). */
  existingNames: ReadonlySet<string>;
  /** The user's home directory, for VS Code's `${userHome}`. */
  homeDir: string;
  /** Restoring a Patchbay export: the data directory (for `${patchbayData}`) and which bundles are installed. */
  restore?: PatchbayRestoreContext;
}

/**
 * Says what importing a pasted config file would do, entry by entry, in file order. Pure: the
 * caller supplies the existing names and the home directory, and nothing is saved.
 *
 * Understands Claude Desktop's claude_desktop_config.json and Cursor's, Claude Code's and Windsurf's
 * files (`mcpServers`), VS Code's mcp.json (`servers` + `inputs`) and VS Code's settings.json
 * (`mcp.servers`), with comments and trailing commas; local (command) and remote (url) entries alike.
 * Any other JSON is format `unknown` with no entries.
 *
 * An `import` entry carries the server as `ServerInputSchema` parsed it (defaults filled); when the
 * user still has something to fill in (a `${input:…}` value or header, an unresolved `${…}` variable) it is
 * imported disabled and `reason` says what to do. A `skip` entry's `reason` says why.
 *
 * @throws HostCallError `invalid_input` when the text is not JSON (the message gives line and column).
 */
export function parseImport(text: string, context: ImportContext): ImportPreview {
  const root = readJsonc(text);
  const exported = PatchbayExportSchema.safeParse(getNodeValue(root));
  if (exported.success) return parsePatchbayExport(exported.data.servers, context);
  const found = locateServers(root);
  if (!found) return { format: 'unknown', entries: [] };

  const entryContext: EntryContext = { homeDir: context.homeDir, inputs: readInputs(found.inputs) };
  const existing = new Set([...context.existingNames].map(nameKey));
  // Names taken by entries of this file that will be imported → the name as written there.
  const claimed = new Map<string, string>();
  const entries: ImportPreviewEntry[] = [];

  for (const [name, node] of found.servers) {
    const key = nameKey(name);
    if (existing.has(key)) {
      entries.push({ name, action: 'skip', reason: `A server named "${name.trim()}" already exists` });
      continue;
    }
    const converted = convertEntry(name, getNodeValue(node), entryContext);
    if (!converted.ok) {
      entries.push({ name, action: 'skip', reason: converted.reason });
      continue;
    }
    // Only entries that will be imported claim a name: a skipped WebSocket "github" does not stop a
    // later stdio "GitHub", since only one of them would be added.
    const earlier = claimed.get(key);
    if (earlier !== undefined) {
      entries.push({ name, action: 'skip', reason: `Same name as "${earlier}" earlier in this file` });
      continue;
    }
    claimed.set(key, name);
    entries.push({ name, action: 'import', server: converted.server, ...(converted.note ? { reason: converted.note } : {}) });
  }
  return { format: found.format, entries };
}

/** A Patchbay export: every server as it was (secrets to be filled), the same duplicate rules as any import. */
function parsePatchbayExport(servers: unknown[], context: ImportContext): ImportPreview {
  const restore = context.restore ?? { dataDir: '', bundleAvailable: () => false };
  const taken = new Set([...context.existingNames].map(nameKey));
  const claimedBundles = new Set<string>();
  const entries: ImportPreviewEntry[] = servers.map((raw, index) => {
    const entry = restoreEntry(raw, restore);
    const name = entry.name ?? `Server ${index + 1}`;
    if (entry.action === 'import' && taken.has(nameKey(name)))
      return { name, action: 'skip', reason: `A server named "${name.trim()}" already exists` };
    if (entry.action === 'import' && entry.bundleId && claimedBundles.has(entry.bundleId)) {
      return { name, action: 'skip', reason: `Runs the bundle ${entry.bundleId}, which another server of this file runs already` };
    }
    if (entry.action === 'import') taken.add(nameKey(name));
    if (entry.bundleId) claimedBundles.add(entry.bundleId);
    return { ...entry, name };
  });
  return { format: 'patchbay', entries };
}

interface FoundServers {
  format: Exclude<ImportPreview['format'], 'unknown'>;
  servers: [string, Node][];
  inputs: unknown;
}

function locateServers(root: Node): FoundServers | undefined {
  const mcpServers = memberOf(root, 'mcpServers');
  if (mcpServers?.type === 'object') {
    const servers = membersOf(mcpServers);
    return { format: looksLikeCursor(servers) ? 'cursor' : 'claude-desktop', servers, inputs: undefined };
  }
  const servers = memberOf(root, 'servers');
  if (servers?.type === 'object') return vscode(servers, memberOf(root, 'inputs'));
  // settings.json nests both under "mcp".
  const mcp = memberOf(root, 'mcp');
  const nested = memberOf(mcp, 'servers');
  if (nested?.type === 'object') return vscode(nested, memberOf(mcp, 'inputs'));
  return undefined;
}

function vscode(servers: Node, inputs: Node | undefined): FoundServers {
  return { format: 'vscode', servers: membersOf(servers), inputs: inputs ? getNodeValue(inputs) : undefined };
}

/**
 * Claude Desktop and Cursor share the `mcpServers` shape; only keys Claude Desktop does not know
 * tell them apart. A `url` does not: people paste remote entries into Claude Desktop's file too.
 */
function looksLikeCursor(servers: [string, Node][]): boolean {
  return servers.some(([, node]) => {
    const entry: unknown = getNodeValue(node);
    return isRecord(entry) && (own(entry, 'type') !== undefined || own(entry, 'envFile') !== undefined);
  });
}

/** How names compare, as the server repository compares them. */
function nameKey(name: string): string {
  return name.trim().toLowerCase();
}
