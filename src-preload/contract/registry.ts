import { z } from 'zod';
import { method } from './method';

/**
 * The MCP Registry (`GET /v0.1/servers`): the host searches it — never the renderer — at the base URL
 * of the `registryUrl` setting, and hands back what it could read of each entry. Entries are untrusted
 * data: each is validated, and one that does not validate is skipped with a note.
 */

/** The official registry; an organisation can point the setting at its own. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** How one entry can be installed: one of its packages, or one of its remotes. */
export interface RegistryInstallOption {
  /** Its index in `RegistryEntry.options` (what `InstallSource.option` names). */
  index: number;
  /** `npm`, `pypi`, `oci`, `nuget`, `mcpb`… for packages; `streamable-http` or `sse` for remotes. */
  kind: string;
  /** "npm @scope/server 1.2.3", "Remote https://…". */
  label: string;
  /** False when Patchbay cannot install this kind yet; `unsupportedReason` says why. */
  supported: boolean;
  unsupportedReason?: string;
}

/** One server of the registry, as the Find servers dialog lists it. */
export interface RegistryEntry {
  /** Stable for this name and version (what `InstallSource.entryId` names). */
  id: string;
  /** The registry name, reverse-DNS (`io.github.user/weather`). */
  name: string;
  /** A display title when the entry has one. */
  title?: string;
  description: string;
  version: string;
  /** Who published it: the namespace of the name (`io.github.user`). */
  publisher: string;
  repositoryUrl?: string;
  websiteUrl?: string;
  /** `active`, `deprecated`… when the registry says. */
  status?: string;
  /** Package kinds and remote transports, for the list (`npm`, `remote`…). */
  kinds: string[];
  options: RegistryInstallOption[];
}

/** One page of search results. */
export interface RegistryPage {
  registryUrl: string;
  entries: RegistryEntry[];
  /** Pass it back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
  /** Entries that were not valid and were left out, with why. */
  skipped: { name?: string; reason: string }[];
}

const SearchRegistrySchema = z.object({
  query: z.string().trim().max(200).default(''),
  cursor: z.string().max(2_000).optional(),
  limit: z.number().int().min(1).max(100).default(30),
});

export const registryMethods = {
  /** Searches the registry by name (substring), one page at a time. A failing registry is an error with its reason. */
  searchRegistry: method<typeof SearchRegistrySchema, RegistryPage>(SearchRegistrySchema),
};
