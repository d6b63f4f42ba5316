import type { InstallPlan, InstallPreview, RegistryEntry } from '@contract';

/** A registry entry as the host lists it. */
export function registryEntry(overrides: Partial<RegistryEntry> = {}): RegistryEntry {
  return {
    id: 'io.github.modelcontextprotocol/everything@2026.8.31',
    name: 'io.github.modelcontextprotocol/everything',
    title: 'Everything',
    description: 'MCP server that exercises all the features of the MCP protocol',
    version: '2026.8.31',
    publisher: 'io.github.modelcontextprotocol',
    repositoryUrl: 'https://github.com/modelcontextprotocol/servers',
    kinds: ['npm'],
    options: [{ index: 0, kind: 'npm', label: 'npm @modelcontextprotocol/server-everything 2026.8.31', supported: true }],
    ...overrides,
  };
}

/** A preview as the host computes it. */
export function installPreview(overrides: Partial<InstallPreview> = {}): InstallPreview {
  return {
    name: 'Everything',
    transport: 'stdio',
    commandLine: 'npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio',
    env: [],
    headers: [],
    missing: [],
    notes: [],
    risks: [],
    ...overrides,
  };
}

/** An install plan as the host makes it. */
export function installPlan(overrides: Partial<InstallPlan> = {}): InstallPlan {
  return {
    source: { kind: 'registry', entryId: 'io.github.modelcontextprotocol/everything@2026.8.31', option: 0 },
    about: { title: 'Everything', facts: [{ label: 'Version', value: '2026.8.31' }], warnings: [] },
    suggestedName: 'Everything',
    fields: [],
    preview: installPreview(),
    startByDefault: true,
    ...overrides,
  };
}
